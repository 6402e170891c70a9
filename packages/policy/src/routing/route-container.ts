/**
 * The ordering of one container's alternatives, exactly as kuik's mutating
 * webhook computes it (`buildAlternativesList` and the gates of `defaultPod`
 * in `internal/webhook/core/v1/pod_webhook.go`, main at db2d839). Steps are
 * numbered as in the project's routing anchor note.
 */
import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import type { CredentialSecretRef } from "./availability.js";
import {
  type CompiledMirrorSet,
  type CompiledReplicatedSet,
  type CompiledRouting,
  type CompiledUpstream,
  MEMO_CAPACITY,
  RESULT_MEMO_CAPACITY,
  type RoutingMemo,
  type RoutingPodMeta,
  type RoutingResourceRef,
} from "./compile.js";
import { RoutingError } from "./errors.js";
import {
  MIRROR_POD_ANNOTATION,
  ORIGINAL_IMAGES_ANNOTATION,
  originalImagesKey,
  readOriginalImages,
} from "./original-images.js";
import type { AlternativeSortKey } from "./sort-key.js";

/** The container fields routing reads. */
export interface RoutingContainer {
  readonly name: string;
  readonly image: string;
  /**
   * As the webhook sees it, i.e. after API-server defaulting (`Always` for
   * `:latest` or untagged images, else `IfNotPresent`; see
   * `defaultPullPolicy` in `@kubeimg/core/reference`). Empty or absent is
   * neither `Always` nor `Never`.
   */
  readonly imagePullPolicy?: string;
}

/** What {@link routeContainer} needs. */
export interface RouteContainerInput {
  readonly pod: RoutingPodMeta;
  readonly container: RoutingContainer;
  /** True for an init container (never recorded in the annotation). */
  readonly init?: boolean;
}

/** Why kuik leaves a container alone without building a list. */
export type RoutingSkipReason =
  /** The Pod is a kubelet static-pod mirror (annotation `kubernetes.io/config.mirror`). */
  | "MIRROR_POD"
  /** A `skipLabels` selector matched the Pod's labels. */
  | "SKIP_LABELS"
  /** A `skipAnnotations` selector matched the Pod's annotations. */
  | "SKIP_ANNOTATIONS"
  /** The container is already listed in `kuik.enix.io/original-images`. */
  | "ALREADY_PROCESSED"
  /** The image does not parse as a Docker reference. */
  | "INVALID_IMAGE"
  /** The image contains `@` (digest, or tag and digest). */
  | "DIGEST"
  /** `imagePullPolicy: Never` and `routing.rewriteOnNeverImagePullPolicy` is false. */
  | "PULL_POLICY_NEVER";

/** Why an alternative is in the list. */
export type AlternativeReason =
  | {
      readonly source: "original";
      readonly key: AlternativeSortKey;
      /** True when `Always` pinned it first (honor flag off). */
      readonly pinnedFirst: boolean;
    }
  | {
      readonly source: "upstream";
      readonly key: AlternativeSortKey;
      readonly resource: RoutingResourceRef;
      readonly upstreamIndex: number;
      /** True for the upstream whose filter matched the image. */
      readonly matched: boolean;
    }
  | {
      readonly source: "mirror";
      readonly key: AlternativeSortKey;
      readonly resource: RoutingResourceRef;
      readonly mirrorIndex: number;
      /** The list entry this mirror entry was built from. */
      readonly mirrorOf: string;
    };

/** One entry of a container's ordered list. */
export interface RoutedAlternative {
  readonly image: string;
  /** The secret kuik attaches to this entry, if any. */
  readonly credentialSecret: CredentialSecretRef | undefined;
  readonly reason: AlternativeReason;
}

/** A container kuik does not consider. */
export interface SkippedContainerRoute {
  readonly status: "skipped";
  readonly container: string;
  readonly init: boolean;
  /** The image as written (unchanged). */
  readonly image: string;
  readonly skipReason: RoutingSkipReason;
}

