/**
 * Reading Flux image objects as users write them: validated against their
 * CRD (`image-policy-schema.ts`, `image-repository-schema.ts`), errors that
 * name the field path and the bad value, and the older API versions
 * converted.
 *
 * Fields the CRD does not know are refused by default (`UNKNOWN_FIELD`, with
 * the closest known name), as `kubectl --validate=strict` refuses them;
 * `unknownFields: "warn"` or `"ignore"` opts out.
 *
 * Versions: image-reflector-controller v1.2.0 serves only `v1`; `v1beta2`
 * was served (deprecated) up to v1.1.x and `v1beta1` up to v0.35. Manifests
 * still carry both, so both are read and converted as the API server
 * converts them for these CRDs (conversion strategy `None`: the same fields,
 * `apiVersion` rewritten to `v1`, fields the target lacks pruned):
 *
 * - `v1beta2` ImagePolicy and ImageRepository have exactly v1's fields (as
 *   of v1.1.x).
 * - `v1beta1` ImagePolicy lacks `spec.digestReflectionPolicy`,
 *   `spec.interval` and `spec.suspend` (so the defaults apply: `Never`), and
 *   its status holds `latestImage` instead of `latestRef` (dropped: v1 has no
 *   such field).
 * - `v1beta1` ImageRepository lacks `spec.proxySecretRef`, `spec.provider`
 *   and `spec.insecure`, and its `exclusionList` has no default (v1's
 *   `^.*\.sig$` applies once converted).
 */
import type * as z from "zod/mini";
import { safeParseEnglish } from "../../objects/english-issues.js";
import { findUnknownMetadataFields } from "../../objects/object-meta.js";
import {
  describeUnknownField,
  findUnknownFields,
  type UnknownField,
  type UnknownFieldPolicy,
} from "../../objects/unknown-fields.js";
import { copyUserValue, MAX_OBJECT_DEPTH } from "../../objects/user-object.js";
import { type PolicyIssue, TagPolicyError } from "./errors.js";
import {
  FLUX_IMAGE_API_VERSIONS,
  type FluxImageApiVersion,
  type ImagePolicy,
  type ImagePolicySpec,
  imagePolicySchema,
  imagePolicySpecSchema,
  imagePolicyV1beta1Schema,
  imagePolicyV1beta2Schema,
} from "./image-policy-schema.js";
import {
  type ImageRepository,
  imageRepositorySchema,
  imageRepositoryV1beta1Schema,
  imageRepositoryV1beta2Schema,
} from "./image-repository-schema.js";

/** How {@link parseImagePolicy} and {@link parseImageRepository} treat what they read. */
export interface FluxObjectOptions {
  /**
   * Fields the object's CRD version does not know (`filterTag:` for
   * `filterTags:`, `digestReflectionPolicy` in a v1beta1 object):
   * `"strict"` (default) throws `UNKNOWN_FIELD` naming each with the
   * closest known field; `"warn"` accepts the object and calls `onWarning`
   * for each; `"ignore"` drops them quietly. `__proto__`, `constructor` and
   * `prototype` are unknown fields like any other and never reach the result.
   */
  readonly unknownFields?: UnknownFieldPolicy;
  /** Called for each unknown field under `unknownFields: "warn"`. */
  readonly onWarning?: (issue: PolicyIssue) => void;
}

/** Returns the value at `path` inside `input`, or undefined. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function formatValue(value: unknown): string {
  if (value === undefined) return "missing";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function dottedPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

function issuesOf(
  error: z.core.$ZodError,
  input: unknown,
  prefix: readonly PropertyKey[],
): PolicyIssue[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    return {
      path: dottedPath(path),
      value: valueAt(input, issue.path),
      message: issue.message,
    };
  });
}

function toError(
  what: string,
  issues: readonly PolicyIssue[],
  code:
    | "INVALID_IMAGE_POLICY"
    | "INVALID_IMAGE_REPOSITORY"
    | "UNKNOWN_FIELD" = "INVALID_IMAGE_POLICY",
): TagPolicyError {
  const lines = issues.map((i) =>
    code === "UNKNOWN_FIELD"
      ? i.message
      : `${i.path || "(root)"}: ${i.message} (got ${formatValue(i.value)})`,
  );
  return new TagPolicyError(code, `invalid ${what}: ${lines.join("; ")}`, { issues });
}

/** The issue of an unknown field: `value` the value found there, `suggestion` the field probably meant. */
function unknownIssue(field: UnknownField, found: unknown): PolicyIssue {
  return {
    path: dottedPath(field.path),
    value: found,
    message: describeUnknownField(field),
    ...(field.suggestion === undefined ? {} : { suggestion: field.suggestion }),
  };
}

