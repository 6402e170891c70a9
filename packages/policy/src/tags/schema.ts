/**
 * The Flux `ImagePolicy` object (`image.toolkit.fluxcd.io/v1`) as a zod
 * schema: the fields, enums and defaults of the CRD, its two CEL rules on
 * `spec.interval`, and three checks the API server leaves to the controller
 * (so that a policy Flux would stall on fails here, at the edge):
 *
 * - `spec.policy` must set exactly one of `semver`, `alphabetical`,
 *   `numerical` (Flux silently prefers them in that order);
 * - `spec.policy.semver.range` must parse as a Masterminds constraint;
 * - `spec.filterTags.pattern` must compile as a Go regular expression.
 *
 * Errors name the field path and the bad value. Fields the CRD does not
 * know are refused by default (`UNKNOWN_FIELD`, with the closest known name),
 * as `kubectl --validate=strict` refuses them; `unknownFields: "warn"` or
 * `"ignore"` opts out.
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
import { compileRegexp, isRegexpError } from "@kubeimg/core/regexp";
import * as z from "zod";
import { findUnknownMetadataFields } from "../objects/object-meta.js";
import {
  describeUnknownField,
  findUnknownFields,
  type UnknownField,
  type UnknownFieldPolicy,
} from "../objects/unknown-fields.js";
import { copyUserValue, MAX_OBJECT_DEPTH } from "../objects/user-object.js";
import { isSemverError, parseConstraints } from "../semver/index.js";
import { parseIntervalMillis } from "./duration.js";
import { type PolicyIssue, TagPolicyError } from "./errors.js";

const orderSchema = z.enum(["asc", "desc"]).default("asc");

/** `spec.policy.semver`. */
const semverPolicySchema = z.object({
  range: z.string().superRefine((range, ctx) => {
    try {
      parseConstraints(range);
    } catch (error) {
      if (!isSemverError(error)) throw error;
      ctx.addIssue({ code: "custom", message: `not a semver range: ${error.message}` });
    }
  }),
});

/** `spec.policy`: the CRD's `ImagePolicyChoice`, with exactly one choice. */
const policyChoiceSchema = z
  .object({
    semver: semverPolicySchema.optional(),
    alphabetical: z.object({ order: orderSchema }).optional(),
    numerical: z.object({ order: orderSchema }).optional(),
  })
  .superRefine((choice, ctx) => {
    const set = (["semver", "alphabetical", "numerical"] as const).filter(
      (k) => choice[k] !== undefined,
    );
    if (set.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message:
          set.length === 0
            ? "exactly one of semver, alphabetical, numerical must be set; none is"
            : `exactly one of semver, alphabetical, numerical must be set; found ${set.join(", ")}`,
      });
    }
  });

/** `spec.filterTags`. */
const tagFilterSchema = z.object({
  pattern: z
    .string()
    .default("")
    .superRefine((pattern, ctx) => {
      try {
        compileRegexp(pattern);
      } catch (error) {
        if (!isRegexpError(error)) throw error;
        ctx.addIssue({ code: "custom", message: error.message });
      }
    }),
  extract: z.string().default(""),
});

/** `meta.NamespacedObjectReference`. */
const namespacedObjectReferenceSchema = z.object({
  name: z.string().min(1, "must not be empty"),
  namespace: z.string().optional(),
});

/** A Go duration in the CRD's shape, such as `10m` or `1h30m`. */
const intervalSchema = z.string().refine((text) => parseIntervalMillis(text) !== undefined, {
  message: "must be a Go duration matching ^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$, such as 10m or 1h30m",
});

/** `spec` of an `ImagePolicy`. */
export const imagePolicySpecSchema = z
  .object({
    imageRepositoryRef: namespacedObjectReferenceSchema,
    policy: policyChoiceSchema,
    filterTags: tagFilterSchema.optional(),
    digestReflectionPolicy: z.enum(["Always", "IfNotPresent", "Never"]).default("Never"),
    interval: intervalSchema.optional(),
    suspend: z.boolean().optional(),
  })
  .superRefine((spec, ctx) => {
    // The CRD's two CEL rules, with their messages.
    if (spec.interval !== undefined && spec.digestReflectionPolicy !== "Always") {
      ctx.addIssue({
        code: "custom",
        path: ["interval"],
        message:
          "spec.interval is only accepted when spec.digestReflectionPolicy is set to 'Always'",
      });
    }
    if (spec.interval === undefined && spec.digestReflectionPolicy === "Always") {
      ctx.addIssue({
        code: "custom",
        path: ["interval"],
        message: "spec.interval must be set when spec.digestReflectionPolicy is set to 'Always'",
      });
    }
  });

