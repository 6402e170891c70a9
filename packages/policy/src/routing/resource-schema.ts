/**
 * zod schemas of kube-image-keeper's four routing kinds (group
 * `kuik.enix.io`, version `v1alpha1`), with kuik's field names and defaults.
 * These schemas hold what kuik's Go types can decode (types, unsigned entry
 * priorities, durations); the CRD's extra OpenAPI limits and CEL rules are
 * checked separately in `crd-validation.ts`, so that objects the API server
 * would refuse but kuik still reads can be loaded leniently.
 */
import * as z from "zod";
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

let schemas: ReturnType<typeof buildSchemas> | undefined;

/** Builds the schemas on first use (no module-scope work). */
function routingSchemas(): ReturnType<typeof buildSchemas> {
  schemas ??= buildSchemas();
  return schemas;
}

function buildSchemas() {
  /** Go `uint`: kuik cannot decode a negative entry priority. */
  const unsignedPriority = z.number().int().nonnegative().default(0);
  /** Go `int`, signed; default 0. */
  const signedPriority = z.number().int().default(0);

  const duration = z.string().refine(
    (s) => {
      try {
        parseGoDuration(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: "must be a Go duration such as 30s, 1h or 24h0m0s" },
  );

  const credentialSecret = z.object({
    name: z.string().default(""),
    namespace: z.string().default(""),
  });

  const cleanup = z.object({
    enabled: z.boolean().default(false),
    retention: duration.optional(),
  });

  const imageFilterDefinition = z.object({
    include: z.array(z.string()).default([]),
    exclude: z.array(z.string()).default([]),
  });

  const filterItem = z.object({
    image: z.string().optional(),
    label: z.string().optional(),
    annotation: z.string().optional(),
  });
  const clusterFilterItem = filterItem.extend({ namespace: z.string().optional() });

  const filter = z.object({
    include: z.array(filterItem).default([]),
    exclude: z.array(filterItem).default([]),
  });
  const clusterFilter = z.object({
    include: z.array(clusterFilterItem).default([]),
    exclude: z.array(clusterFilterItem).default([]),
  });

  const mirror = z.object({
    registry: z.string().default(""),
    path: z.string().default(""),
    priority: unsignedPriority,
    credentialSecret: credentialSecret.optional(),
    cleanup: cleanup.optional(),
  });

  const upstream = z.object({
    registry: z.string().default(""),
    path: z.string().default(""),
    priority: unsignedPriority,
    discardAlternative: z.boolean().default(false),
    imageFilter: imageFilterDefinition.optional(),
    credentialSecret: credentialSecret.optional(),
  });

  const clusterMetadata = z.object({
    name: z.string().min(1),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    generation: z.number().int().optional(),
    resourceVersion: z.string().optional(),
  });
  const namespacedMetadata = clusterMetadata.extend({ namespace: z.string().min(1) });

  const apiVersion = z.literal(KUIK_API_VERSION);

  const clusterImageSetMirror = z.object({
    apiVersion,
    kind: z.literal("ClusterImageSetMirror"),
    metadata: clusterMetadata,
    spec: z
      .object({
        priority: signedPriority,
        filter: clusterFilter.optional(),
        imageFilter: imageFilterDefinition.optional(),
        cleanup: cleanup.optional(),
        mirrors: z.array(mirror).default([]),
      })
      .default({ priority: 0, mirrors: [] }),
  });
  const imageSetMirror = z.object({
    apiVersion,
    kind: z.literal("ImageSetMirror"),
    metadata: namespacedMetadata,
    spec: z
      .object({
        priority: signedPriority,
        filter: filter.optional(),
        imageFilter: imageFilterDefinition.optional(),
        cleanup: cleanup.optional(),
        mirrors: z.array(mirror).default([]),
      })
      .default({ priority: 0, mirrors: [] }),
  });
  const clusterReplicatedImageSet = z.object({
    apiVersion,
    kind: z.literal("ClusterReplicatedImageSet"),
    metadata: clusterMetadata,
    spec: z
      .object({
        priority: signedPriority,
        filter: clusterFilter.optional(),
        upstreams: z.array(upstream).default([]),
      })
      .default({ priority: 0, upstreams: [] }),
  });
  const replicatedImageSet = z.object({
    apiVersion,
    kind: z.literal("ReplicatedImageSet"),
    metadata: namespacedMetadata,
    spec: z
      .object({
        priority: signedPriority,
        filter: filter.optional(),
        upstreams: z.array(upstream).default([]),
      })
      .default({ priority: 0, upstreams: [] }),
  });

  const resource = z.discriminatedUnion("kind", [
    clusterImageSetMirror,
    imageSetMirror,
    clusterReplicatedImageSet,
    replicatedImageSet,
  ]);

  return {
    credentialSecret,
    imageFilterDefinition,
    filter,
    clusterFilter,
    mirror,
    upstream,
    clusterImageSetMirror,
    imageSetMirror,
    clusterReplicatedImageSet,
    replicatedImageSet,
    resource,
  };
}

type Schemas = ReturnType<typeof buildSchemas>;

/** A `credentialSecret` reference as written in a CR. */
export type KuikCredentialSecret = z.infer<Schemas["credentialSecret"]>;
/** The deprecated `imageFilter` (regex include/exclude lists). */
export type ImageFilterDefinition = z.infer<Schemas["imageFilterDefinition"]>;
/** The unified `spec.filter` of namespaced kinds. */
export type KuikFilter = z.infer<Schemas["filter"]>;
/** The unified `spec.filter` of cluster kinds (adds `namespace` items). */
export type KuikClusterFilter = z.infer<Schemas["clusterFilter"]>;
/** One `spec.mirrors[]` entry. */
export type KuikMirror = z.infer<Schemas["mirror"]>;
/** One `spec.upstreams[]` entry. */
export type ReplicatedUpstream = z.infer<Schemas["upstream"]>;
/** A cluster-scoped mirror definition. */
export type ClusterImageSetMirror = z.infer<Schemas["clusterImageSetMirror"]>;
/** A namespaced mirror definition. */
export type ImageSetMirror = z.infer<Schemas["imageSetMirror"]>;
/** A cluster-scoped set of equivalent upstreams. */
export type ClusterReplicatedImageSet = z.infer<Schemas["clusterReplicatedImageSet"]>;
/** A namespaced set of equivalent upstreams. */
export type ReplicatedImageSet = z.infer<Schemas["replicatedImageSet"]>;
/** Any of the four routing kinds. */
export type RoutingResource = z.infer<Schemas["resource"]>;

/**
 * Returns the zod schema of one routing object (any of the four kinds,
 * discriminated on `kind`). Lenient: it checks what kuik's Go types decode;
 * `parseRoutingResource` adds the CRD's own validation on top.
 *
 * @example
 * ```ts
 * const r = routingResourceSchema().parse(object);
 * if (r.kind === "ClusterImageSetMirror") console.log(r.spec.mirrors.length);
 * ```
 */
export function routingResourceSchema(): Schemas["resource"] {
  return routingSchemas().resource;
}
