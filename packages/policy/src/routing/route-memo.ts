/**
 * The speed-ups of {@link routeContainer}, apart from kuik's steps.
 *
 * A compiled routing never changes, so every answer computed from it stays
 * valid for its whole life. This module keeps those answers beside it, in a
 * private `WeakMap` keyed by the compiled routing (which stays plain data and
 * takes its memo with it when dropped):
 *
 * - which CRs apply to a pod scope (namespace, labels, annotations);
 * - each candidate string's mirror-filter answers, one per mirror set;
 * - whole container results, by pod scope, normalised image and pull-policy
 *   class (a rollout's replicas ask the same question many times);
 * - a per-call index of the list by registry, so a mirror set whose filter
 *   names its registries looks at those entries only.
 *
 * Every map is bounded and starts over when full. The ordering property test
 * holds the result to a plain transcription of the algorithm.
 */
import {
  type ImageReferenceError,
  type NamedReference,
  safeParseNormalizedNamed,
} from "@kubeimg/core/reference";
import type { SecretRef } from "../availability/checker.js";
import type { CompiledRouting } from "./compile.js";
import type {
  CompiledMirrorSet,
  CompiledReplicatedSet,
  RoutingPodMeta,
} from "./compile-resource.js";
import { RoutingError } from "./errors.js";
import type { IncludeExcludeFilter } from "./include-exclude.js";
import type { AlternativeReason } from "./route-types.js";

/** How many candidate strings keep their mirror-filter answers before the memo starts over. */
const MEMO_CAPACITY = 2048;

/** How many container results (and pod scopes) are kept before that memo starts over. */
const RESULT_MEMO_CAPACITY = 256;

/** One entry of the list being built, with the caches the mirror walk fills. */
export interface Candidate {
  readonly image: string;
  readonly secret: SecretRef | undefined;
  readonly reason: AlternativeReason;
  /**
   * `image` read once (the original: the container's own reading), or the
   * error reading it gave; undefined until the mirror walk or the end of the
   * list needs it.
   */
  parsed: NamedReference | ImageReferenceError | undefined;
  /** The memoised mirror-filter answers of the reference's string. */
  answers: Int8Array | undefined;
}

/** A selected CR and its slot in the memo's answer arrays. */
export interface Slotted<T> {
  readonly cr: T;
  readonly slot: number;
}

/**
 * Reads a candidate's image once (an entry equal to one read before in the
 * same list reuses that reading) and keeps the reference, or the error, on it.
 */
export function readCandidate(
  candidate: Candidate,
  seen: Map<string, NamedReference>,
): NamedReference | ImageReferenceError {
  if (candidate.parsed !== undefined) return candidate.parsed;
  let parsed: NamedReference | ImageReferenceError | undefined = seen.get(candidate.image);
  if (parsed === undefined) {
    const result = safeParseNormalizedNamed(candidate.image);
    parsed = result.success ? result.data : result.error;
    if (result.success) seen.set(candidate.image, result.data);
  }
  candidate.parsed = parsed;
  return parsed;
}

/** Step 9.2: a candidate's reference, as kuik parses it; an invalid one fails the call. */
export function parsedCandidate(
  candidate: Candidate,
  seen: Map<string, NamedReference>,
): NamedReference {
  const parsed = readCandidate(candidate, seen);
  if ("code" in parsed) {
    throw new RoutingError(
      "INVALID_ALTERNATIVE_REFERENCE",
      `alternative "${candidate.image}" is not a valid reference: ${parsed.message}`,
      { input: candidate.image, value: candidate.image, cause: parsed },
    );
  }
  return parsed;
}

/** Step 9.3's path: the reference's string after its registry (`path[:tag]`). */
export function pathAfterRegistry(reference: NamedReference): string {
  return reference.string.slice(reference.domain.length + 1);
}

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

/** Slot numbering of one kind pair: cluster sets first, then each namespace's sets. */
interface Slots {
  readonly count: number;
  readonly byNamespace: ReadonlyMap<string, number>;
}

function slotsOf(clusterCount: number, namespaced: ReadonlyMap<string, readonly unknown[]>): Slots {
  let count = clusterCount;
  const byNamespace = new Map<string, number>();
  for (const [namespace, sets] of namespaced) {
    byNamespace.set(namespace, count);
    count += sets.length;
  }
  return { count, byNamespace };
}