/** A container with its ordered, de-duplicated alternatives. */
export interface RoutedContainerRoute {
  readonly status: "routed";
  readonly container: string;
  readonly init: boolean;
  /** The image as written. */
  readonly image: string;
  /** The normalised original (`docker.io/library/nginx:1.25`), tag as written. */
  readonly normalized: string;
  /** The exact list kuik would probe, in order; may be empty. */
  readonly alternatives: readonly RoutedAlternative[];
  /** True when kuik would probe the list (two entries or more). */
  readonly probed: boolean;
  /** True when a matched `discardAlternative` upstream removed the original. */
  readonly originalDiscarded: boolean;
  /**
   * Only with `discardAlternativeMode: "docs"`: the single remaining entry the
   * container is routed to without probing.
   */
  readonly direct: RoutedAlternative | undefined;
}

/** The outcome of {@link routeContainer}. */
export type ContainerRoute = SkippedContainerRoute | RoutedContainerRoute;

interface Candidate {
  readonly image: string;
  readonly secret: CredentialSecretRef | undefined;
  readonly reason: AlternativeReason;
  /** Normalised form and path after the registry, computed when a mirror CR first needs it. */
  parsed: { readonly normalized: string; readonly path: string } | undefined;
  /** The memoised mirror-filter answers of `parsed.normalized`. */
  answers: Int8Array | undefined;
}

/**
 * The mirror phase's view of the list: every entry parsed once (in list
 * order, so the first invalid one fails the call as in kuik) and indexed by
 * registry, so a mirror CR whose filter names its registries only looks at
 * those entries.
 */
const noIndexes: readonly number[] = Object.freeze([]);

class MirrorWalk {
  private parsedCount = 0;
  /** Entry indexes by registry id (only registries some mirror set names). */
  private readonly byHost: (number[] | undefined)[] = [];

  constructor(
    private readonly candidates: Candidate[],
    private readonly hostIds: ReadonlyMap<string, number>,
  ) {}

  /** Parses the entries not parsed yet, up to `count`. */
  parseUpTo(count: number): void {
    for (; this.parsedCount < count; this.parsedCount++) {
      const candidate = this.candidates[this.parsedCount] as Candidate;
      const { normalized } = parsedCandidate(candidate);
      const id = this.hostIds.get(normalized.slice(0, normalized.indexOf("/")));
      if (id === undefined) continue;
      const bucket = this.byHost[id];
      if (bucket) bucket.push(this.parsedCount);
      else this.byHost[id] = [this.parsedCount];
    }
  }

  /** Indexes of the parsed entries on the registries `ids`, in list order (read-only for one CR's walk). */
  indexesOn(ids: Int32Array): readonly number[] {
    let found: readonly number[] | undefined;
    let merged: number[] | undefined;
    for (const id of ids) {
      const bucket = this.byHost[id];
      if (bucket === undefined) continue;
      if (found === undefined) found = bucket;
      else {
        merged ??= [...found];
        merged.push(...bucket);
      }
    }
    return merged ? merged.sort((x, y) => x - y) : (found ?? noIndexes);
  }
}

const originalKey: AlternativeSortKey = Object.freeze({
  crPriority: 0,
  kindRank: 0,
  entryPriority: 0,
  entryIndex: 0,
});
const pinnedOriginalKey: AlternativeSortKey = Object.freeze({
  crPriority: Number.NEGATIVE_INFINITY,
  kindRank: 0,
  entryPriority: 0,
  entryIndex: 0,
});

function compareKeys(a: Candidate, b: Candidate): number {
  const x = a.reason.key;
  const y = b.reason.key;
  return (
    x.crPriority - y.crPriority ||
    x.kindRank - y.kindRank ||
    x.entryPriority - y.entryPriority ||
    x.entryIndex - y.entryIndex
  );
}