type FluxKind = "ImagePolicy" | "ImageRepository";

function schemaFor(kind: FluxKind, apiVersion: unknown): z.core.$ZodType | undefined {
  const table = {
    ImagePolicy: {
      "image.toolkit.fluxcd.io/v1": imagePolicySchema,
      "image.toolkit.fluxcd.io/v1beta2": imagePolicyV1beta2Schema,
      "image.toolkit.fluxcd.io/v1beta1": imagePolicyV1beta1Schema,
    },
    ImageRepository: {
      "image.toolkit.fluxcd.io/v1": imageRepositorySchema,
      "image.toolkit.fluxcd.io/v1beta2": imageRepositoryV1beta2Schema,
      "image.toolkit.fluxcd.io/v1beta1": imageRepositoryV1beta1Schema,
    },
  } as const;
  if (typeof apiVersion !== "string" || !Object.hasOwn(table[kind], apiVersion)) return undefined;
  return table[kind][apiVersion as FluxImageApiVersion];
}

/**
 * Reads a Flux object of any served version and converts it to v1 as the
 * API server does for these CRDs: the object re-validated as v1 (its
 * defaults applied), fields v1 lacks pruned.
 */
function parseFluxObject(
  kind: FluxKind,
  input: unknown,
  options: FluxObjectOptions,
): { success: true; data: unknown } | { success: false; error: TagPolicyError } {
  const invalid = kind === "ImagePolicy" ? "INVALID_IMAGE_POLICY" : "INVALID_IMAGE_REPOSITORY";
  const copied = copyUserValue(input, { dropNulls: false });
  if (copied.tooDeep !== undefined) {
    const issue = {
      path: dottedPath(copied.tooDeep),
      value: undefined,
      message: `nested deeper than ${MAX_OBJECT_DEPTH} levels`,
    };
    return { success: false, error: toError(kind, [issue], invalid) };
  }
  const value = copied.value;
  const record =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const schema = schemaFor(kind, record?.apiVersion);
  if (schema === undefined) {
    // Let the v1 schema word the problem (wrong kind, apiVersion, not an object).
    const v1 = kind === "ImagePolicy" ? imagePolicySchema : imageRepositorySchema;
    const result = safeParseEnglish(v1, value);
    const issues = result.success ? [] : issuesOf(result.error, value, []);
    const apiIssue = issues.find((i) => i.path === "apiVersion");
    if (apiIssue) {
      (apiIssue as { message: string }).message =
        `must be one of ${FLUX_IMAGE_API_VERSIONS.join(", ")}`;
    }
    return { success: false, error: toError(kind, issues, invalid) };
  }
  const policy = options.unknownFields ?? "strict";
  if (policy !== "ignore") {
    const { metadata, ...rest } = record as Record<string, unknown>;
    const unknown: UnknownField[] = [
      ...copied.prototypeKeys.map((path) => ({ path })),
      ...findUnknownMetadataFields(metadata, ["metadata"]),
      ...findUnknownFields(schema, { ...rest, metadata: {} }),
    ];
    const issues = unknown.map((f) => unknownIssue(f, valueAt(value, f.path)));
    if (issues.length > 0 && policy === "strict") {
      return { success: false, error: toError(kind, issues, "UNKNOWN_FIELD") };
    }
    for (const issue of issues) options.onWarning?.(issue);
  }
  const result = safeParseEnglish(schema, value);
  if (!result.success) {
    return { success: false, error: toError(kind, issuesOf(result.error, value, []), invalid) };
  }
  const data = result.data as Record<string, unknown>;
  if (data.apiVersion === FLUX_IMAGE_API_VERSIONS[0]) return { success: true, data };
  // Conversion to v1: the same fields under the new apiVersion, v1's
  // defaults applied, a v1beta1 status (latestImage) pruned.
  const v1 = kind === "ImagePolicy" ? imagePolicySchema : imageRepositorySchema;
  const { status, ...withoutStatus } = data;
  const converted = safeParseEnglish(v1, {
    ...withoutStatus,
    apiVersion: FLUX_IMAGE_API_VERSIONS[0],
    ...(data.apiVersion === FLUX_IMAGE_API_VERSIONS[2] || status === undefined ? {} : { status }),
  });
  if (!converted.success) {
    return { success: false, error: toError(kind, issuesOf(converted.error, value, []), invalid) };
  }
  return { success: true, data: converted.data };
}

