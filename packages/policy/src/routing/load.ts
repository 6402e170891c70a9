/**
 * Reading kuik objects: from JavaScript values (`parseRoutingResource`) and
 * from YAML text as users write it, several documents per file
 * (`loadRoutingResources`).
 */
import { parseAllDocuments } from "yaml";
import type { z } from "zod";
import { crdViolations } from "./crd-validation.js";
import { RoutingError } from "./errors.js";
import { describeValue, formatFieldPath, valueAtPath } from "./field-path.js";
import {
  KUIK_API_VERSION,
  ROUTING_KINDS,
  type RoutingResource,
  routingResourceSchema,
} from "./resource-schema.js";

/** How strictly objects are checked. */
export interface ParseRoutingResourceOptions {
  /**
   * `"crd"` (default) also applies the CRD's OpenAPI limits and CEL rules, as
   * the API server does on create. `"lenient"` accepts what kuik's webhook
   * can decode, e.g. objects created under an older CRD; kuik then tolerates
   * them as documented (an invalid regex skips the filter or the CR).
   */
  readonly validation?: "crd" | "lenient";
  /**
   * Namespace given to namespaced objects that carry none, as
   * `kubectl apply -n` would. Without it such objects are refused.
   */
  readonly defaultNamespace?: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function describeObject(value: unknown): string {
  const record = asRecord(value);
  const kind = typeof record?.kind === "string" ? record.kind : "object";
  const name = asRecord(record?.metadata)?.name;
  return typeof name === "string" ? `${kind} "${name}"` : kind;
}

/** Drops `null` members, as the API server does for fields that are not nullable. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  const record = asRecord(value);
  if (!record) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) if (v !== null) out[key] = dropNulls(v);
  return out;
}

function withDefaultNamespace(value: unknown, namespace: string | undefined): unknown {
  const record = asRecord(value);
  if (namespace === undefined || !record) return value;
  if (record.kind !== "ImageSetMirror" && record.kind !== "ReplicatedImageSet") return value;
  const metadata = asRecord(record.metadata);
  if (!metadata || metadata.namespace !== undefined) return value;
  return { ...record, metadata: { ...metadata, namespace } };
}

function issueError(value: unknown, issue: z.core.$ZodIssue): RoutingError {
  const path = issue.path as PropertyKey[];
  const found = valueAtPath(value, path);
  const where = formatFieldPath(path);
  let message = issue.message;
  if (issue.code === "invalid_union" && path.length === 0) {
    const kind = asRecord(value)?.kind;
    message = `kind must be one of ${ROUTING_KINDS.join(", ")}`;
    return new RoutingError("INVALID_RESOURCE", `${describeObject(value)}: kind: ${message}`, {
      path: "kind",
      value: kind,
    });
  }
  return new RoutingError(
    "INVALID_RESOURCE",
    `${describeObject(value)}: ${where || "(root)"}: ${message} (found ${describeValue(found)})`,
    { path: where, value: found },
  );
}

/**
 * Returns `value` as a validated routing object, or the first problem found
 * as a {@link RoutingError} (`INVALID_RESOURCE`, with `path` and `value`).
 *
 * @example
 * ```ts
 * const r = safeParseRoutingResource(obj);
 * if (!r.success) console.error(r.error.path, r.error.value);
 * ```
 */
export function safeParseRoutingResource(
  value: unknown,
  options: ParseRoutingResourceOptions = {},
): { success: true; resource: RoutingResource } | { success: false; error: RoutingError } {
  const input = withDefaultNamespace(dropNulls(value), options.defaultNamespace);
  const record = asRecord(input);
  if (!record) {
    return {
      success: false,
      error: new RoutingError(
        "INVALID_RESOURCE",
        `expected an object, found ${describeValue(input)}`,
        {
          path: "",
          value: input,
        },
      ),
    };
  }
  if (record.apiVersion !== KUIK_API_VERSION) {
    return {
      success: false,
      error: new RoutingError(
        "INVALID_RESOURCE",
        `${describeObject(input)}: apiVersion: must be "${KUIK_API_VERSION}" (found ${describeValue(record.apiVersion)})`,
        { path: "apiVersion", value: record.apiVersion },
      ),
    };
  }
  if (!ROUTING_KINDS.includes(record.kind as (typeof ROUTING_KINDS)[number])) {
    return {
      success: false,
      error: new RoutingError(
        "INVALID_RESOURCE",
        `${describeObject(input)}: kind: must be one of ${ROUTING_KINDS.join(", ")} (found ${describeValue(record.kind)})`,
        { path: "kind", value: record.kind },
      ),
    };
  }
  const parsed = routingResourceSchema().safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      success: false,
      error: first
        ? issueError(input, first)
        : new RoutingError("INVALID_RESOURCE", `${describeObject(input)}: invalid`, {
            value: input,
          }),
    };
  }
  if ((options.validation ?? "crd") === "crd") {
    const [violation] = crdViolations(input, parsed.data);
    if (violation) {
      const where = formatFieldPath(violation.path);
      return {
        success: false,
        error: new RoutingError(
          "INVALID_RESOURCE",
          `${describeObject(input)}: ${where}: ${violation.message} (found ${describeValue(violation.value)})`,
          { path: where, value: violation.value },
        ),
      };
    }
  }
  return { success: true, resource: parsed.data };
}