/** Step 1: the pod-level gates; undefined when the Pod is considered. */
export function podSkipReason(
  routing: CompiledRouting,
  pod: RoutingPodMeta,
): RoutingSkipReason | undefined {
  if (Object.hasOwn(pod.annotations, MIRROR_POD_ANNOTATION)) return "MIRROR_POD";
  if (routing.skipLabels.some((s) => s.matches(pod.labels))) return "SKIP_LABELS";
  if (routing.skipAnnotations.some((s) => s.matches(pod.annotations))) return "SKIP_ANNOTATIONS";
  return undefined;
}

function applies(cr: CompiledMirrorSet | CompiledReplicatedSet, pod: RoutingPodMeta): boolean {
  return cr.problem === undefined && (cr.podMatcher === undefined || cr.podMatcher(pod));
}

/** Which CRs apply to one pod scope, remembered by slot (0 not asked yet, 1 yes, 2 no). */
interface PodScope {
  readonly mirrors: Uint8Array;
  readonly replicated: Uint8Array;
}

function appliesIn(
  answers: Uint8Array,
  slot: number,
  cr: CompiledMirrorSet | CompiledReplicatedSet,
  pod: RoutingPodMeta,
): boolean {
  let answer = answers[slot];
  if (answer === 0) {
    answer = applies(cr, pod) ? 1 : 2;
    answers[slot] = answer;
  }
  return answer === 1;
}

/** Step 7: one replicated set's contribution; returns true when it discards the original. */
function addUpstreamCandidates(
  cr: CompiledReplicatedSet,
  normalized: string,
  out: Candidate[],
): boolean {
  let match: CompiledUpstream | undefined;
  for (const u of cr.upstreams) {
    if (
      u.problem === undefined &&
      u.filter !== undefined &&
      normalized.startsWith(u.registry) &&
      u.filter.match(normalized.slice(u.registry.length))
    ) {
      match = u;
      break;
    }
  }
  if (!match) return false;
  const suffix = normalized.startsWith(match.prefix)
    ? normalized.slice(match.prefix.length)
    : normalized;
  for (const u of cr.upstreams) {
    if (u.problem !== undefined || u.discardAlternative) continue;
    out.push({
      image: u.prefix + suffix,
      secret: u.secret,
      parsed: undefined,
      answers: undefined,
      reason: Object.freeze({
        source: "upstream",
        key: u.key,
        resource: cr.ref,
        upstreamIndex: u.index,
        matched: u === match,
      }),
    });
  }
  return match.discardAlternative;
}

/** Step 9.2: the registry/path split of a candidate, parsing it as kuik does. */
function parsedCandidate(candidate: Candidate): { normalized: string; path: string } {
  if (candidate.parsed) return candidate.parsed;
  const result = safeParseNormalizedNamed(candidate.image);
  if (!result.success) {
    throw new RoutingError(
      "INVALID_ALTERNATIVE_REFERENCE",
      `alternative "${candidate.image}" is not a valid reference: ${result.error.message}`,
      { input: candidate.image, value: candidate.image, cause: result.error },
    );
  }
  const normalized = result.reference.string;
  const slash = normalized.indexOf("/");
  candidate.parsed = { normalized, path: normalized.slice(slash + 1) };
  return candidate.parsed;
}

/**
 * `path.Join(prefix, path)` where `prefix` is already a `path.Join` result and
 * `path` is the clean path of a parsed reference (no empty, `.` or `..`
 * segments), so only the root and empty cases need care.
 */
function joinClean(prefix: string, path: string): string {
  if (prefix === "" || prefix === ".") return path;
  if (prefix === "/") return `/${path}`;
  return `${prefix}/${path}`;
}

/** The answer array of a candidate string, one slot per mirror set of the compiled routing. */
function answersFor(memo: RoutingMemo, normalized: string): Int8Array {
  let answers = memo.mirrorAnswers.get(normalized);
  if (!answers) {
    if (memo.mirrorAnswers.size >= MEMO_CAPACITY) memo.mirrorAnswers.clear();
    answers = new Int8Array(memo.mirrorCount);
    memo.mirrorAnswers.set(normalized, answers);
  }
  return answers;
}