/**
 * Returns the `ImagePolicy` object validated and converted to v1, with the
 * CRD's defaults (`order: asc`, `digestReflectionPolicy: Never`, empty
 * `pattern` and `extract`). Reads `v1`, `v1beta2` and `v1beta1` (see the
 * module notes). Throws a {@link TagPolicyError}: `INVALID_IMAGE_POLICY`,
 * whose `issues` give each field path and bad value, or `UNKNOWN_FIELD` for
 * fields the CRD does not know (see {@link FluxObjectOptions}).
 *
 * @example
 * ```ts
 * import { parseImagePolicy } from "@kubeimg/policy/tags";
 *
 * const policy = parseImagePolicy({
 *   apiVersion: "image.toolkit.fluxcd.io/v1",
 *   kind: "ImagePolicy",
 *   metadata: { name: "podinfo", namespace: "default" },
 *   spec: { imageRepositoryRef: { name: "podinfo" }, policy: { semver: { range: "5.1.x" } } },
 * });
 * policy.spec.digestReflectionPolicy; // "Never"
 * parseImagePolicy({ ...policy, spec: { ...policy.spec, polcy: {} } }); // throws UNKNOWN_FIELD
 * ```
 */
export function parseImagePolicy(input: unknown, options: FluxObjectOptions = {}): ImagePolicy {
  const result = parseFluxObject("ImagePolicy", input, options);
  if (result.success) return result.data as ImagePolicy;
  throw result.error;
}

/**
 * Like {@link parseImagePolicy}, but returns the outcome instead of throwing.
 *
 * @example
 * ```ts
 * import { safeParseImagePolicy } from "@kubeimg/policy/tags";
 *
 * const r = safeParseImagePolicy({ kind: "ImagePolicy" });
 * if (!r.success) console.log(r.error.issues.map((i) => i.path)); // ["apiVersion", "metadata", "spec"]
 * ```
 */
export function safeParseImagePolicy(
  input: unknown,
  options: FluxObjectOptions = {},
): { success: true; data: ImagePolicy } | { success: false; error: TagPolicyError } {
  const result = parseFluxObject("ImagePolicy", input, options);
  if (result.success) return { success: true, data: result.data as ImagePolicy };
  return { success: false, error: result.error };
}

/**
 * Returns the `ImageRepository` object validated and converted to v1, with
 * the CRD's defaults (`exclusionList: ["^.*\\.sig$"]`, `provider: generic`,
 * `insecure: false`). Reads `v1`, `v1beta2` and `v1beta1`. Throws a
 * {@link TagPolicyError}: `INVALID_IMAGE_REPOSITORY` or `UNKNOWN_FIELD`.
 *
 * @example
 * ```ts
 * import { parseImageRepository } from "@kubeimg/policy/tags";
 *
 * const repo = parseImageRepository({
 *   apiVersion: "image.toolkit.fluxcd.io/v1beta2", kind: "ImageRepository",
 *   metadata: { name: "podinfo" }, spec: { image: "ghcr.io/stefanprodan/podinfo", interval: "5m" },
 * });
 * repo.apiVersion; // "image.toolkit.fluxcd.io/v1"
 * ```
 */
export function parseImageRepository(
  input: unknown,
  options: FluxObjectOptions = {},
): ImageRepository {
  const result = parseFluxObject("ImageRepository", input, options);
  if (result.success) return result.data as ImageRepository;
  throw result.error;
}

/**
 * Returns an `ImagePolicy` spec validated, with its defaults; paths in errors
 * start at `spec.`. Unknown fields are refused unless `options` says
 * otherwise.
 */
export function parseImagePolicySpec(
  input: unknown,
  options: FluxObjectOptions = {},
): ImagePolicySpec {
  const copied = copyUserValue(input, { dropNulls: false });
  const value = copied.value;
  const policy = options.unknownFields ?? "strict";
  if (policy !== "ignore") {
    const issues = [
      ...copied.prototypeKeys.map((path) => ({ path })),
      ...findUnknownFields(imagePolicySpecSchema, value),
    ].map((f) => unknownIssue({ ...f, path: ["spec", ...f.path] }, valueAt(value, f.path)));
    if (issues.length > 0 && policy === "strict") {
      throw toError("ImagePolicy spec", issues, "UNKNOWN_FIELD");
    }
    for (const issue of issues) options.onWarning?.(issue);
  }
  const result = safeParseEnglish(imagePolicySpecSchema, value);
  if (result.success) return result.data;
  throw toError("ImagePolicy spec", issuesOf(result.error, value, ["spec"]));
}
