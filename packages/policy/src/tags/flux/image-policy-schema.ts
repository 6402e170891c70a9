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
 * The schemas are constants built with `zod/mini`, whose functions bundlers
 * may drop when unused; the few method calls (`.check`) are marked pure for
 * the same reason. The older versions' schemas live here too (see
 * `flux-objects.ts` for how they are converted).
 */

import { lazy } from "@kubeimg/core/internal";
import { compileRegexp, RegexpError } from "@kubeimg/core/regexp";
import type * as Z from "zod/mini";
import * as z from "#zod";
import { isSemverError } from "../../semver/errors.js";
import { parseConstraints } from "../../semver/index.js";
import { parseIntervalMillis } from "./duration.js";

/** The Flux image API group's versions this package reads, newest first. */
export const FLUX_IMAGE_API_VERSIONS = [
  "image.toolkit.fluxcd.io/v1",
  "image.toolkit.fluxcd.io/v1beta2",
  "image.toolkit.fluxcd.io/v1beta1",
] as const;

/** One of {@link FLUX_IMAGE_API_VERSIONS}.
 *
 * @inline
 */
export type FluxImageApiVersion = (typeof FLUX_IMAGE_API_VERSIONS)[number];

function buildImagePolicySchemas() {
  const nonEmptyString = /*#__PURE__*/ z.string().check(z.minLength(1, "must not be empty"));

  const fluxMetadataSchema = z.looseObject({
    name: nonEmptyString,
    namespace: z.optional(z.string()),
  });

  const intervalSchema = /*#__PURE__*/ z.string().check(
    z.refine((text) => parseIntervalMillis(text) !== undefined, {
      message:
        "must be a Go duration matching ^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$, such as 10m or 1h30m",
    }),
  );

  const orderSchema = z._default(z.enum(["asc", "desc"]), "asc");

  /** `spec.policy.semver`. */
  const semverPolicySchema = z.object({
    range: /*#__PURE__*/ z.string().check(
      z.superRefine((range, ctx) => {
        try {
          parseConstraints(range);
        } catch (error) {
          if (!isSemverError(error)) throw error;
          ctx.addIssue({ code: "custom", message: `not a semver range: ${error.message}` });
        }
      }),
    ),
  });

  /** `spec.policy`: the CRD's `ImagePolicyChoice`, with exactly one choice. */
  const policyChoiceSchema = /*#__PURE__*/ z
    .object({
      semver: z.optional(semverPolicySchema),
      alphabetical: z.optional(z.object({ order: orderSchema })),
      numerical: z.optional(z.object({ order: orderSchema })),
    })
    .check(
      z.superRefine((choice, ctx) => {
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
      }),
    );

  /** `spec.filterTags`. */
  const tagFilterSchema = z.object({
    pattern: z._default(
      /*#__PURE__*/ z.string().check(
        z.superRefine((pattern, ctx) => {
          try {
            compileRegexp(pattern);
          } catch (error) {
            if (!(error instanceof RegexpError)) throw error;
            ctx.addIssue({ code: "custom", message: error.message });
          }
        }),
      ),
      "",
    ),
    extract: z._default(z.string(), ""),
  });

  /** `meta.NamespacedObjectReference`. */
  const namespacedObjectReferenceSchema = z.object({
    name: nonEmptyString,
    namespace: z.optional(z.string()),
  });

  const imagePolicySpecSchema = /*#__PURE__*/ z
    .object({
      imageRepositoryRef: namespacedObjectReferenceSchema,
      policy: policyChoiceSchema,
      filterTags: z.optional(tagFilterSchema),
      digestReflectionPolicy: z._default(z.enum(["Always", "IfNotPresent", "Never"]), "Never"),
      interval: z.optional(intervalSchema),
      suspend: z.optional(z.boolean()),
    })
    .check(
      z.superRefine((spec, ctx) => {
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
            message:
              "spec.interval must be set when spec.digestReflectionPolicy is set to 'Always'",
          });
        }
      }),
    );

  const imageRefSchema = z.object({
    name: z.string(),
    tag: z.string(),
    digest: z.optional(z.string()),
  });

  /** A Go `int` field: a safe integer. */
  const intField = /*#__PURE__*/ z.number().check(z.int());

  const conditionSchema = z.object({
    type: z.string(),
    status: z.enum(["True", "False", "Unknown"]),
    reason: z.string(),
    message: z.string(),
    observedGeneration: z.optional(intField),
    lastTransitionTime: z.optional(z.string()),
  });

  const imagePolicyStatusSchema = z.object({
    latestRef: z.optional(imageRefSchema),
    observedPreviousRef: z.optional(imageRefSchema),
    observedGeneration: z.optional(intField),
    conditions: z.optional(z.array(conditionSchema)),
    lastHandledReconcileAt: z.optional(z.string()),
  });

  const imagePolicySchema = z.object({
    apiVersion: z.literal("image.toolkit.fluxcd.io/v1"),
    kind: z.literal("ImagePolicy"),
    metadata: fluxMetadataSchema,
    spec: imagePolicySpecSchema,
    status: z.optional(imagePolicyStatusSchema),
  });

  const imagePolicyV1beta2Schema = z.extend(imagePolicySchema, {
    apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta2"),
  });

  const imagePolicyV1beta1Schema = z.object({
    apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta1"),
    kind: z.literal("ImagePolicy"),
    metadata: fluxMetadataSchema,
    spec: z.object({
      imageRepositoryRef: namespacedObjectReferenceSchema,
      policy: policyChoiceSchema,
      filterTags: z.optional(tagFilterSchema),
    }),
    status: z.optional(
      z.object({
        latestImage: z.optional(z.string()),
        observedGeneration: z.optional(intField),
        conditions: z.optional(z.array(conditionSchema)),
        lastHandledReconcileAt: z.optional(z.string()),
      }),
    ),
  });
  return {
    nonEmptyString,
    fluxMetadataSchema,
    intervalSchema,
    orderSchema,
    semverPolicySchema,
    policyChoiceSchema,
    tagFilterSchema,
    namespacedObjectReferenceSchema,
    imagePolicySpecSchema,
    imageRefSchema,
    intField,
    conditionSchema,
    imagePolicyStatusSchema,
    imagePolicySchema,
    imagePolicyV1beta2Schema,
    imagePolicyV1beta1Schema,
  };
}