/** Step 9: one mirror set's contribution, walking the list as it stands. */
function addMirrorCandidates(
  cr: CompiledMirrorSet,
  id: number,
  memo: RoutingMemo,
  walk: MirrorWalk,
  out: Candidate[],
  limit: number,
): void {
  const filter = cr.imageFilter;
  if (!filter) return;
  const count = out.length;
  walk.parseUpTo(count);
  if (count > limit) {
    throw new RoutingError(
      "TOO_MANY_ALTERNATIVES",
      `more than ${limit} alternatives before ${cr.ref.kind} "${cr.ref.name}" (mirrors of mirrors)`,
      { value: count },
    );
  }
  const hostIds = memo.mirrorHostIds[id];
  const indexes = hostIds ? walk.indexesOn(hostIds) : undefined;
  const total = indexes ? indexes.length : count;
  for (let k = 0; k < total; k++) {
    const candidate = out[indexes ? (indexes[k] as number) : k] as Candidate;
    const { normalized, path } = parsedCandidate(candidate);
    candidate.answers ??= answersFor(memo, normalized);
    let answer = candidate.answers[id];
    if (answer === 0) {
      answer = filter.match(normalized) ? 1 : 2;
      candidate.answers[id] = answer;
    }
    const matches = answer === 1;
    if (!matches) continue;
    for (const m of cr.mirrors) {
      out.push({
        image: joinClean(m.prefix, path),
        secret: m.secret,
        parsed: undefined,
        answers: undefined,
        reason: Object.freeze({
          source: "mirror",
          key: m.key,
          resource: cr.ref,
          mirrorIndex: m.index,
          mirrorOf: candidate.image,
        }),
      });
    }
  }
}

function skipped(input: RouteContainerInput, skipReason: RoutingSkipReason): SkippedContainerRoute {
  return Object.freeze({
    status: "skipped",
    container: input.container.name,
    init: input.init ?? false,
    image: input.container.image,
    skipReason,
  });
}

/**
 * Returns the container's gates outcome or its ordered alternatives, as kuik
 * computes them: pod gates, the original-images annotation, container gates,
 * CR selection by namespace and `spec.filter`, the upstream phase, the
 * original, the mirror phase (mirrors of every entry so far, mirrors of
 * mirrors included), a stable sort by (CR priority, kind rank, entry
 * priority, entry index) and exact-string de-duplication keeping the first
 * entry and its secret. Within a kind, CRs are taken in input order.
 *
 * Throws a {@link RoutingError} `INVALID_ALTERNATIVE_REFERENCE` when a
 * (Cluster)ImageSetMirror applies and an entry built so far is not a valid
 * reference: kuik then fails the whole admission call and the Pod is
 * admitted unchanged (use {@link safeRouteContainer} to get a value instead).
 *
 * @example
 * ```ts
 * const route = routeContainer(routing, {
 *   pod: { namespace: "default", labels: {}, annotations: {} },
 *   container: { name: "app", image: "nginx:1.25", imagePullPolicy: "IfNotPresent" },
 * });
 * if (route.status === "routed") console.log(route.alternatives.map((a) => a.image));
 * ```
 */
export function routeContainer(
  routing: CompiledRouting,
  input: RouteContainerInput,
): ContainerRoute {
  const { container } = input;
  // Tolerate callers (plain JavaScript) that leave out empty label or annotation maps.
  const pod: RoutingPodMeta = {
    namespace: input.pod.namespace ?? "",
    labels: input.pod.labels ?? {},
    annotations: input.pod.annotations ?? {},
  };
  const podReason = podSkipReason(routing, pod);
  if (podReason) return skipped(input, podReason);
  const processed = readOriginalImages(pod.annotations[ORIGINAL_IMAGES_ANNOTATION]);
  if (Object.hasOwn(processed, originalImagesKey(container.name, { init: input.init ?? false }))) {
    return skipped(input, "ALREADY_PROCESSED");
  }
  return orderContainer(routing, { ...input, pod });
}

