/**
 * Reading kuik objects from JavaScript values (`parseRoutingResource`): the
 * schema, the CRD's own rules, unknown fields, and errors that name the
 * object, the field and the value. Reading them from YAML text lives in the
 * `@kubeimg/policy/routing/yaml` subpath, so that routing without YAML
 * carries no YAML parser.
 */
import type * as z from "zod/mini";
import { safeParseEnglish } from "../objects/english-issues.js";
import { findUnknownMetadataFields } from "../objects/object-meta.js";
import {
  describeUnknownField,
  findUnknownFields,
  type UnknownField,
  type UnknownFieldPolicy,
} from "../objects/unknown-fields.js";
import { copyUserValue, MAX_OBJECT_DEPTH } from "../objects/user-object.js";
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
  /**
   * What to do with fields kuik's CRD does not know (a typo such as
   * `registy:` or `imageFilters:`, which kuik would silently drop):
   * `"strict"` (default) refuses the object with an `UNKNOWN_FIELD` error
   * naming the field and the closest known one, as `kubectl
   * --validate=strict` does; `"warn"` accepts it and reports each field
   * (`warnings` of the safe result, `onWarning` when loading); `"ignore"`
   * drops them quietly. `__proto__`, `constructor` and `prototype` are
   * unknown fields like any other, and never reach the result. Under
   * `validation: "lenient"` the default is `"warn"`: kuik's webhook decodes
   * objects without strict field checks.
   */
  readonly unknownFields?: UnknownFieldPolicy;
}

/** A field kuik's CRD does not know, accepted under `unknownFields: "warn"`. */
export interface RoutingWarning {
  readonly code: "UNKNOWN_FIELD";
  /** `Kind "name": unknown field "spec.filterTag" (did you mean …?)`. */
  readonly message: string;
  /** Dotted path of the field. */
  readonly path: string;
  /** The known field whose name is closest, when one is close. */
  readonly suggestion?: string;
  /** 0-based YAML document index, when loading YAML. */
  readonly document?: number;
}

/** The value as a plain record, or undefined for arrays and scalars. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
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

function withDefaultNamespace(value: unknown, namespace: string | undefined): unknown {
  const record = asRecord(value);
  if (namespace === undefined || !record) return value;
  if (record.kind !== "ImageSetMirror" && record.kind !== "ReplicatedImageSet") return value;
  const metadata = asRecord(record.metadata);
  if (!metadata || metadata.namespace !== undefined) return value;
  // Spread copies keys as data properties; the record has no prototype keys left.
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

 */
