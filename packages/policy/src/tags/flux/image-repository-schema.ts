/**
 * The Flux `ImageRepository` object as a zod schema: what to list
 * (`spec.image`), which tags to drop (`exclusionList`, default `^.*\.sig$`),
 * and whether the registry speaks plain HTTP (`insecure`), with the CRD's
 * patterns and defaults. v1 and v1beta2 have the same fields; v1beta1 lacks
 * `proxySecretRef`, `provider` and `insecure`, and its `exclusionList` has no
 * default.
 */

import { lazy } from "@kubeimg/core/internal";
import type * as Z from "zod/mini";
import * as z from "#zod";
import { imagePolicySchemas } from "./image-policy-schema.js";

function buildImageRepositorySchemas() {
  const { fluxMetadataSchema, intervalSchema, nonEmptyString } = imagePolicySchemas();
  /** `meta.LocalObjectReference`. */
  const localObjectReferenceSchema = z.object({ name: nonEmptyString });

  /** `acl.AccessFrom`: namespaces allowed to refer to the object. */
  const accessFromSchema = z.object({
    namespaceSelectors: z.array(
      z.object({ matchLabels: z.optional(z.record(z.string(), z.string())) }),
    ),
  });

  /** The `ImageRepository` timeout pattern: no hours, unlike the interval. */
  const timeoutSchema = /*#__PURE__*/ z.string().check(
    z.regex(/^([0-9]+(\.[0-9]+)?(ms|s|m))+$/, {
      message: "must be a Go duration matching ^([0-9]+(\\.[0-9]+)?(ms|s|m))+$, such as 30s",
    }),
  );

  const imageRepositoryV1beta1SpecSchema = z.object({
    image: nonEmptyString,
    // The CRD requires `interval`; it plays no part in which tags are listed,
    // so a manifest without it is still read here.
    interval: z.optional(intervalSchema),
    timeout: z.optional(timeoutSchema),
    secretRef: z.optional(localObjectReferenceSchema),
    serviceAccountName: z.optional(/*#__PURE__*/ z.string().check(z.maxLength(253))),
    certSecretRef: z.optional(localObjectReferenceSchema),
    suspend: z.optional(z.boolean()),
    accessFrom: z.optional(accessFromSchema),
    exclusionList: z.optional(z.array(z.string())),
  });

  const imageRepositorySpecSchema = z.extend(imageRepositoryV1beta1SpecSchema, {
    proxySecretRef: z.optional(localObjectReferenceSchema),
    exclusionList: z._default(/*#__PURE__*/ z.array(z.string()).check(z.maxLength(25)), [
      "^.*\\.sig$",
    ]),
    provider: z._default(z.enum(["generic", "aws", "azure", "gcp"]), "generic"),
    insecure: z._default(z.boolean(), false),
  });

  const imageRepositorySchema = z.object({
    apiVersion: z.literal("image.toolkit.fluxcd.io/v1"),
    kind: z.literal("ImageRepository"),
    metadata: fluxMetadataSchema,
    spec: imageRepositorySpecSchema,
    status: z.optional(z.looseObject({})),
  });

  const imageRepositoryV1beta2Schema = z.extend(imageRepositorySchema, {
    apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta2"),
  });

  const imageRepositoryV1beta1Schema = z.object({
    apiVersion: z.literal("image.toolkit.fluxcd.io/v1beta1"),
    kind: z.literal("ImageRepository"),
    metadata: fluxMetadataSchema,
    spec: imageRepositoryV1beta1SpecSchema,
    status: z.optional(z.looseObject({})),
  });
  return {
    localObjectReferenceSchema,
    accessFromSchema,
    timeoutSchema,
    imageRepositoryV1beta1SpecSchema,
    imageRepositorySpecSchema,
    imageRepositorySchema,
    imageRepositoryV1beta2Schema,
    imageRepositoryV1beta1Schema,
  };
}

const schemas = lazy.once(() => buildImageRepositorySchemas());
type Schemas = ReturnType<typeof buildImageRepositorySchemas>;

/** `spec` of a v1 `ImageRepository`, with the CRD's defaults. */
export const imageRepositorySpecSchema: Schemas["imageRepositorySpecSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imageRepositorySpecSchema);

/**
 * A whole v1 `ImageRepository`. The status is accepted and not read.
 * `parseImageRepository` is the usual way in (unknown fields refused, older
 * versions converted).
 *
 * By default `spec.exclusionList` is `^.*\.sig$` alone, as in Flux.
 */
export const imageRepositorySchema: Schemas["imageRepositorySchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imageRepositorySchema);

/** A `v1beta2` `ImageRepository`: the same fields as v1. */
export const imageRepositoryV1beta2Schema: Schemas["imageRepositoryV1beta2Schema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imageRepositoryV1beta2Schema);

/** A `v1beta1` `ImageRepository`: no `proxySecretRef`, `provider` or `insecure`. */
export const imageRepositoryV1beta1Schema: Schemas["imageRepositoryV1beta1Schema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imageRepositoryV1beta1Schema);

/** A validated v1 `ImageRepository`, with the CRD's defaults filled in. */
export type ImageRepository = Z.output<Schemas["imageRepositorySchema"]>;
/** A validated `ImageRepository` spec. */
export type ImageRepositorySpec = Z.output<Schemas["imageRepositorySpecSchema"]>;