/** What a container's list comes to; memoised per pod scope, image and policy class. */
type RouteCore =
  | {
      readonly normalized: string;
      readonly alternatives: readonly RoutedAlternative[];
      readonly probed: boolean;
      readonly originalDiscarded: boolean;
      readonly direct: RoutedAlternative | undefined;
    }
  | { readonly error: RoutingError };

/**
 * A canonical text of a string map (sorted keys, each key and value
 * length-prefixed so no content can forge another map's text), for memo keys.
 */
function mapKey(map: Readonly<Record<string, string>>): string {
  const keys = Object.keys(map);
  if (keys.length === 0) return "";
  keys.sort();
  let out = "";
  for (const k of keys) {
    const v = map[k] ?? "";
    out += `${k.length}:${k}${v.length}:${v}`;
  }
  return out;
}

/** Steps 4 to 11 for a container that passed its gates. */
function buildRouteCore(
  routing: CompiledRouting,
  pod: RoutingPodMeta,
  scope: PodScope,
  normalized: string,
  pinnedFirst: boolean,
): RouteCore {
  const candidates: Candidate[] = [];

  let originalDiscarded = false;
  const namespacedReplicated = routing.namespacedReplicated.get(pod.namespace) ?? [];
  const replicatedSlot = routing.memo.replicatedNamespaceSlots.get(pod.namespace) ?? 0;
  for (const [list, firstSlot] of [
    [routing.clusterReplicated, 0],
    [namespacedReplicated, replicatedSlot],
  ] as const) {
    for (let i = 0; i < list.length; i++) {
      const cr = list[i] as CompiledReplicatedSet;
      if (
        appliesIn(scope.replicated, firstSlot + i, cr, pod) &&
        addUpstreamCandidates(cr, normalized, candidates)
      ) {
        originalDiscarded = true;
      }
    }
  }

  if (!originalDiscarded) {
    candidates.push({
      image: normalized,
      secret: undefined,
      parsed: undefined,
      answers: undefined,
      reason: Object.freeze({
        source: "original",
        key: pinnedFirst ? pinnedOriginalKey : originalKey,
        pinnedFirst,
      }),
    });
  }

  const namespacedMirrors = routing.namespacedMirrors.get(pod.namespace) ?? [];
  const walk = new MirrorWalk(candidates, routing.memo.hostIds);
  const memo = routing.memo;
  const namespaceSlot = memo.namespaceSlots.get(pod.namespace) ?? 0;
  for (const [list, firstSlot] of [
    [routing.clusterMirrors, 0],
    [namespacedMirrors, namespaceSlot],
  ] as const) {
    for (let i = 0; i < list.length; i++) {
      const cr = list[i] as CompiledMirrorSet;
      if (appliesIn(scope.mirrors, firstSlot + i, cr, pod)) {
        addMirrorCandidates(cr, firstSlot + i, memo, walk, candidates, routing.maxCandidates);
      }
    }
  }

  candidates.sort(compareKeys);
  const seen = new Set<string>();
  const alternatives: RoutedAlternative[] = [];
  for (const c of candidates) {
    if (seen.has(c.image)) continue;
    seen.add(c.image);
    alternatives.push(
      Object.freeze({ image: c.image, credentialSecret: c.secret, reason: c.reason }),
    );
  }

  const only = alternatives[0];
  const direct =
    routing.discardAlternativeMode === "docs" &&
    originalDiscarded &&
    alternatives.length === 1 &&
    only !== undefined &&
    only.image !== normalized
      ? only
      : undefined;
  return Object.freeze({
    normalized,
    alternatives: Object.freeze(alternatives),
    probed: alternatives.length >= 2,
    originalDiscarded,
    direct,
  });
}