/**
 * Returns `value` as a validated routing object; throws a
 * {@link RoutingError} `INVALID_RESOURCE` naming the field and the value.
 *
 * @example
 * ```ts
 * const cism = parseRoutingResource({
 *   apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
 *   metadata: { name: "all" },
 *   spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
 * });
 * ```
 */
export function parseRoutingResource(
  value: unknown,
  options: ParseRoutingResourceOptions = {},
): RoutingResource {
  const result = safeParseRoutingResource(value, options);
  if (!result.success) throw result.error;
  return result.resource;
}

/** Options of {@link loadRoutingResources}. */
export interface LoadRoutingResourcesOptions extends ParseRoutingResourceOptions {
  /**
   * What to do with documents of other kinds (a Deployment in the same file):
   * `"error"` (default) refuses them, `"ignore"` skips them.
   */
  readonly otherKinds?: "error" | "ignore";
}

/**
 * Returns every kuik routing object of a YAML text: several documents
 * separated by `---`, empty documents skipped, `kind: List` expanded, scalars
 * read as YAML 1.1 as kubectl does (`discardAlternative: yes` is true). Throws
 * a {@link RoutingError}: `INVALID_YAML` (with the document index and
 * position) or `INVALID_RESOURCE` (with the document index, field path and
 * value).
 *
 * @example
 * ```ts
 * const resources = loadRoutingResources(`
 * apiVersion: kuik.enix.io/v1alpha1
 * kind: ClusterImageSetMirror
 * metadata: { name: all }
 * spec:
 *   filter: { include: [{ image: ".*" }] }
 *   mirrors: [{ registry: harbor.example.com, path: /mirror }]
 * `);
 * ```
 */
export function loadRoutingResources(
  text: string,
  options: LoadRoutingResourcesOptions = {},
): RoutingResource[] {
  const out: RoutingResource[] = [];
  // YAML 1.1, as kubectl reads manifests (sigs.k8s.io/yaml): `yes`/`on` are booleans.
  const documents = parseAllDocuments(text, { version: "1.1" });
  const list = Array.isArray(documents) ? documents : [documents];
  // Syntax first, for the whole file: a typo anywhere is reported before any schema problem.
  list.forEach((document, index) => {
    const [problem] = document.errors;
    if (problem) {
      throw new RoutingError("INVALID_YAML", `document ${index}: ${problem.message}`, {
        document: index,
        input: text,
        cause: problem,
      });
    }
  });
  list.forEach((document, index) => {
    const value: unknown = document.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) return;
    const items =
      asRecord(value)?.kind === "List" && Array.isArray(asRecord(value)?.items)
        ? (asRecord(value)?.items as unknown[])
        : [value];
    for (const item of items) {
      const record = asRecord(item);
      if (
        options.otherKinds === "ignore" &&
        (record?.apiVersion !== KUIK_API_VERSION ||
          !ROUTING_KINDS.includes(record.kind as (typeof ROUTING_KINDS)[number]))
      ) {
        continue;
      }
      const result = safeParseRoutingResource(item, options);
      if (!result.success) {
        const e = result.error;
        throw new RoutingError(e.code, `document ${index}: ${e.message}`, {
          ...(e.path === undefined ? {} : { path: e.path }),
          value: e.value,
          document: index,
        });
      }
      out.push(result.resource);
    }
  });
  return out;
}