/** The CRs that apply to one pod scope, computed on first use. */
interface PodScope {
  mirrors: readonly Slotted<CompiledMirrorSet>[] | undefined;
  replicated: readonly Slotted<CompiledReplicatedSet>[] | undefined;
}

const noIndexes: readonly number[] = Object.freeze([]);

/** The memo of one compiled routing. */
export class RoutingMemo {
  readonly #mirrorSlots: Slots;
  readonly #replicatedSlots: Slots;
  /** Every registry named by a mirror set's `hosts`, numbered. */
  readonly #hostIds = new Map<string, number>();
  /** Each mirror set's `hosts` as numbers, by slot (undefined when it has none). */
  readonly #mirrorHostIds: (Int32Array | undefined)[];
  readonly #podScopes = new Map<string, PodScope>();
  /** Candidate string to one answer per mirror set slot (0 unknown, 1 match, 2 no match). */
  readonly #mirrorAnswers = new Map<string, Int8Array>();
  readonly #results = new Map<string, unknown>();

  /** Never keeps `routing` itself: the memo is the value of a weak map keyed by it. */
  constructor(routing: CompiledRouting) {
    this.#mirrorSlots = slotsOf(routing.clusterMirrors.length, routing.namespacedMirrors);
    this.#replicatedSlots = slotsOf(routing.clusterReplicated.length, routing.namespacedReplicated);
    const sets = [...routing.clusterMirrors, ...[...routing.namespacedMirrors.values()].flat()];
    this.#mirrorHostIds = sets.map((set) => {
      if (set.hosts === undefined) return undefined;
      return Int32Array.from(set.hosts, (host) => {
        let id = this.#hostIds.get(host);
        if (id === undefined) {
          id = this.#hostIds.size;
          this.#hostIds.set(host, id);
        }
        return id;
      });
    });
  }

  /** The memo key of a container's result, and of its pod scope. */
  keys(pod: RoutingPodMeta, normalized: string, pinnedFirst: boolean): [string, string] {
    const scope = `${pod.namespace}\u0001${mapKey(pod.labels)}\u0001${mapKey(pod.annotations)}`;
    return [`${pinnedFirst ? "1" : "0"}${normalized}\u0001${scope}`, scope];
  }

  result(key: string): unknown {
    return this.#results.get(key);
  }

  remember(key: string, value: unknown): void {
    if (this.#results.size >= RESULT_MEMO_CAPACITY) this.#results.clear();
    this.#results.set(key, value);
  }

  #scope(scopeKey: string): PodScope {
    let scope = this.#podScopes.get(scopeKey);
    if (scope === undefined) {
      if (this.#podScopes.size >= RESULT_MEMO_CAPACITY) this.#podScopes.clear();
      scope = { mirrors: undefined, replicated: undefined };
      this.#podScopes.set(scopeKey, scope);
    }
    return scope;
  }

  /** Steps 4-5 for the replicated kinds: the sets that apply, cluster ones first. */
  replicatedFor(
    r: CompiledRouting,
    pod: RoutingPodMeta,
    scopeKey: string,
  ): readonly Slotted<CompiledReplicatedSet>[] {
    const scope = this.#scope(scopeKey);
    scope.replicated ??= selected(
      pod,
      r.clusterReplicated,
      r.namespacedReplicated.get(pod.namespace) ?? [],
      this.#replicatedSlots.byNamespace.get(pod.namespace) ?? 0,
    );
    return scope.replicated;
  }

  /** Steps 4-5 for the mirror kinds: the sets that apply, cluster ones first. */
  mirrorsFor(
    r: CompiledRouting,
    pod: RoutingPodMeta,
    scopeKey: string,
  ): readonly Slotted<CompiledMirrorSet>[] {
    const scope = this.#scope(scopeKey);
    scope.mirrors ??= selected(
      pod,
      r.clusterMirrors,
      r.namespacedMirrors.get(pod.namespace) ?? [],
      this.#mirrorSlots.byNamespace.get(pod.namespace) ?? 0,
    );
    return scope.mirrors;
  }

  /** A walk over one container's list for the mirror phase. */
  walk(candidates: Candidate[]): MirrorWalk {
    return new MirrorWalk(candidates, this.#hostIds, this.#mirrorHostIds, this.#mirrorAnswers);
  }
}

function selected<T extends CompiledMirrorSet | CompiledReplicatedSet>(
  pod: RoutingPodMeta,
  cluster: readonly T[],
  namespaced: readonly T[],
  namespacedSlot: number,
): Slotted<T>[] {
  const out: Slotted<T>[] = [];
  const consider = (cr: T, slot: number) => {
    if (cr.problem === undefined && (cr.podMatcher === undefined || cr.podMatcher(pod))) {
      out.push({ cr, slot });
    }
  };
  for (let i = 0; i < cluster.length; i++) consider(cluster[i] as T, i);
  for (let i = 0; i < namespaced.length; i++) consider(namespaced[i] as T, namespacedSlot + i);
  return out;
}

/**
 * The mirror phase's view of the list: every entry parsed once (in list
 * order, so the first invalid one fails the call as in kuik) and indexed by
 * registry, so a mirror set whose filter names its registries only looks at
 * those entries.
 */
export class MirrorWalk {
  #parsedCount = 0;
  /** The readings of this list so far, by image string. */
  readonly seen = new Map<string, NamedReference>();
  /** Entry indexes by registry id (only registries some mirror set names). */
  readonly #byHost: (number[] | undefined)[] = [];

  constructor(
    private readonly candidates: Candidate[],
    private readonly hostIds: ReadonlyMap<string, number>,
    private readonly mirrorHostIds: readonly (Int32Array | undefined)[],
    private readonly answers: Map<string, Int8Array>,
  ) {}

  /**
   * Step 9.2: the indexes of the entries of the list as it stands that the
   * mirror set in `slot` may match, in list order (undefined: all of them);
   * parses every entry not parsed yet.
   */
  entriesFor(slot: number): readonly number[] | undefined {
    const count = this.candidates.length;
    for (; this.#parsedCount < count; this.#parsedCount++) {
      const reference = parsedCandidate(this.candidates[this.#parsedCount] as Candidate, this.seen);
      const id = this.hostIds.get(reference.domain);
      if (id === undefined) continue;
      const bucket = this.#byHost[id];
      if (bucket) bucket.push(this.#parsedCount);
      else this.#byHost[id] = [this.#parsedCount];
    }
    const ids = this.mirrorHostIds[slot];
    return ids === undefined ? undefined : this.#indexesOn(ids);
  }

  #indexesOn(ids: Int32Array): readonly number[] {
    let found: readonly number[] | undefined;
    let merged: number[] | undefined;
    for (const id of ids) {
      const bucket = this.#byHost[id];
      if (bucket === undefined) continue;
      if (found === undefined) found = bucket;
      else {
        merged ??= [...found];
        merged.push(...bucket);
      }
    }
    return merged ? merged.sort((x, y) => x - y) : (found ?? noIndexes);
  }

  /** Step 9.3's test, memoised per candidate string and mirror set slot. */
  matches(candidate: Candidate, slot: number, filter: IncludeExcludeFilter): boolean {
    const normalized = parsedCandidate(candidate, this.seen).string;
    if (candidate.answers === undefined) {
      let answers = this.answers.get(normalized);
      if (answers === undefined) {
        if (this.answers.size >= MEMO_CAPACITY) this.answers.clear();
        answers = new Int8Array(this.mirrorHostIds.length);
        this.answers.set(normalized, answers);
      }
      candidate.answers = answers;
    }
    let answer = candidate.answers[slot];
    if (answer === 0) {
      answer = filter.match(normalized) ? 1 : 2;
      candidate.answers[slot] = answer;
    }
    return answer === 1;
  }
}

const memos = new WeakMap<CompiledRouting, RoutingMemo>();

/** Returns the memo of `routing`, creating it on first use. */
export function memoOf(routing: CompiledRouting): RoutingMemo {
  let memo = memos.get(routing);
  if (memo === undefined) {
    memo = new RoutingMemo(routing);
    memos.set(routing, memo);
  }
  return memo;
}