/**
 * The container gates and the list, without the pod-level gates and the
 * annotation check (the pod planner applies those once per Pod). Results are
 * memoised on the compiled routing by pod scope (namespace, labels,
 * annotations), normalised image and pull-policy class.
 */
export function orderContainer(
  routing: CompiledRouting,
  input: RouteContainerInput,
): ContainerRoute {
  const { pod, container } = input;
  const parsed = safeParseNormalizedNamed(container.image);
  if (!parsed.success) return skipped(input, "INVALID_IMAGE");
  if (container.image.includes("@")) return skipped(input, "DIGEST");
  const policy = container.imagePullPolicy ?? "";
  const routingConfig = routing.config.routing;
  if (policy === "Never" && !routingConfig.rewriteOnNeverImagePullPolicy) {
    return skipped(input, "PULL_POLICY_NEVER");
  }
  const normalized = parsed.reference.string;
  const pinnedFirst = policy === "Always" && !routingConfig.honorPrioritiesOnAlwaysImagePullPolicy;
  const scopeKey = `${pod.namespace}\u0001${mapKey(pod.labels)}\u0001${mapKey(pod.annotations)}`;
  const key = `${pinnedFirst ? "1" : "0"}${normalized}\u0001${scopeKey}`;
  const memo = routing.memo;
  const results = memo.results;
  let core = results.get(key) as RouteCore | undefined;
  if (core === undefined) {
    let scope = memo.podScopes.get(scopeKey);
    if (scope === undefined) {
      if (memo.podScopes.size >= RESULT_MEMO_CAPACITY) memo.podScopes.clear();
      scope = {
        mirrors: new Uint8Array(memo.mirrorCount),
        replicated: new Uint8Array(memo.replicatedCount),
      };
      memo.podScopes.set(scopeKey, scope);
    }
    try {
      core = buildRouteCore(routing, pod, scope, normalized, pinnedFirst);
    } catch (e) {
      if (!(e instanceof RoutingError)) throw e;
      core = Object.freeze({ error: e });
    }
    if (results.size >= RESULT_MEMO_CAPACITY) results.clear();
    results.set(key, core);
  }
  if ("error" in core) throw core.error;
  return Object.freeze({
    status: "routed",
    container: container.name,
    init: input.init ?? false,
    image: container.image,
    ...core,
  });
}

/**
 * Like {@link routeContainer}, but returns the `INVALID_ALTERNATIVE_REFERENCE`
 * error as a value, so a webhook can admit the Pod unchanged as kuik does.
 *
 * @example
 * ```ts
 * const r = safeRouteContainer(routing, input);
 * if (!r.success) log.warn(r.error.message); // admit unchanged
 * ```
 */
export function safeRouteContainer(
  routing: CompiledRouting,
  input: RouteContainerInput,
): { success: true; route: ContainerRoute } | { success: false; error: RoutingError } {
  try {
    return { success: true, route: routeContainer(routing, input) };
  } catch (e) {
    if (e instanceof RoutingError) return { success: false, error: e };
    throw e;
  }
}

/**
 * Returns the image the container ends up with, given the winner of the
 * probes (the first available entry in list order, or undefined when none
 * is). Follows kuik: skipped or unprobed containers keep their image as
 * written; so does a container whose winner is the normalised original; with
 * `discardAlternativeMode: "docs"` a `direct` entry is used without probing.
 *
 * @example
 * ```ts
 * finalContainerImage(route, route.status === "routed" ? route.alternatives[1] : undefined)
 * ```
 */
export function finalContainerImage(
  route: ContainerRoute,
  winner: RoutedAlternative | undefined,
): string {
  if (route.status === "skipped") return route.image;
  if (route.direct) return route.direct.image;
  if (!route.probed || winner === undefined || winner.image === route.normalized)
    return route.image;
  return winner.image;
}
