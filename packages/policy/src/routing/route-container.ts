/**
 * The ordering of one container's alternatives, exactly as kuik's mutating
 * webhook computes it (`buildAlternativesList` and the gates of `defaultPod`
 * in `internal/webhook/core/v1/pod_webhook.go`, main at db2d839), to be read
 * beside it. The steps, as numbered in the comments:
 *
 * 1. pod gates: a kubelet mirror pod, `skipLabels`, `skipAnnotations`;
 * 2. a container already in `kuik.enix.io/original-images` is skipped;
 * 3. container gates: unparsable image, digest, `Never` pull policy;
 * 4-5. CRs selected by namespace and `spec.filter` (`route-memo.ts` keeps
 *    the answers; `compile-resource.ts` builds the matchers);
 * 7. upstream phase: the first matching upstream of each replicated set
 *    gives one entry per upstream, or discards the original;
 * 8. the original, pinned first for `Always` unless priorities are honoured;
 * 9. mirror phase: each mirror set mirrors every entry so far that its
 *    filter matches (mirrors of mirrors included);
 * 10-11. stable sort by (CR priority, kind rank, entry priority, entry
 *    index), then exact-string de-duplication keeping the first.
 *
 * Steps 12-13 (secrets, probes, the rewrite) live in `resolve.ts` and
 * `pod-patch.ts`. The speed-ups (memoised answers, the registry index of the
 * mirror walk) live in `route-memo.ts`; a property test holds this file's
 * answers to a plain transcription of the steps.
 */
import { type NamedReference, safeParseNormalizedNamed } from "@kubeimg/core/reference";
import type { CompiledRouting } from "./compile.js";
import type {
  CompiledMirrorSet,
  CompiledReplicatedSet,
  CompiledUpstream,
  RoutingPodMeta,
} from "./compile-resource.js";
import { RoutingError } from "./errors.js";
import {
  MIRROR_POD_ANNOTATION,
  ORIGINAL_IMAGES_ANNOTATION,
  originalImagesKey,
  readOriginalImages,
} from "./original-images.js";
import {
  type Candidate,
  type MirrorWalk,
  memoOf,
  parsedCandidate,
  pathAfterRegistry,
  type RoutingMemo,
  readCandidate,
} from "./route-memo.js";
import type {
  ContainerRoute,
  ResolvedRouteContainerInput,
  RouteContainerInput,
  RoutedAlternative,
  RoutingContainer,
  RoutingSkipReason,
  SkippedContainerRoute,
} from "./route-types.js";
import type { AlternativeSortKey } from "./sort-key.js";

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

