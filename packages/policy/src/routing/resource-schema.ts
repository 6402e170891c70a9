/**
 * zod schemas of kube-image-keeper's four routing kinds (group
 * `kuik.enix.io`, version `v1alpha1`), with kuik's field names and defaults.
 * These schemas hold what kuik's Go types can decode (types, unsigned entry
 * priorities, durations); the CRD's extra OpenAPI limits and CEL rules are
 * checked separately in `crd-validation.ts`, so that objects the API server
 * would refuse but kuik still reads can be loaded leniently.
 *
 * The schemas are constants built with `zod/mini`, whose functions bundlers
 * may drop when unused; the method calls (`.check`) are marked pure for the
 * same reason.
 */

import { lazy } from "@kubeimg/core/internal";
import type * as Z from "zod/mini";
import * as z from "#zod";
import { parseGoDuration } from "./duration.js";

/** The `apiVersion` of every kuik routing object. */
export const KUIK_API_VERSION = "kuik.enix.io/v1alpha1";

/** The four routing kinds, in kuik's kind-rank order (1 to 4). */
export const ROUTING_KINDS = [
  "ClusterImageSetMirror",
  "ImageSetMirror",
  "ClusterReplicatedImageSet",
  "ReplicatedImageSet",
] as const;

/** One of the four routing kinds. */
export type RoutingKind = (typeof ROUTING_KINDS)[number];

function buildRoutingSchemas() {
  /** Go `int`: a safe integer. */
  const intField = /*#__PURE__*/ z.number().check(z.int());
  /** Go `uint`: kuik cannot decode a negative entry priority. */
  const unsignedPriority = z._default(/*#__PURE__*/ z.number().check(z.int(), z.nonnegative()), 0);
  /** Go `int`, signed; default 0. */
  const signedPriority = z._default(intField, 0);

  const duration = /*#__PURE__*/ z.string().check(
    z.refine(
      (s) => {
        try {
          parseGoDuration(s);
          return true;
        } catch {
          return false;
        }
      },
      { message: "must be a Go duration such as 30s, 1h or 24h0m0s" },
    ),
  );

  const credentialSecret = z.object({
    name: z._default(z.string(), ""),
    namespace: z._default(z.string(), ""),
  });

  const cleanup = z.object({
    enabled: z._default(z.boolean(), false),
    retention: z.optional(duration),
  });

  const imageFilterDefinition = z.object({
    include: z._default(z.array(z.string()), []),
    exclude: z._default(z.array(z.string()), []),
  });

  const filterItem = z.object({
    image: z.optional(z.string()),
    label: z.optional(z.string()),
    annotation: z.optional(z.string()),
  });
  const clusterFilterItem = z.extend(filterItem, { namespace: z.optional(z.string()) });

  const filter = z.object({
    include: z._default(z.array(filterItem), []),
    exclude: z._default(z.array(filterItem), []),
  });
  const clusterFilter = z.object({
    include: z._default(z.array(clusterFilterItem), []),
    exclude: z._default(z.array(clusterFilterItem), []),
  });

  const mirror = z.object({
    registry: z._default(z.string(), ""),
    path: z._default(z.string(), ""),
    priority: unsignedPriority,
    credentialSecret: z.optional(credentialSecret),
    cleanup: z.optional(cleanup),
  });

  const upstream = z.object({
    registry: z._default(z.string(), ""),
    path: z._default(z.string(), ""),
    priority: unsignedPriority,
    discardAlternative: z._default(z.boolean(), false),
    imageFilter: z.optional(imageFilterDefinition),
    credentialSecret: z.optional(credentialSecret),
  });

  const clusterMetadata = z.object({
    name: /*#__PURE__*/ z.string().check(z.minLength(1)),
    namespace: z.optional(z.string()),
    uid: z.optional(z.string()),
    generation: z.optional(intField),
    resourceVersion: z.optional(z.string()),
  });
  const namespacedMetadata = z.extend(clusterMetadata, {
    namespace: /*#__PURE__*/ z.string().check(z.minLength(1)),
  });

  const apiVersion = z.literal(KUIK_API_VERSION);

  const clusterImageSetMirror = z.object({
    apiVersion,
    kind: z.literal("ClusterImageSetMirror"),
    metadata: clusterMetadata,
    spec: z._default(
      z.object({
        priority: signedPriority,
        filter: z.optional(clusterFilter),
        imageFilter: z.optional(imageFilterDefinition),
        cleanup: z.optional(cleanup),
        mirrors: z._default(z.array(mirror), []),
      }),
      { priority: 0, mirrors: [] },
    ),
  });
  const imageSetMirror = z.object({
    apiVersion,
    kind: z.literal("ImageSetMirror"),
    metadata: namespacedMetadata,
    spec: z._default(
      z.object({
        priority: signedPriority,
        filter: z.optional(filter),
        imageFilter: z.optional(imageFilterDefinition),
        cleanup: z.optional(cleanup),
        mirrors: z._default(z.array(mirror), []),
      }),
      { priority: 0, mirrors: [] },
    ),
  });
  const clusterReplicatedImageSet = z.object({
    apiVersion,
    kind: z.literal("ClusterReplicatedImageSet"),
    metadata: clusterMetadata,
    spec: z._default(
      z.object({
        priority: signedPriority,
        filter: z.optional(clusterFilter),
        upstreams: z._default(z.array(upstream), []),
      }),
      { priority: 0, upstreams: [] },
    ),
  });
  const replicatedImageSet = z.object({
    apiVersion,
    kind: z.literal("ReplicatedImageSet"),
    metadata: namespacedMetadata,
    spec: z._default(
      z.object({
        priority: signedPriority,
        filter: z.optional(filter),
        upstreams: z._default(z.array(upstream), []),
      }),
      { priority: 0, upstreams: [] },
    ),
  });

  const routingResourceSchema = z.discriminatedUnion("kind", [
    clusterImageSetMirror,
    imageSetMirror,
    clusterReplicatedImageSet,
    replicatedImageSet,
  ]);
  return {
    intField,
    unsignedPriority,
    signedPriority,
    duration,
    credentialSecret,
    cleanup,
    imageFilterDefinition,
    filterItem,
    clusterFilterItem,
    filter,
    clusterFilter,
    mirror,
    upstream,
    clusterMetadata,
    namespacedMetadata,
    apiVersion,
    clusterImageSetMirror,
    imageSetMirror,
    clusterReplicatedImageSet,
    replicatedImageSet,
    routingResourceSchema,
  };
}

