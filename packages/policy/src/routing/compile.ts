/**
 * Compiling routing objects once: filters (RE2, anchored), label selectors,
 * credential namespaces and kind ranks, so that ordering a container is a walk
 * over plain data. Compiled objects are kept per CR generation in a
 * {@link RoutingCompileCache}.
 */

import { path as goPath } from "@kubeimg/core/internal";
import type { CredentialSecretRef } from "./availability.js";
import { type KuikConfig, parseKuikConfig } from "./config-schema.js";
import { compileIncludeExcludeFilter, type IncludeExcludeFilter } from "./include-exclude.js";
import { type LabelSelector, parseLabelSelector } from "./label-selector.js";
import type {
  ImageFilterDefinition,
  KuikClusterFilter,
  KuikCredentialSecret,
  KuikFilter,
  RoutingKind,
  RoutingResource,
} from "./resource-schema.js";
import type { AlternativeSortKey } from "./sort-key.js";

/** kuik's kind rank, the second element of the sort key (the original is 0). */
export const KIND_RANK: Readonly<Record<RoutingKind, number>> = {
  ClusterImageSetMirror: 1,
  ImageSetMirror: 2,
  ClusterReplicatedImageSet: 3,
  ReplicatedImageSet: 4,
};

/** Which routing object an alternative or a problem comes from. */
export interface RoutingResourceRef {
  readonly kind: RoutingKind;
  readonly name: string;
  /** Absent for the cluster kinds. */
  readonly namespace?: string;
  /** `metadata.uid` when the object carries one (kuik hashes it into secret-copy names). */
  readonly uid?: string;
}

