/**
 * kuik routing objects read from YAML text as users write them: several
 * documents per file, `kind: List` expanded, YAML 1.1 scalars as kubectl
 * reads them, and a bound on what aliases expand to.
 */
import {
  describeYamlProblem,
  readYamlDocuments,
  syntaxWhere,
} from "../../objects/yaml-documents.js";
import { RoutingError } from "../errors.js";
import {
  asRecord,
  type ParseRoutingResourceOptions,
  type RoutingWarning,
  safeParseRoutingResource,
} from "../load.js";
import { KUIK_API_VERSION, ROUTING_KINDS, type RoutingResource } from "../resource-schema.js";

/** Options of {@link loadRoutingResources}. */
export interface LoadRoutingResourcesOptions extends ParseRoutingResourceOptions {
  /**
   * What to do with documents of other kinds (a Deployment in the same file):
   * `"error"` (default) refuses them, `"ignore"` skips them (`onSkipped`
   * hears of each).
   */
  readonly otherKinds?: "error" | "ignore";
  /**
   * Most nodes one YAML document may hold once its aliases are expanded
   * (default 1,000,000): an alias bomb is refused with `YAML_TOO_LARGE`
   * before any object is built.
   */
  readonly maxExpandedNodes?: number;
  /** Called for each unknown field under `unknownFields: "warn"`. */
  readonly onWarning?: (warning: RoutingWarning) => void;
  /** Called for each document of another kind skipped under `otherKinds: "ignore"`. */
  readonly onSkipped?: (skipped: {
    readonly document: number;
    readonly apiVersion: unknown;
    readonly kind: unknown;
  }) => void;
}

/**
 * Returns every kuik routing object of a YAML text: several documents
 * separated by `---`, empty documents skipped, `kind: List` expanded, scalars
 * read as YAML 1.1 as kubectl does (`discardAlternative: yes` is true). Throws
 * a {@link RoutingError}: `INVALID_YAML` (with the document index and
 * position), `YAML_TOO_LARGE` (aliases expanding past the bound),
 * `UNKNOWN_FIELD` (under the default strict validation) or
 * `INVALID_RESOURCE` (with the document index, field path and value).
 *
 * @example
 * ```ts
 * import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
 *
 * const resources = loadRoutingResources(`
 * apiVersion: kuik.enix.io/v1alpha1
 * kind: ClusterImageSetMirror
 * metadata: { name: all }
 * spec:
 *   filter: { include: [{ image: ".*" }] }
 *   mirrors: [{ registry: harbor.example.com, path: /mirror }]
 * `);
 * resources.map((r) => `${r.kind}/${r.metadata.name}`) // ["ClusterImageSetMirror/all"]
 * ```
 */
export function loadRoutingResources(
  text: string,
  options: LoadRoutingResourcesOptions = {},
): RoutingResource[] {
  const out: RoutingResource[] = [];
  // YAML 1.1, as kubectl reads manifests (sigs.k8s.io/yaml): `yes`/`on` are booleans.
  const read = readYamlDocuments(text, {
    version: "1.1",
    ...(options.maxExpandedNodes === undefined
      ? {}
      : { maxExpandedNodes: options.maxExpandedNodes }),
  });
  if (!read.ok) {
    const { problem } = read;
    // Syntax first, for the whole file: a typo anywhere is reported before any schema problem.
    const where = problem.kind !== "too-large" ? problem.position : undefined;
    const detail = problem.kind === "syntax" ? problem.message : describeYamlProblem(problem);
    throw new RoutingError(
      problem.kind === "too-large" ? "YAML_TOO_LARGE" : "INVALID_YAML",
      problem.kind === "syntax" ? `${syntaxWhere(problem.document, where)}: ${detail}` : detail,
      {
        document: problem.document,
        input: text,
        ...(where === undefined ? {} : { value: where }),
      },
    );
  }
  read.values.forEach((value, index) => {
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
        options.onSkipped?.({
          document: index,
          apiVersion: record?.apiVersion,
          kind: record?.kind,
        });
        continue;
      }
      const result = safeParseRoutingResource(item, options);
      if (!result.success) {
        const e = result.error;
        throw new RoutingError(e.code, `document ${index}: ${e.message}`, {
          ...(e.path === undefined ? {} : { path: e.path }),
          value: e.value,
          document: index,
          ...(e.suggestion === undefined ? {} : { suggestion: e.suggestion }),
        });
      }
      for (const warning of result.warnings) {
        options.onWarning?.({
          ...warning,
          message: `document ${index}: ${warning.message}`,
          document: index,
        });
      }
      out.push(result.data);
    }
  });
  return out;
}