export function safeParseRoutingResource(
  value: unknown,
  options: ParseRoutingResourceOptions = {},
):
  | { success: true; data: RoutingResource; warnings: readonly RoutingWarning[] }
  | { success: false; error: RoutingError } {
  const fail = (error: RoutingError) => ({ success: false as const, error });
  // A copy without prototypes, `null` members dropped as the API server does;
  // `__proto__`, `constructor` and `prototype` come out as unknown fields.
  const copied = copyUserValue(value, { dropNulls: true });
  if (copied.tooDeep !== undefined) {
    const where = formatFieldPath(copied.tooDeep);
    return fail(
      new RoutingError(
        "INVALID_RESOURCE",
        `${describeObject(copied.value)}: ${where}: nested deeper than ${MAX_OBJECT_DEPTH} levels`,
        { path: where },
      ),
    );
  }
  const input = withDefaultNamespace(copied.value, options.defaultNamespace);
  const record = asRecord(input);
  if (!record) {
    return fail(
      new RoutingError("INVALID_RESOURCE", `expected an object, found ${describeValue(input)}`, {
        path: "",
        value: input,
      }),
    );
  }
  // The kind first: a Deployment among the CRs is blamed on what it is, not on its apiVersion.
  const notKuik =
    record.apiVersion === KUIK_API_VERSION
      ? ""
      : `: not a kuik object (loadRoutingResources skips those with otherKinds: "ignore")`;
  if (!ROUTING_KINDS.includes(record.kind as (typeof ROUTING_KINDS)[number])) {
    return fail(
      new RoutingError(
        "INVALID_RESOURCE",
        `${describeObject(input)}: kind: must be one of ${ROUTING_KINDS.join(", ")} (found ${describeValue(record.kind)})${notKuik}`,
        { path: "kind", value: record.kind },
      ),
    );
  }
  if (record.apiVersion !== KUIK_API_VERSION) {
    return fail(
      new RoutingError(
        "INVALID_RESOURCE",
        `${describeObject(input)}: apiVersion: must be "${KUIK_API_VERSION}" (found ${describeValue(record.apiVersion)})`,
        { path: "apiVersion", value: record.apiVersion },
      ),
    );
  }
  const policy =
    options.unknownFields ?? ((options.validation ?? "crd") === "lenient" ? "warn" : "strict");
  const warnings: RoutingWarning[] = [];
  if (policy !== "ignore") {
    const unknown = unknownFieldsOf(record, copied.prototypeKeys);
    if (unknown.length > 0 && policy === "strict") {
      return fail(unknownFieldError(input, unknown));
    }
    for (const field of unknown) {
      warnings.push({
        code: "UNKNOWN_FIELD",
        message: `${describeObject(input)}: ${describeUnknownField(field)}`,
        path: formatFieldPath(field.path),
        ...(field.suggestion === undefined ? {} : { suggestion: field.suggestion }),
      });
    }
  }
  // The status subresource is kuik's to write; a manifest read back from the
  // cluster carries one, and it plays no part in routing.
  const { status: _status, ...withoutStatus } = record;
  const parsed = safeParseEnglish(routingResourceSchema, withoutStatus);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return fail(
      first
        ? issueError(input, first)
        : new RoutingError("INVALID_RESOURCE", `${describeObject(input)}: invalid`, {
            value: input,
          }),
    );
  }
  if ((options.validation ?? "crd") === "crd") {
    const [violation] = crdViolations(input, parsed.data);
    if (violation) {
      const where = formatFieldPath(violation.path);
      return fail(
        new RoutingError(
          "INVALID_RESOURCE",
          `${describeObject(input)}: ${where}: ${violation.message} (found ${describeValue(violation.value)})`,
          { path: where, value: violation.value },
        ),
      );
    }
  }
  return { success: true, data: parsed.data, warnings };
}

/** Every unknown field of a routing object: the schema's, metadata's, and the prototype keys. */
function unknownFieldsOf(
  record: Record<string, unknown>,
  prototypeKeys: readonly (readonly (string | number)[])[],
): UnknownField[] {
  const { metadata, status: _status, ...rest } = record;
  const fields = [
    ...prototypeKeys.map((path) => ({ path })),
    ...findUnknownMetadataFields(metadata, ["metadata"]),
    ...findUnknownFields(routingResourceSchema, { ...rest, metadata: {} }),
  ];
  return fields;
}

function unknownFieldError(input: unknown, fields: readonly UnknownField[]): RoutingError {
  const [first] = fields as [UnknownField];
  const more =
    fields.length > 1
      ? ` (and ${fields.length - 1} more: ${fields
          .slice(1, 4)
          .map((f) => formatFieldPath(f.path))
          .join(", ")}${fields.length > 4 ? ", …" : ""})`
      : "";
  return new RoutingError(
    "UNKNOWN_FIELD",
    `${describeObject(input)}: ${describeUnknownField(first)}${more}`,
    {
      path: formatFieldPath(first.path),
      value: valueAtPath(input, first.path),
      suggestion: first.suggestion,
    },
  );
}

/**
 * Returns `value` as a validated routing object; throws a
 * {@link RoutingError} `INVALID_RESOURCE` naming the field and the value.
 *
 * @example
 * ```ts
 * import { parseRoutingResource } from "@kubeimg/policy/routing";
 *
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
  return result.data;
}