/** The built ImagePolicy schemas, for the ImageRepository schemas built on them. */
export const imagePolicySchemas = lazy.once(() => buildImagePolicySchemas());
type Schemas = ReturnType<typeof buildImagePolicySchemas>;

/** A string that must not be empty (the CRDs' `minLength: 1`), with the message users see. */
export const nonEmptyString: Schemas["nonEmptyString"] = /*#__PURE__*/ lazy.lazySchema(
  () => imagePolicySchemas().nonEmptyString,
);

/** The object metadata both kinds share; other metadata fields are checked on their own. */
export const fluxMetadataSchema: Schemas["fluxMetadataSchema"] = /*#__PURE__*/ lazy.lazySchema(
  () => imagePolicySchemas().fluxMetadataSchema,
);

/** A Go duration in the CRD's shape, such as `10m` or `1h30m`. */
export const intervalSchema: Schemas["intervalSchema"] = /*#__PURE__*/ lazy.lazySchema(
  () => imagePolicySchemas().intervalSchema,
);

/** `spec` of an `ImagePolicy`. */
export const imagePolicySpecSchema: Schemas["imagePolicySpecSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => imagePolicySchemas().imagePolicySpecSchema);

/** `ImageRef` in the status: an image name, a tag, and perhaps a digest. */
export const imageRefSchema: Schemas["imageRefSchema"] = /*#__PURE__*/ lazy.lazySchema(
  () => imagePolicySchemas().imageRefSchema,
);

/** A Kubernetes `metav1.Condition`. */
export const conditionSchema: Schemas["conditionSchema"] = /*#__PURE__*/ lazy.lazySchema(
  () => imagePolicySchemas().conditionSchema,
);

/** `status` of an `ImagePolicy`. */
export const imagePolicyStatusSchema: Schemas["imagePolicyStatusSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => imagePolicySchemas().imagePolicyStatusSchema);

/**
 * A whole `ImagePolicy` object, as found in a manifest or the API server.
 * `parseImagePolicy` is the usual way in (it also refuses unknown fields,
 * reads the older versions and words errors with their paths); parsing
 * with the schema itself gives zod's own result.
 */
export const imagePolicySchema: Schemas["imagePolicySchema"] = /*#__PURE__*/ lazy.lazySchema(
  () => imagePolicySchemas().imagePolicySchema,
);

/**
 * A `v1beta2` `ImagePolicy`: the same fields as v1 (image-reflector-controller
 * v1.1.x, the last to serve it).
 */
export const imagePolicyV1beta2Schema: Schemas["imagePolicyV1beta2Schema"] =
  /*#__PURE__*/ lazy.lazySchema(() => imagePolicySchemas().imagePolicyV1beta2Schema);

/**
 * A `v1beta1` `ImagePolicy` (image-reflector-controller v0.35, the last to
 * serve it): no `digestReflectionPolicy`, `interval` or `suspend`, and a
 * status with `latestImage`.
 */
export const imagePolicyV1beta1Schema: Schemas["imagePolicyV1beta1Schema"] =
  /*#__PURE__*/ lazy.lazySchema(() => imagePolicySchemas().imagePolicyV1beta1Schema);

/** A validated `ImagePolicy`, with the CRD's defaults filled in. */
export type ImagePolicy = Z.output<Schemas["imagePolicySchema"]>;
/** A validated `ImagePolicy` spec. */
export type ImagePolicySpec = Z.output<Schemas["imagePolicySpecSchema"]>;
/** An image reference in the status.
 *
 * @inline
 */
export type ImageRef = Z.output<Schemas["imageRefSchema"]>;
/** A status condition.
 *
 * @inline
 */
export type Condition = Z.output<Schemas["conditionSchema"]>;
/** The status of an `ImagePolicy`. */
export type ImagePolicyStatus = Z.output<Schemas["imagePolicyStatusSchema"]>;
