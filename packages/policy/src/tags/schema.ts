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
 * Errors name the field path and the bad value.
 */
import { compileRegexp, isRegexpError } from "@kubeimg/core/regexp";
import { z } from "zod";
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
  metadata: z.looseObject({
    name: z.string().min(1, "must not be empty"),
    namespace: z.string().optional(),
  }),
  spec: imagePolicySpecSchema,
  status: imagePolicyStatusSchema.optional(),
});

/** A validated `ImagePolicy`, with the CRD's defaults filled in. */
export type ImagePolicy = z.output<typeof imagePolicySchema>;
/** A validated `ImagePolicy` spec. */
export type ImagePolicySpec = z.output<typeof imagePolicySpecSchema>;
/** An image reference in the status. */
export type ImageRef = z.output<typeof imageRefSchema>;
/** A status condition. */
export type Condition = z.output<typeof conditionSchema>;
/** The status of an `ImagePolicy`. */
export type ImagePolicyStatus = z.output<typeof imagePolicyStatusSchema>;

/** Returns the value at `path` inside `input`, or undefined. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
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

function issuesOf(
  error: z.ZodError,
  input: unknown,
  prefix: readonly PropertyKey[],
): PolicyIssue[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    return {
      path: path.map(String).join("."),
      value: valueAt(input, issue.path),
      message: issue.message,
    };
  });
}

function toError(what: string, issues: readonly PolicyIssue[]): TagPolicyError {
  const lines = issues.map(
    (i) => `${i.path || "(root)"}: ${i.message} (got ${formatValue(i.value)})`,
  );
  return new TagPolicyError("INVALID_IMAGE_POLICY", `invalid ${what}: ${lines.join("; ")}`, {
    issues,
  });
}

/**
 * Returns the `ImagePolicy` object validated, with the CRD's defaults
 * (`order: asc`, `digestReflectionPolicy: Never`, empty `pattern` and
 * `extract`). Throws a {@link TagPolicyError} with code
 * `INVALID_IMAGE_POLICY`, whose `issues` give each field path and bad value.
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
export function parseImagePolicy(input: unknown): ImagePolicy {
  const result = imagePolicySchema.safeParse(input);
  if (result.success) return result.data;
  throw toError("ImagePolicy", issuesOf(result.error, input, []));
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
): { success: true; policy: ImagePolicy } | { success: false; error: TagPolicyError } {
  const result = imagePolicySchema.safeParse(input);
  if (result.success) return { success: true, policy: result.data };
  return { success: false, error: toError("ImagePolicy", issuesOf(result.error, input, [])) };
}

/**
 * Returns an `ImagePolicy` spec validated, with its defaults; paths in errors
 * start at `spec.`.
 *
 * @example
 * ```ts
 * parseImagePolicySpec({ imageRepositoryRef: { name: "app" }, policy: { numerical: {} } })
 *   .policy.numerical?.order; // "asc"
 * ```
 */
export function parseImagePolicySpec(input: unknown): ImagePolicySpec {
  const result = imagePolicySpecSchema.safeParse(input);
  if (result.success) return result.data;
  throw toError("ImagePolicy spec", issuesOf(result.error, input, ["spec"]));
}