/** `ImageRef` in the status: an image name, a tag, and perhaps a digest. */
export const imageRefSchema = z.object({
  name: z.string(),
  tag: z.string(),
  digest: z.string().optional(),
});

/** A Kubernetes `metav1.Condition`. */
export const conditionSchema = z.object({
  type: z.string(),
  status: z.enum(["True", "False", "Unknown"]),
  reason: z.string(),
  message: z.string(),
  observedGeneration: z.number().int().optional(),
  lastTransitionTime: z.string().optional(),
});

/** `status` of an `ImagePolicy`. */
export const imagePolicyStatusSchema = z.object({
  latestRef: imageRefSchema.optional(),
  observedPreviousRef: imageRefSchema.optional(),
  observedGeneration: z.number().int().optional(),
  conditions: z.array(conditionSchema).optional(),
  lastHandledReconcileAt: z.string().optional(),
});

/** The Flux image API group's versions this package reads, newest first. */
export const FLUX_IMAGE_API_VERSIONS = [
  "image.toolkit.fluxcd.io/v1",
  "image.toolkit.fluxcd.io/v1beta2",
  "image.toolkit.fluxcd.io/v1beta1",
] as const;

/** One of {@link FLUX_IMAGE_API_VERSIONS}. */
export type FluxImageApiVersion = (typeof FLUX_IMAGE_API_VERSIONS)[number];

const fluxMetadataSchema = z.looseObject({
  name: z.string().min(1, "must not be empty"),
  namespace: z.string().optional(),
});

/**
 * A whole `ImagePolicy` object, as found in a manifest or the API server.
 *
 * @example
 * ```ts
 * const result = imagePolicySchema.safeParse(object);
 * if (result.success) result.data.spec.policy;
 * ```
 */
export const imagePolicySchema = z.object({
  apiVersion: z.literal("image.toolkit.fluxcd.io/v1"),
  kind: z.literal("ImagePolicy"),
  metadata: fluxMetadataSchema,
  spec: imagePolicySpecSchema,
  status: imagePolicyStatusSchema.optional(),
});

/**
 * A `v1beta2` `ImagePolicy`: the same fields as v1 (image-reflector-controller
 * v1.1.x, the last to serve it).
 */
export const imagePolicyV1beta2Schema = imagePolicySchema.extend({
  apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta2"),
});

/**
 * A `v1beta1` `ImagePolicy` (image-reflector-controller v0.35, the last to
 * serve it): no `digestReflectionPolicy`, `interval` or `suspend`, and a
 * status with `latestImage`.
 */
export const imagePolicyV1beta1Schema = z.object({
  apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta1"),
  kind: z.literal("ImagePolicy"),
  metadata: fluxMetadataSchema,
  spec: z.object({
    imageRepositoryRef: namespacedObjectReferenceSchema,
    policy: policyChoiceSchema,
    filterTags: tagFilterSchema.optional(),
  }),
  status: z
    .object({
      latestImage: z.string().optional(),
      observedGeneration: z.number().int().optional(),
      conditions: z.array(conditionSchema).optional(),
      lastHandledReconcileAt: z.string().optional(),
    })
    .optional(),
});

/** `meta.LocalObjectReference`. */
const localObjectReferenceSchema = z.object({ name: z.string().min(1, "must not be empty") });

/** `acl.AccessFrom`: namespaces allowed to refer to the object. */
const accessFromSchema = z.object({
  namespaceSelectors: z.array(
    z.object({ matchLabels: z.record(z.string(), z.string()).optional() }),
  ),
});

/** The `ImageRepository` timeout pattern: no hours, unlike the interval. */
const timeoutSchema = z.string().regex(/^([0-9]+(\.[0-9]+)?(ms|s|m))+$/, {
  message: "must be a Go duration matching ^([0-9]+(\\.[0-9]+)?(ms|s|m))+$, such as 30s",
});

const imageRepositoryV1beta1SpecSchema = z.object({
  image: z.string().min(1, "must not be empty"),
  // The CRD requires `interval`; it plays no part in which tags are listed,
  // so a manifest without it is still read here.
  interval: intervalSchema.optional(),
  timeout: timeoutSchema.optional(),
  secretRef: localObjectReferenceSchema.optional(),
  serviceAccountName: z.string().max(253).optional(),
  certSecretRef: localObjectReferenceSchema.optional(),
  suspend: z.boolean().optional(),
  accessFrom: accessFromSchema.optional(),
  exclusionList: z.array(z.string()).optional(),
});

/** `spec` of a v1 `ImageRepository`, with the CRD's defaults. */
export const imageRepositorySpecSchema = imageRepositoryV1beta1SpecSchema.extend({
  proxySecretRef: localObjectReferenceSchema.optional(),
  exclusionList: z.array(z.string()).max(25).default(["^.*\\.sig$"]),
  provider: z.enum(["generic", "aws", "azure", "gcp"]).default("generic"),
  insecure: z.boolean().default(false),
});