function skipped(
  input: ResolvedRouteContainerInput,
  skipReason: RoutingSkipReason,
): SkippedContainerRoute {
  return {
    status: "skipped",
    container: input.container.name,
    init: input.init ?? false,
    image: input.container.image,
    skipReason,
  };
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
 * admitted unchanged (catch the error to do the same).
 *
 * @example
 * ```ts
 * import { type CompiledRouting, routeContainer } from "@kubeimg/policy/routing";
 *
 * declare const routing: CompiledRouting; // compileRouting(…)
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
  // A Pod's metadata leaves out an empty namespace, label or annotation map,
  // and a container spec may leave out its image (read as the Pod schema
  // does: empty, hence `INVALID_IMAGE`).
  const pod: RoutingPodMeta = {
    namespace: input.pod?.namespace ?? "",
    labels: input.pod?.labels ?? {},
    annotations: input.pod?.annotations ?? {},
  };
  const pullPolicy = input.container.imagePullPolicy;
  const container: RoutingContainer =
    pullPolicy === undefined
      ? { name: input.container.name, image: input.container.image ?? "" }
      : {
          name: input.container.name,
          image: input.container.image ?? "",
          imagePullPolicy: pullPolicy,
        };
  const resolved: ResolvedRouteContainerInput =
    input.reference === undefined
      ? { pod, container, init: input.init ?? false }
      : { pod, container, init: input.init ?? false, reference: input.reference };
  const podReason = podSkipReason(routing, pod);
  if (podReason) return skipped(resolved, podReason);
  const recorded = pod.annotations[ORIGINAL_IMAGES_ANNOTATION];
  if (
    recorded !== undefined &&
    Object.hasOwn(
      readOriginalImages(recorded),
      originalImagesKey(container.name, { init: input.init ?? false }),
    )
  ) {
    return skipped(resolved, "ALREADY_PROCESSED");
  }
  return orderContainer(routing, resolved);
}

/** Step 9: one mirror set's contribution, walking the list as it stands. */
function addMirrorCandidates(
  cr: CompiledMirrorSet,
  slot: number,
  walk: MirrorWalk,
  out: Candidate[],
  limit: number,
): void {
  const filter = cr.imageFilter;
  if (!filter) return;
  const indexes = walk.entriesFor(slot);
  const count = indexes === undefined ? out.length : indexes.length;
  if (out.length > limit) {
    throw new RoutingError(
      "TOO_MANY_ALTERNATIVES",
      `more than ${limit} alternatives before ${cr.ref.kind} "${cr.ref.name}" (mirrors of mirrors)`,
      { value: out.length },
    );
  }
  for (let k = 0; k < count; k++) {
    const candidate = out[indexes === undefined ? k : (indexes[k] as number)] as Candidate;
    if (!walk.matches(candidate, slot, filter)) continue;
    const path = pathAfterRegistry(parsedCandidate(candidate, walk.seen));
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
 * Steps 4 to 11 for a container that passed its gates. Its result is kept by
 * the routing memo and handed to every later container with the same image
 * and scope, so it is frozen, alternatives and all: a caller that wrote to
 * one route would otherwise change the answer for every other. (The objects
 * built per call, plans, routes, patches and resolutions, are plain.)
 */
function buildRouteCore(
  routing: CompiledRouting,
  memo: RoutingMemo,
  pod: RoutingPodMeta,
  scopeKey: string,
  original: NamedReference,
  pinnedFirst: boolean,
): RouteCore {
  const normalized = original.string;
  const candidates: Candidate[] = [];
  let originalDiscarded = false;
  for (const { cr } of memo.replicatedFor(routing, pod, scopeKey)) {
    if (addUpstreamCandidates(cr, normalized, candidates)) originalDiscarded = true;
  }
  if (!originalDiscarded) {
    candidates.push({
      image: normalized,
      secret: undefined,
      parsed: original,
      answers: undefined,
      reason: Object.freeze({
        source: "original",
        key: pinnedFirst ? pinnedOriginalKey : originalKey,
        pinnedFirst,
      }),
    });
  }
  const walk = memo.walk(candidates);
  // An entry that spells the original (an upstream of its own registry) reuses its reading.
  walk.seen.set(normalized, original);
  for (const { cr, slot } of memo.mirrorsFor(routing, pod, scopeKey)) {
    addMirrorCandidates(cr, slot, walk, candidates, routing.maxCandidates);
  }

  candidates.sort(compareKeys);
  const seen = new Set<string>();
  const alternatives: RoutedAlternative[] = [];
  for (const c of candidates) {
    if (seen.has(c.image)) continue;
    seen.add(c.image);
    // Each entry is read once, here or in the mirror walk, and carried on:
    // the availability check and the registry use the reading.
    const parsed = readCandidate(c, walk.seen);
    alternatives.push(
      Object.freeze({
        image: c.image,
        reference: "code" in parsed ? undefined : parsed,
        credentialSecret: c.secret,
        reason: c.reason,
      }),
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
  input: ResolvedRouteContainerInput,
): ContainerRoute {
  const { pod, container } = input;
  let original = input.reference;
  if (original === undefined) {
    const parsed = safeParseNormalizedNamed(container.image);
    if (!parsed.success) return skipped(input, "INVALID_IMAGE");
    original = parsed.data;
  }
  if (container.image.includes("@")) return skipped(input, "DIGEST");
  const policy = container.imagePullPolicy ?? "";
  const routingConfig = routing.config.routing;
  if (policy === "Never" && !routingConfig.rewriteOnNeverImagePullPolicy) {
    return skipped(input, "PULL_POLICY_NEVER");
  }
  const normalized = original.string;
  const pinnedFirst = policy === "Always" && !routingConfig.honorPrioritiesOnAlwaysImagePullPolicy;
  const memo = memoOf(routing);
  const [key, scopeKey] = memo.keys(pod, normalized, pinnedFirst);
  let core = memo.result(key) as RouteCore | undefined;
  if (core === undefined) {
    try {
      core = buildRouteCore(routing, memo, pod, scopeKey, original, pinnedFirst);
    } catch (e) {
      if (!(e instanceof RoutingError)) throw e;
      core = Object.freeze({ error: e });
    }
    memo.remember(key, core);
  }
  if ("error" in core) throw core.error;
  return {
    status: "routed",
    container: container.name,
    init: input.init ?? false,
    image: container.image,
    normalized: core.normalized,
    alternatives: core.alternatives,
    probed: core.probed,
    originalDiscarded: core.originalDiscarded,
    direct: core.direct,
  };
}