/** A pod's labels, annotations and namespace, as the pod matcher sees them. */
export interface RoutingPodMeta {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** Returns true when a pod is in scope of a CR's `spec.filter`. */
type PodMatcher = (pod: RoutingPodMeta) => boolean;

interface CompiledBase {
  readonly ref: RoutingResourceRef;
  readonly rank: number;
  readonly priority: number;
  /** Undefined: every pod passes. */
  readonly podMatcher: PodMatcher | undefined;
  /** Why kuik ignores this CR entirely (bad selector or regex), if it does. */
  readonly problem: string | undefined;
}

/** A compiled (Cluster)ImageSetMirror. */
export interface CompiledMirrorSet extends CompiledBase {
  readonly type: "mirror";
  /** Undefined when `problem` is set. */
  readonly imageFilter: IncludeExcludeFilter | undefined;
  /**
   * The only registries whose entries the image filter can match, when every
   * include pattern starts with a literal `host/`; undefined otherwise. Lets
   * the mirror phase look at those entries only.
   */
  readonly hosts: readonly string[] | undefined;
  readonly mirrors: readonly {
    readonly index: number;
    readonly registry: string;
    readonly path: string;
    /** `path.Join(registry, path)`. */
    readonly prefix: string;
    readonly priority: number;
    readonly secret: CredentialSecretRef | undefined;
    /** The sort key of every entry this mirror builds. */
    readonly key: AlternativeSortKey;
  }[];
}

/** A compiled (Cluster)ReplicatedImageSet upstream. */
export interface CompiledUpstream {
  readonly index: number;
  readonly registry: string;
  readonly path: string;
  /** `path.Join(registry, path)`. */
  readonly prefix: string;
  readonly priority: number;
  readonly discardAlternative: boolean;
  readonly secret: CredentialSecretRef | undefined;
  /** The sort key of the entry this upstream builds. */
  readonly key: AlternativeSortKey;
  /** Undefined: never matches (no `imageFilter`, or both lists empty). */
  readonly filter: IncludeExcludeFilter | undefined;
  /** Set when a pattern does not compile: the upstream is dropped everywhere. */
  readonly problem: string | undefined;
}

/** A compiled (Cluster)ReplicatedImageSet. */
export interface CompiledReplicatedSet extends CompiledBase {
  readonly type: "replicated";
  readonly upstreams: readonly CompiledUpstream[];
}

/** One compiled routing object. */
export type CompiledResource = CompiledMirrorSet | CompiledReplicatedSet;

/** What {@link compileRouting} options may hold. */
export interface CompileRoutingOptions {
  /** kuik's operator configuration (input form; defaults applied). */
  readonly config?: unknown;
  /** Reuses compiled objects across calls while their generation is unchanged. */
  readonly cache?: RoutingCompileCache;
  /**
   * How a list that `discardAlternative` reduced to one entry is treated.
   *
   * - `"kuik"` (default) follows kuik's code: a list of fewer than two
   *   entries is never probed and the container keeps its image, even when
   *   the single entry is not the original. With the docs' bitnami example
   *   (upstream `docker.io/bitnami` with `discardAlternative: true`, plus
   *   `docker.io/bitnamilegacy`), `bitnami/redis:7.2` stays as written.
   * - `"docs"` follows kuik's documentation of that example: when a matched
   *   `discardAlternative` upstream removed the original and exactly one entry
   *   remains, the container is routed to it directly, without probing
   *   (`docker.io/bitnamilegacy/redis:7.2`); the route carries it in `direct`.
   *
   * Every other case behaves the same in both modes.
   */
  readonly discardAlternativeMode?: "kuik" | "docs";
  /**
   * Most entries (before de-duplication) one container may build; past it,
   * routing fails with `TOO_MANY_ALTERNATIVES` instead of exhausting memory.
   * Default 50,000.
   */
  readonly maxCandidates?: number;
}

/** Routing objects and configuration, compiled for {@link routeContainer}. */
export interface CompiledRouting {
  readonly config: KuikConfig;
  readonly discardAlternativeMode: "kuik" | "docs";
  readonly maxCandidates: number;
  readonly skipLabels: readonly LabelSelector[];
  readonly skipAnnotations: readonly LabelSelector[];
  readonly clusterMirrors: readonly CompiledMirrorSet[];
  readonly clusterReplicated: readonly CompiledReplicatedSet[];
  /** Namespaced kinds, by namespace. */
  readonly namespacedMirrors: ReadonlyMap<string, readonly CompiledMirrorSet[]>;
  readonly namespacedReplicated: ReadonlyMap<string, readonly CompiledReplicatedSet[]>;
  /** CRs (and upstreams) kuik ignores, with the reason. */
  readonly problems: readonly { readonly resource: RoutingResourceRef; readonly message: string }[];
  /**
   * Memoised answers for this compiled set (internal; the compiled objects
   * never change, so answers stay valid for its whole life).
   * @internal
   */
  readonly memo: RoutingMemo;
}

/**
 * Memoised answers kept by a {@link CompiledRouting}: container results by
 * every input that shapes them, mirror-filter answers by candidate string,
 * and candidate parses. Each map is bounded and cleared when full.
 * @internal
 */
export interface RoutingMemo {
  /** How many mirror sets the answer arrays have a slot for. */
  readonly mirrorCount: number;
  /** Every registry named by a mirror set's `hosts`, numbered. */
  readonly hostIds: ReadonlyMap<string, number>;
  /** Each mirror set's `hosts` as numbers, by slot (undefined when it has none). */
  readonly mirrorHostIds: readonly (Int32Array | undefined)[];
  /** How many replicated sets there are (slots as for the mirror sets). */
  readonly replicatedCount: number;
  /** Slot of the first namespaced replicated set of each namespace. */
  readonly replicatedNamespaceSlots: ReadonlyMap<string, number>;
  /**
   * Per pod scope (namespace, labels, annotations): which CRs apply, by slot
   * (0 not asked yet, 1 applies, 2 does not).
   */
  readonly podScopes: Map<
    string,
    { readonly mirrors: Uint8Array; readonly replicated: Uint8Array }
  >;
  /**
   * Slot of the first namespaced mirror set of each namespace; the cluster
   * mirror sets take slots 0 to `clusterMirrors.length - 1`, in list order.
   */
  readonly namespaceSlots: ReadonlyMap<string, number>;
  /** Candidate string to one answer per mirror set id (0 unknown, 1 match, 2 no match). */
  readonly mirrorAnswers: Map<string, Int8Array>;
  /** Container results, keyed by pod scope, normalised image and pull-policy class. */
  readonly results: Map<string, unknown>;
}

/** How many candidate strings keep their mirror-filter answers before the memo starts over. */
export const MEMO_CAPACITY = 2048;

/** How many container results are kept before that memo starts over. */
export const RESULT_MEMO_CAPACITY = 256;

/** Compiled objects kept between calls, keyed by kind, namespace and name. */
export interface RoutingCompileCache {
  /** How many compiled objects are held. */
  readonly size: number;
  /** Forgets everything. */
  clear(): void;
}

interface CacheEntry {
  readonly source: RoutingResource;
  readonly compiled: CompiledResource;
}

class CompileCache implements RoutingCompileCache {
  readonly entries = new Map<string, CacheEntry>();
  get size(): number {
    return this.entries.size;
  }
  clear(): void {
    this.entries.clear();
  }
}

/**
 * Returns an empty cache for {@link compileRouting}. An object is reused when
 * it is the same JavaScript object as last time, or when its
 * `metadata.uid` and `metadata.generation` are given and unchanged (the API
 * server bumps `generation` on every spec change).
 *
 * @example
 * ```ts
 * const cache = createRoutingCompileCache();
 * const routing = compileRouting(informerObjects, { config, cache });
 * ```
 */
export function createRoutingCompileCache(): RoutingCompileCache {
  return new CompileCache();
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function resolveSecret(
  secret: KuikCredentialSecret | undefined,
  forcedNamespace: string | undefined,
): CredentialSecretRef | undefined {
  if (!secret) return undefined;
  return Object.freeze({ name: secret.name, namespace: forcedNamespace ?? secret.namespace });
}

/** Non-empty values of one filter dimension, in order (kuik's `collectFilterItems`). */
function collect(items: readonly Record<string, string | undefined>[], key: string): string[] {
  const out: string[] = [];
  for (const item of items) {
    const v = item[key];
    if (v !== undefined && v !== "") out.push(v);
  }
  return out;
}

function selectorsMatch(
  include: readonly LabelSelector[],
  exclude: readonly LabelSelector[],
  set: Readonly<Record<string, string>>,
): boolean {
  if (include.length > 0) {
    let any = false;
    for (const s of include) {
      if (s.matches(set)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  for (const s of exclude) if (s.matches(set)) return false;
  return true;
}

/** Builds the pod matcher of `spec.filter`; throws on a bad selector or namespace regex. */
function compilePodMatcher(
  filter: KuikFilter | KuikClusterFilter | undefined,
  cluster: boolean,
): PodMatcher | undefined {
  if (!filter || filter.include.length + filter.exclude.length === 0) return undefined;
  const include = filter.include as Record<string, string | undefined>[];
  const exclude = filter.exclude as Record<string, string | undefined>[];
  const includeLabels = collect(include, "label").map(parseLabelSelector);
  const excludeLabels = collect(exclude, "label").map(parseLabelSelector);
  const includeAnnotations = collect(include, "annotation").map(parseLabelSelector);
  const excludeAnnotations = collect(exclude, "annotation").map(parseLabelSelector);
  let namespaces: IncludeExcludeFilter | undefined;
  if (cluster) {
    const includeNs = collect(include, "namespace");
    namespaces = compileIncludeExcludeFilter(
      includeNs.length === 0 ? [".*"] : includeNs,
      collect(exclude, "namespace"),
    );
  }
  // A cluster has few namespaces: remember each one's answer.
  const namespaceAnswers = new Map<string, boolean>();
  const namespaceMatches = (namespace: string): boolean => {
    if (namespaces === undefined) return true;
    let answer = namespaceAnswers.get(namespace);
    if (answer === undefined) {
      answer = namespaces.match(namespace);
      if (namespaceAnswers.size >= 1024) namespaceAnswers.clear();
      namespaceAnswers.set(namespace, answer);
    }
    return answer;
  };
  return (pod) =>
    selectorsMatch(includeLabels, excludeLabels, pod.labels) &&
    selectorsMatch(includeAnnotations, excludeAnnotations, pod.annotations) &&
    namespaceMatches(pod.namespace);
}

/** The image filter of a mirror CR: `spec.filter` when it has items, else `spec.imageFilter`. */
function compileMirrorImageFilter(
  filter: KuikFilter | KuikClusterFilter | undefined,
  imageFilter: ImageFilterDefinition | undefined,
): IncludeExcludeFilter {
  if (filter && filter.include.length + filter.exclude.length > 0) {
    const include = collect(filter.include as Record<string, string | undefined>[], "image");
    return compileIncludeExcludeFilter(
      include.length === 0 ? [".*"] : include,
      collect(filter.exclude as Record<string, string | undefined>[], "image"),
    );
  }
  return compileIncludeExcludeFilter(imageFilter?.include ?? [], imageFilter?.exclude ?? []);
}

/** The registries an image filter is confined to, from its include patterns' literal prefixes. */
function hostsOf(filter: IncludeExcludeFilter): readonly string[] | undefined {
  const hosts = new Set<string>();
  for (const prefix of filter.includePrefixes) {
    const slash = prefix.indexOf("/");
    if (slash === -1) return undefined;
    hosts.add(prefix.slice(0, slash));
  }
  return Object.freeze([...hosts]);
}

function sortKey(
  crPriority: number,
  kindRank: number,
  entryPriority: number,
  entryIndex: number,
): AlternativeSortKey {
  return Object.freeze({ crPriority, kindRank, entryPriority, entryIndex });
}

function refOf(resource: RoutingResource): RoutingResourceRef {
  const namespaced = resource.kind === "ImageSetMirror" || resource.kind === "ReplicatedImageSet";
  const { name, uid } = resource.metadata;
  return Object.freeze({
    kind: resource.kind,
    name,
    ...(namespaced ? { namespace: resource.metadata.namespace ?? "" } : {}),
    ...(uid === undefined ? {} : { uid }),
  });
}

/**
 * Returns one routing object compiled: pod matcher, image or upstream
 * filters, credential namespaces (forced to the CR's namespace on the
 * namespaced kinds, as kuik does). Never throws: what kuik skips is recorded
 * in `problem`.
 *
 * @example
 * ```ts
 * const compiled = compileRoutingResource(parseRoutingResource(object));
 * if (compiled.problem) console.warn(compiled.problem);
 * ```
 */
export function compileRoutingResource(resource: RoutingResource): CompiledResource {
  const ref = refOf(resource);
  const rank = KIND_RANK[resource.kind];
  const cluster = ref.namespace === undefined;
  const forcedNamespace = ref.namespace;
  let podMatcher: PodMatcher | undefined;
  let problem: string | undefined;
  try {
    podMatcher = compilePodMatcher(resource.spec.filter, cluster);
  } catch (e) {
    problem = `spec.filter: ${messageOf(e)}`;
  }
  if (resource.kind === "ClusterImageSetMirror" || resource.kind === "ImageSetMirror") {
    let imageFilter: IncludeExcludeFilter | undefined;
    if (problem === undefined) {
      try {
        imageFilter = compileMirrorImageFilter(resource.spec.filter, resource.spec.imageFilter);
      } catch (e) {
        problem = `image filter: ${messageOf(e)}`;
      }
    }
    return Object.freeze({
      type: "mirror",
      ref,
      rank,
      priority: resource.spec.priority,
      podMatcher,
      problem,
      imageFilter,
      hosts: imageFilter ? hostsOf(imageFilter) : undefined,
      mirrors: Object.freeze(
        resource.spec.mirrors.map((m, index) =>
          Object.freeze({
            index,
            registry: m.registry,
            path: m.path,
            prefix: goPath.Join(m.registry, m.path),
            priority: m.priority,
            secret: resolveSecret(m.credentialSecret, forcedNamespace),
            key: sortKey(resource.spec.priority, rank, m.priority, index),
          }),
        ),
      ),
    });
  }
  const upstreams = resource.spec.upstreams.map((u, index): CompiledUpstream => {
    let filter: IncludeExcludeFilter | undefined;
    let upstreamProblem: string | undefined;
    if (u.imageFilter) {
      try {
        filter = compileIncludeExcludeFilter(u.imageFilter.include, u.imageFilter.exclude);
      } catch (e) {
        upstreamProblem = `spec.upstreams[${index}].imageFilter: ${messageOf(e)}`;
      }
    }
    return Object.freeze({
      index,
      registry: u.registry,
      path: u.path,
      prefix: goPath.Join(u.registry, u.path),
      priority: u.priority,
      discardAlternative: u.discardAlternative,
      secret: resolveSecret(u.credentialSecret, forcedNamespace),
      key: sortKey(resource.spec.priority, rank, u.priority, index),
      filter,
      problem: upstreamProblem,
    });
  });
  return Object.freeze({
    type: "replicated",
    ref,
    rank,
    priority: resource.spec.priority,
    podMatcher,
    problem,
    upstreams: Object.freeze(upstreams),
  });
}

function cacheKey(resource: RoutingResource): string {
  return `${resource.kind}/${resource.metadata.namespace ?? ""}/${resource.metadata.name}`;
}

function reusable(previous: RoutingResource, next: RoutingResource): boolean {
  if (previous === next) return true;
  const a = previous.metadata;
  const b = next.metadata;
  return (
    a.generation !== undefined &&
    a.generation === b.generation &&
    a.uid !== undefined &&
    a.uid === b.uid
  );
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Returns the routing objects and configuration compiled for
 * {@link routeContainer}. Objects keep their input order within a kind (kuik
 * reads them from an informer cache whose order is undefined; input order is
 * this library's rule). Pass a {@link RoutingCompileCache} to recompile only
 * objects whose generation changed. Throws `INVALID_CONFIG` for a bad
 * configuration; never throws for a CR kuik would skip (see `problems`).
 *
 * @example
 * ```ts
 * const routing = compileRouting(loadRoutingResources(yaml), { config: { routing: {} } });
 * const route = routeContainer(routing, { pod, container: { name: "app", image: "nginx:1.25" } });
 * ```
 */
export function compileRouting(
  resources: readonly RoutingResource[],
  options: CompileRoutingOptions = {},
): CompiledRouting {
  const config = parseKuikConfig(options.config ?? {});
  const cache = options.cache instanceof CompileCache ? options.cache : undefined;
  const clusterMirrors: CompiledMirrorSet[] = [];
  const clusterReplicated: CompiledReplicatedSet[] = [];
  const namespacedMirrors = new Map<string, CompiledMirrorSet[]>();
  const namespacedReplicated = new Map<string, CompiledReplicatedSet[]>();
  const problems: { resource: RoutingResourceRef; message: string }[] = [];
  const seen = cache ? new Set<string>() : undefined;
  for (const resource of resources) {
    let compiled: CompiledResource;
    if (cache) {
      const key = cacheKey(resource);
      seen?.add(key);
      const entry = cache.entries.get(key);
      if (entry && reusable(entry.source, resource)) compiled = entry.compiled;
      else {
        compiled = compileRoutingResource(resource);
        cache.entries.set(key, { source: resource, compiled });
      }
    } else {
      compiled = compileRoutingResource(resource);
    }
    if (compiled.problem !== undefined) {
      problems.push({ resource: compiled.ref, message: compiled.problem });
    }
    if (compiled.type === "replicated") {
      for (const u of compiled.upstreams) {
        if (u.problem !== undefined) problems.push({ resource: compiled.ref, message: u.problem });
      }
    }
    const ns = compiled.ref.namespace;
    if (compiled.type === "mirror") {
      if (ns === undefined) clusterMirrors.push(compiled);
      else pushTo(namespacedMirrors, ns, compiled);
    } else if (ns === undefined) clusterReplicated.push(compiled);
    else pushTo(namespacedReplicated, ns, compiled);
  }
  if (cache && seen) {
    for (const key of [...cache.entries.keys()]) if (!seen.has(key)) cache.entries.delete(key);
  }
  const slots = { count: clusterMirrors.length, byNamespace: new Map<string, number>() };
  for (const [namespace, sets] of namespacedMirrors) {
    slots.byNamespace.set(namespace, slots.count);
    slots.count += sets.length;
  }
  const hostIds = new Map<string, number>();
  const mirrorHostIds = [...clusterMirrors, ...[...namespacedMirrors.values()].flat()].map(
    (set) => {
      if (set.hosts === undefined) return undefined;
      return Int32Array.from(set.hosts, (host) => {
        let id = hostIds.get(host);
        if (id === undefined) {
          id = hostIds.size;
          hostIds.set(host, id);
        }
        return id;
      });
    },
  );
  const replicatedSlots = {
    count: clusterReplicated.length,
    byNamespace: new Map<string, number>(),
  };
  for (const [namespace, sets] of namespacedReplicated) {
    replicatedSlots.byNamespace.set(namespace, replicatedSlots.count);
    replicatedSlots.count += sets.length;
  }
  return Object.freeze({
    config,
    discardAlternativeMode: options.discardAlternativeMode ?? "kuik",
    maxCandidates: options.maxCandidates ?? 50_000,
    skipLabels: Object.freeze(config.skipLabels.map(parseLabelSelector)),
    skipAnnotations: Object.freeze(config.skipAnnotations.map(parseLabelSelector)),
    clusterMirrors: Object.freeze(clusterMirrors),
    clusterReplicated: Object.freeze(clusterReplicated),
    namespacedMirrors,
    namespacedReplicated,
    problems: Object.freeze(problems),
    memo: {
      mirrorCount: slots.count,
      namespaceSlots: slots.byNamespace,
      hostIds,
      mirrorHostIds,
      replicatedCount: replicatedSlots.count,
      replicatedNamespaceSlots: replicatedSlots.byNamespace,
      podScopes: new Map(),
      mirrorAnswers: new Map(),
      results: new Map(),
    },
  });
}