/**
 * A whole v1 `ImageRepository`: what to list (`spec.image`), which tags to
 * drop (`exclusionList`), and whether the registry speaks plain HTTP
 * (`insecure`). The status is accepted and not read.
 *
 * @example
 * ```ts
 * imageRepositorySchema.parse(object).spec.exclusionList; // ["^.*\\.sig$"] by default
 * ```
 */
export const imageRepositorySchema = z.object({
  apiVersion: z.literal("image.toolkit.fluxcd.io/v1"),
  kind: z.literal("ImageRepository"),
  metadata: fluxMetadataSchema,
  spec: imageRepositorySpecSchema,
  status: z.looseObject({}).optional(),
});

/** A `v1beta2` `ImageRepository`: the same fields as v1. */
export const imageRepositoryV1beta2Schema = imageRepositorySchema.extend({
  apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta2"),
});

/** A `v1beta1` `ImageRepository`: no `proxySecretRef`, `provider` or `insecure`. */
export const imageRepositoryV1beta1Schema = z.object({
  apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta1"),
  kind: z.literal("ImageRepository"),
  metadata: fluxMetadataSchema,
  spec: imageRepositoryV1beta1SpecSchema,
  status: z.looseObject({}).optional(),
});

/** A validated `ImagePolicy`, with the CRD's defaults filled in. */
export type ImagePolicy = z.output<typeof imagePolicySchema>;
/** A validated `ImagePolicy` spec. */
export type ImagePolicySpec = z.output<typeof imagePolicySpecSchema>;
/** A validated v1 `ImageRepository`, with the CRD's defaults filled in. */
export type ImageRepository = z.output<typeof imageRepositorySchema>;
/** A validated `ImageRepository` spec. */
export type ImageRepositorySpec = z.output<typeof imageRepositorySpecSchema>;
/** An image reference in the status. */
export type ImageRef = z.output<typeof imageRefSchema>;
/** A status condition. */
export type Condition = z.output<typeof conditionSchema>;
/** The status of an `ImagePolicy`. */
export type ImagePolicyStatus = z.output<typeof imagePolicyStatusSchema>;

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
  error: z.ZodError,
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

function unknownIssue(field: UnknownField): PolicyIssue {
  return {
    path: dottedPath(field.path),
    value: field.suggestion,
    message: describeUnknownField(field),
  };
}

type FluxKind = "ImagePolicy" | "ImageRepository";

function schemaFor(kind: FluxKind, apiVersion: unknown): z.ZodType | undefined {
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
    const result = v1.safeParse(value);
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
    const issues = unknown.map(unknownIssue);
    if (issues.length > 0 && policy === "strict") {
      return { success: false, error: toError(kind, issues, "UNKNOWN_FIELD") };
    }
    for (const issue of issues) options.onWarning?.(issue);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    return { success: false, error: toError(kind, issuesOf(result.error, value, []), invalid) };
  }
  const data = result.data as Record<string, unknown>;
  if (data.apiVersion === FLUX_IMAGE_API_VERSIONS[0]) return { success: true, data };
  // Conversion to v1: the same fields under the new apiVersion, v1's
  // defaults applied, a v1beta1 status (latestImage) pruned.
  const v1 = kind === "ImagePolicy" ? imagePolicySchema : imageRepositorySchema;
  const { status, ...withoutStatus } = data;
  const converted = v1.safeParse({
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
 * const policy = parseImagePolicy(YAML.parse(`
 * apiVersion: image.toolkit.fluxcd.io/v1
 * kind: ImagePolicy
 * metadata: { name: podinfo, namespace: default }
 * spec:
 *   imageRepositoryRef: { name: podinfo }
 *   policy: { semver: { range: 5.1.x } }
 * `));
 * policy.spec.digestReflectionPolicy; // "Never"
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
 *
 * @example
 * ```ts
 * parseImagePolicySpec({ imageRepositoryRef: { name: "app" }, policy: { numerical: {} } })
 *   .policy.numerical?.order; // "asc"
 * ```
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
    ].map((f) => unknownIssue({ ...f, path: ["spec", ...f.path] }));
    if (issues.length > 0 && policy === "strict") {
      throw toError("ImagePolicy spec", issues, "UNKNOWN_FIELD");
    }
    for (const issue of issues) options.onWarning?.(issue);
  }
  const result = imagePolicySpecSchema.safeParse(value);
  if (result.success) return result.data;
  throw toError("ImagePolicy spec", issuesOf(result.error, value, ["spec"]));
}