const schemas = lazy.once(() => buildRoutingSchemas());
type Schemas = ReturnType<typeof buildRoutingSchemas>;

/**
 * The zod schema of one routing object (any of the four kinds,
 * discriminated on `kind`). Lenient: it checks what kuik's Go types decode;
 * `parseRoutingResource` adds the CRD's own validation, unknown-field checks
 * and error messages that name the object, on top.
 */
export const routingResourceSchema: Schemas["routingResourceSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().routingResourceSchema);

/** A `credentialSecret` reference as written in a CR. */
export type KuikCredentialSecret = Z.infer<Schemas["credentialSecret"]>;
/** The deprecated `imageFilter` (regex include/exclude lists). */
export type ImageFilterDefinition = Z.infer<Schemas["imageFilterDefinition"]>;
/** The unified `spec.filter` of namespaced kinds. */
export type KuikFilter = Z.infer<Schemas["filter"]>;
/** The unified `spec.filter` of cluster kinds (adds `namespace` items). */
export type KuikClusterFilter = Z.infer<Schemas["clusterFilter"]>;
/** One `spec.mirrors[]` entry. */
export type KuikMirror = Z.infer<Schemas["mirror"]>;
/** One `spec.upstreams[]` entry. */
export type ReplicatedUpstream = Z.infer<Schemas["upstream"]>;
/** A cluster-scoped mirror definition. */
export type ClusterImageSetMirror = Z.infer<Schemas["clusterImageSetMirror"]>;
/** A namespaced mirror definition. */
export type ImageSetMirror = Z.infer<Schemas["imageSetMirror"]>;
/** A cluster-scoped set of equivalent upstreams. */
export type ClusterReplicatedImageSet = Z.infer<Schemas["clusterReplicatedImageSet"]>;
/** A namespaced set of equivalent upstreams. */
export type ReplicatedImageSet = Z.infer<Schemas["replicatedImageSet"]>;
/** Any of the four routing kinds. */
export type RoutingResource = Z.infer<Schemas["routingResourceSchema"]>;
