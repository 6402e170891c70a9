/**
 * Compiling one routing object: its pod matcher (`spec.filter` label,
 * annotation and namespace items), its image or upstream filters (RE2,
 * anchored), credential namespaces, kind rank and sort keys, so that ordering
 * a container is a walk over plain data. What kuik would skip (a bad selector
 * or regex) is recorded, never thrown. Label selectors and patterns are
 * shared by text across objects and generations: clusters repeat them.
 */
import { path as goPath } from "@kubeimg/core/internal";
import { RegexpError } from "@kubeimg/core/regexp";
import type { SecretRef } from "../availability/checker.js";
import { RoutingError } from "./errors.js";
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
import { SharedTable } from "./shared-table.js";
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
    readonly secret: SecretRef | undefined;
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
  readonly secret: SecretRef | undefined;
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

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function resolveSecret(
  secret: KuikCredentialSecret | undefined,
  forcedNamespace: string | undefined,
): SecretRef | undefined {
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

const selectors = new SharedTable<LabelSelector>(4096, (e) => e instanceof RoutingError);
const podMatchers = new SharedTable<PodMatcher | undefined>(
  4096,
  (e) => e instanceof RoutingError || e instanceof RegexpError,
);
const imageFilters = new SharedTable<IncludeExcludeFilter>(4096, (e) => e instanceof RegexpError);
const prefixes = new SharedTable<string>(8192, () => false);
const hostLists = new WeakMap<IncludeExcludeFilter, readonly string[] | undefined>();

/** `parseLabelSelector`, shared by text (selectors are immutable). */
function sharedSelector(text: string): LabelSelector {
  return selectors.get(text, () => parseLabelSelector(text));
}

/** `path.Join(registry, path)`, shared by its two parts. */
function joinedPrefix(registry: string, path: string): string {
  return prefixes.get(`${registry}\u0000${path}`, () => goPath.Join(registry, path));
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
  const key = JSON.stringify([cluster, filter.include, filter.exclude]);
  return podMatchers.get(key, () => buildPodMatcher(filter, cluster));
}

function buildPodMatcher(filter: KuikFilter | KuikClusterFilter, cluster: boolean): PodMatcher {
  const include = filter.include as Record<string, string | undefined>[];
  const exclude = filter.exclude as Record<string, string | undefined>[];
  const includeLabels = collect(include, "label").map(sharedSelector);
  const excludeLabels = collect(exclude, "label").map(sharedSelector);
  const includeAnnotations = collect(include, "annotation").map(sharedSelector);
  const excludeAnnotations = collect(exclude, "annotation").map(sharedSelector);
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
    return sharedFilter(
      include.length === 0 ? [".*"] : include,
      collect(filter.exclude as Record<string, string | undefined>[], "image"),
    );
  }
  return sharedFilter(imageFilter?.include ?? [], imageFilter?.exclude ?? []);
}

/** `compileIncludeExcludeFilter`, shared by its pattern lists. */
function sharedFilter(
  include: readonly string[],
  exclude: readonly string[],
): IncludeExcludeFilter {
  return imageFilters.get(JSON.stringify([include, exclude]), () =>
    compileIncludeExcludeFilter(include, exclude),
  );
}

/** The registries an image filter is confined to, from its include patterns' literal prefixes. */
function hostsOf(filter: IncludeExcludeFilter): readonly string[] | undefined {
  if (hostLists.has(filter)) return hostLists.get(filter);
  const hosts = confinedHosts(filter);
  hostLists.set(filter, hosts);
  return hosts;
}

function confinedHosts(filter: IncludeExcludeFilter): readonly string[] | undefined {
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
        const { filter } = resource.spec;
        const field =
          filter && filter.include.length + filter.exclude.length > 0
            ? "spec.filter"
            : "spec.imageFilter";
        problem = `${field}: ${messageOf(e)}`;
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
            prefix: joinedPrefix(m.registry, m.path),
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
        filter = sharedFilter(u.imageFilter.include, u.imageFilter.exclude);
      } catch (e) {
        upstreamProblem = `spec.upstreams[${index}].imageFilter: ${messageOf(e)}`;
      }
    }
    return Object.freeze({
      index,
      registry: u.registry,
      path: u.path,
      prefix: joinedPrefix(u.registry, u.path),
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
