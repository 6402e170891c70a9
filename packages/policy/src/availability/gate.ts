/**
 * A decorator around an {@link AvailabilityChecker} for admission webhooks:
 * per-probe timeout, coalescing of concurrent probes of the same image, a
 * TTL cache (negative answers kept shorter), a per-registry circuit breaker
 * that skips a registry for a cool-down after it timed out or refused,
 * instead of paying the timeout on every admission, and a cap on probes in
 * flight so that one huge Pod cannot open ten thousand connections.
 *
 * What the gate learns lives in an {@link AvailabilityState}: one process's
 * memory by default, or a store shared by every replica of a webhook
 * (`@kubeimg/redis`), in which case one replica probes an image and the
 * others wait for its verdict instead of each paying the probe timeout.
 * Every call to the state is bounded by the caller's signal and a failing
 * state counts as "nothing known": the state can cost probes, never answers.
 */
import type { PlatformInput } from "@kubeimg/core/platform";
import type { NamedReference } from "@kubeimg/core/reference";
import type { Availability, AvailabilityChecker, SecretRef } from "./checker.js";
import type { AvailabilityGate, AvailabilityGateOptions } from "./gate-types.js";
import {
  attempt,
  defaultRegistryOf,
  type GateKey,
  LOCAL_TOKEN,
  messageOf,
  platformsKey,
  probeOnce,
} from "./probe.js";
import { createProbeSlots } from "./slots.js";
import {
  type CircuitState,
  createMemoryAvailabilityState,
  type VerdictKey,
  verdictKeyString,
} from "./state.js";
import { turnBudget } from "./turns.js";

export type {
  AvailabilityGate,
  AvailabilityGateOptions,
  AvailabilityGateStats,
} from "./gate-types.js";
export type { CircuitState } from "./state.js";

interface Operation {
  readonly promise: Promise<Availability | undefined>;
  subscribers: number;
  readonly controller: AbortController;
}

const abortedAnswer: Availability = Object.freeze({
  available: false,
  reason: "aborted",
  retryable: true,
});

/**
 * Returns `checker` wrapped for admission traffic:
 * - each probe gets `probeTimeoutMs`, after which it is aborted and counts as
 *   unavailable (retryable), even if the wrapped checker ignores its signal;
 * - concurrent calls for the same image and secret share one probe (a
 *   100-replica rollout sends one probe per alternative); the shared probe is
 *   aborted only when every caller has aborted; with a shared `state`,
 *   replicas share it too: the one holding the image's marker probes, the
 *   others wait for its verdict up to `peerWaitMs` or their own signal;
 * - answers are cached: available for `positiveTtlMs`, unavailable for the
 *   shorter `negativeTtlMs`; aborted probes are not cached;
 * - after `failureThreshold` consecutive retryable failures of a registry, its
 *   circuit opens: calls for any image there answer "unavailable" at once for
 *   `coolDownMs`, then one trial probe decides (success closes, failure
 *   re-opens). Definite answers (404, 401) do not count: the registry is up;
 * - at most `maxConcurrentProbes` probes run at once; up to
 *   `maxQueuedProbes` more wait for a slot (while their callers wait), and
 *   any beyond answer "unavailable" (retryable, not cached) at once.
 *
 * The returned promises never reject.
 *
 * @example
 * ```ts
 * import {
 *   type AvailabilityChecker,
 *   createAvailabilityGate,
 *   resolveFirstAvailable,
 * } from "@kubeimg/policy/availability";
 *
 * let probes = 0;
 * // Stands in for createAvailabilityChecker (@kubeimg/registry).
 * const registryChecker: AvailabilityChecker = {
 *   check: async () => (probes++, { available: true }),
 * };
 * const timers = { now: () => performance.now(), setTimeout, clearTimeout };
 * const gate = createAvailabilityGate(registryChecker, { timers, probeTimeoutMs: 1000 });
 * const alternatives = [
 *   { image: "harbor.example.com/mirror/library/nginx:1.25" },
 *   { image: "nginx:1.25" },
 * ];
 * const admit = () => resolveFirstAvailable(alternatives, gate, { timers, deadlineMs: 8000 });
 * await Promise.all([admit(), admit(), admit()]);
 * console.log(probes); // 2: one per alternative, shared by the three admissions
 * ```
 */
export function createAvailabilityGate<Handle>(
  checker: AvailabilityChecker,
  options: AvailabilityGateOptions<Handle>,
): AvailabilityGate {
  const { timers } = options;
  const probeTimeoutMs = options.probeTimeoutMs ?? 1000;
  const positiveTtlMs = options.positiveTtlMs ?? 5000;
  const negativeTtlMs = options.negativeTtlMs ?? 1000;
  const breakerOptions =
    options.circuitBreaker === false ? undefined : (options.circuitBreaker ?? {});
  const breakerPolicy = {
    failureThreshold: breakerOptions?.failureThreshold ?? 1,
    coolDownMs: breakerOptions?.coolDownMs ?? 30_000,
  };
  const registryOf = options.registryOf ?? defaultRegistryOf;
  const state =
    options.state ??
    createMemoryAvailabilityState({
      now: () => timers.now(),
      maxVerdicts: options.maxEntries ?? 1000,
    });
  const maxConcurrentProbes = Math.max(1, options.maxConcurrentProbes ?? 256);
  const maxProbesPerRegistry = Math.max(1, options.maxProbesPerRegistry ?? 64);
  const maxQueuedProbes = Math.max(0, options.maxQueuedProbes ?? 1024);
  const peerWaitMs = options.peerWaitMs ?? 2 * probeTimeoutMs + 250;
  const peerPollMs = Math.max(1, options.peerPollMs ?? 25);
  // A marker outlives the probe it guards by a little: a holder that died
  // frees it about when its probe would have timed out. A live holder
  // extends it several times per lifetime, so that only a stall of most of
  // a lifetime (not a busy event loop's usual lateness) lets it lapse.
  const markerTtlMs = probeTimeoutMs + 250;
  const markerRefreshMs = Math.max(1, markerTtlMs / 5);
  const refreshProbe = state.refreshProbe?.bind(state);

  const inFlight = new Map<string, Operation>();
  const counters = {
    probes: 0,
    cacheHits: 0,
    coalesced: 0,
    shortCircuited: 0,
    timeouts: 0,
    peerWaits: 0,
    peerVerdicts: 0,
    queueFull: 0,
    stateErrors: 0,
  };

  const slots = createProbeSlots({ maxConcurrentProbes, maxProbesPerRegistry, maxQueuedProbes });
  const budget = turnBudget(timers);

  /**
   * Resolves with what the state answers, or with `fallback` when it fails
   * or `signal` aborts first. The state's promise is always observed.
   */
  const ask = <T>(work: () => Promise<T>, signal: AbortSignal, fallback: T): Promise<T> =>
    new Promise<T>((resolve) => {
      let done = false;
      const finish = (value: T): void => {
        if (done) return;
        done = true;
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const onAbort = (): void => finish(fallback);
      attempt(work).then(finish, () => {
        counters.stateErrors++;
        finish(fallback);
      });
      if (signal.aborted) finish(fallback);
      else if (!done) signal.addEventListener("abort", onAbort, { once: true });
    });

  /** Fire-and-forget a state write whose failure only costs sharing. */
  const forget = (work: () => Promise<void>): void => {
    attempt(work).then(undefined, () => {
      counters.stateErrors++;
    });
  };

  /** Waits `ms` or until `signal` aborts. */
  const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const onAbort = (): void => {
        timers.clearTimeout(handle);
        resolve();
      };
      const handle = timers.setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });

  const shortCircuit = (registry: string): Availability => {
    counters.shortCircuited++;
    return { available: false, reason: `circuit open for registry ${registry}`, retryable: true };
  };

  /** Probes under a slot, then records the verdict and the breaker outcome. */
  const probeAndRecord = async (
    key: GateKey,
    signal: AbortSignal,
    trial = false,
  ): Promise<Availability | undefined> => {
    const slot = await slots.acquire(key.registry, signal);
    if (slot === "aborted") return undefined;
    if (slot === "waited" && breakerOptions && !trial) {
      // The circuit may have opened while this probe waited for a slot.
      const circuit = await ask(() => state.circuitState(key.registry), signal, "closed");
      if (circuit !== "closed" || signal.aborted) {
        slots.release(key.registry);
        return signal.aborted ? undefined : shortCircuit(key.registry);
      }
    }
    if (slot === "full") {
      counters.queueFull++;
      return {
        available: false,
        reason: `too many probes in flight (${maxConcurrentProbes} running, ${maxQueuedProbes} waiting)`,
        retryable: true,
      };
    }
    let answer: Availability | undefined;
    try {
      answer = await probeOnce(checker, key, signal, {
        timers,
        probeTimeoutMs,
        onProbe: () => counters.probes++,
        onTimeout: () => counters.timeouts++,
        start: (work) => budget.defer(work),
      });
    } finally {
      slots.release(key.registry);
    }
    if (answer === undefined) return undefined;
    // Record even when every caller has gone: the verdict is still true. The
    // writes are bounded by the state itself, not by the callers' signals,
    // and they land before the marker is released so waiters find them.
    const never = new AbortController().signal;
    if (breakerOptions) {
      if (!answer.available && answer.retryable) {
        await ask(() => state.recordFailure(key.registry, breakerPolicy), never, undefined);
      } else {
        await ask(() => state.recordSuccess(key.registry), never, undefined);
      }
    }
    const ttl = answer.available ? positiveTtlMs : negativeTtlMs;
    if (ttl > 0) await ask(() => state.setVerdict(key, answer, ttl), never, undefined);
    return answer;
  };

  /**
   * Extends the marker `token` names every `markerRefreshMs` until the
   * returned function stops it. Each refresh is scheduled after the previous
   * one answered, so a slow state never piles them up.
   */
  const keepMarker = (key: VerdictKey, token: string): (() => void) => {
    if (!refreshProbe || token === LOCAL_TOKEN) return () => {};
    let stopped = false;
    let handle: Handle | undefined;
    const schedule = (): void => {
      handle = timers.setTimeout(() => {
        handle = undefined;
        if (stopped) return;
        attempt(() => refreshProbe(key, token, markerTtlMs)).then(
          (held) => {
            if (held && !stopped) schedule();
          },
          () => {
            counters.stateErrors++;
            if (!stopped) schedule();
          },
        );
      }, markerRefreshMs);
    };
    schedule();
    return () => {
      stopped = true;
      if (handle !== undefined) timers.clearTimeout(handle);
    };
  };

  /** Waits for the holder of the marker: its verdict, its release, or the end of our patience. */
  const waitForPeer = async (
    key: VerdictKey,
    signal: AbortSignal,
    until: number,
  ): Promise<Availability | "released" | "expired" | undefined> => {
    for (;;) {
      const left = until - timers.now();
      if (left <= 0) return "expired";
      await sleep(Math.min(peerPollMs, left), signal);
      if (signal.aborted) return undefined;
      const peek = await ask(() => state.peekProbe(key), signal, undefined);
      if (signal.aborted) return undefined;
      if (peek === undefined) return "expired"; // the state failed: stop relying on it
      if (peek.verdict) return peek.verdict;
      if (!peek.claimed) return "released";
    }
  };

  /** The whole decision for one key; undefined when `signal` aborted it. */
  const decide = async (key: GateKey, signal: AbortSignal): Promise<Availability | undefined> => {
    const known = await ask(() => state.getVerdict(key), signal, undefined);
    if (signal.aborted) return undefined;
    if (known) {
      counters.cacheHits++;
      return known;
    }
    if (breakerOptions) {
      const circuit = await ask(() => state.circuitState(key.registry), signal, "closed");
      if (signal.aborted) return undefined;
      if (circuit === "open") return shortCircuit(key.registry);
      if (circuit === "half-open") {
        const trial = await ask(() => state.claimTrial(key.registry, markerTtlMs), signal, true);
        if (signal.aborted) return undefined;
        if (!trial) return shortCircuit(key.registry);
        try {
          return await probeAndRecord(key, signal, true);
        } finally {
          forget(() => state.releaseTrial(key.registry));
        }
      }
    }
    let until = timers.now() + peerWaitMs;
    let waited = false;
    let released = false;
    for (;;) {
      const token = await ask(() => state.claimProbe(key, markerTtlMs), signal, LOCAL_TOKEN);
      if (signal.aborted) return undefined;
      if (token !== undefined) {
        const stopKeeping = keepMarker(key, token);
        try {
          if (released) {
            // The marker lapsed without a verdict: a slow holder may have
            // recorded one since we looked.
            const late = await ask(() => state.getVerdict(key), signal, undefined);
            if (signal.aborted) return undefined;
            if (late) {
              counters.peerVerdicts++;
              return late;
            }
          }
          return await probeAndRecord(key, signal);
        } finally {
          stopKeeping();
          if (token !== LOCAL_TOKEN) forget(() => state.releaseProbe(key, token));
        }
      }
      if (!waited) {
        waited = true;
        counters.peerWaits++;
      }
      // A new holder took over a released marker: it gets a full wait too.
      if (released) until = timers.now() + peerWaitMs;
      const outcome = await waitForPeer(key, signal, until);
      if (outcome === undefined) return undefined;
      if (outcome === "expired") return probeAndRecord(key, signal);
      if (outcome !== "released") {
        counters.peerVerdicts++;
        return outcome;
      }
      // Released without a verdict (the holder was aborted or died): try to take it.
      released = true;
    }
  };

  const getVerdictNow = state.getVerdictNow?.bind(state);
  const circuitStateNow = state.circuitStateNow?.bind(state);
  /**
   * What the state knows now, without waiting (a state kept in memory): a
   * verdict, or an open circuit. Mirrors the first steps of `decide`.
   */
  const known = (key: GateKey): Availability | undefined => {
    if (!getVerdictNow || !circuitStateNow) return undefined;
    const verdict = getVerdictNow(key);
    if (verdict) {
      counters.cacheHits++;
      return verdict;
    }
    if (breakerOptions && circuitStateNow(key.registry) === "open")
      return shortCircuit(key.registry);
    return undefined;
  };

  const keyOf = (
    image: NamedReference,
    credentialSecret: SecretRef | undefined,
    platforms: readonly PlatformInput[] | undefined,
  ): GateKey => ({
    image: image.string,
    reference: image,
    credentialSecret,
    registry: registryOf(image),
    ...(platforms === undefined
      ? {}
      : { platforms: platformsKey(platforms), platformList: platforms }),
  });

  const subscribe = (op: Operation, signal: AbortSignal | undefined): Promise<Availability> => {
    op.subscribers++;
    return new Promise<Availability>((resolve) => {
      let left = false;
      const onAbort = (): void => {
        if (left) return;
        left = true;
        op.subscribers--;
        if (op.subscribers === 0) op.controller.abort(new Error("every caller aborted"));
        resolve(abortedAnswer);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // Thousands of callers may wait on one probe: they are answered a
      // turn's worth at a time, so that what each does next cannot hold
      // the event loop for all of them at once.
      op.promise.then((answer) =>
        budget.defer(() => {
          if (left) return;
          left = true;
          signal?.removeEventListener("abort", onAbort);
          resolve(answer ?? abortedAnswer);
        }),
      );
    });
  };

  return {
    peek: (image, credentialSecret, { platforms } = {}) =>
      known(keyOf(image, credentialSecret, platforms)),
    check(image, credentialSecret, { signal, platforms } = {}) {
      if (signal?.aborted) return Promise.resolve(abortedAnswer);
      const key = keyOf(image, credentialSecret, platforms);
      const answer = known(key);
      if (answer) return Promise.resolve(answer);
      const id = verdictKeyString(key);
      const existing = inFlight.get(id);
      if (existing) {
        counters.coalesced++;
        return subscribe(existing, signal);
      }
      const controller = new AbortController();
      const op: Operation = {
        controller,
        subscribers: 0,
        promise: decide(key, controller.signal).then(
          (answer) => {
            if (inFlight.get(id) === op) inFlight.delete(id);
            return answer;
          },
          (e: unknown): Availability => {
            if (inFlight.get(id) === op) inFlight.delete(id);
            return { available: false, reason: messageOf(e), retryable: true };
          },
        ),
      };
      inFlight.set(id, op);
      return subscribe(op, signal);
    },
    stats: () => ({
      ...counters,
      inFlight: inFlight.size,
      activeProbes: slots.active,
      queuedProbes: slots.queued,
    }),
    circuitState: (registry) =>
      attempt(() => state.circuitState(registry)).then(undefined, (): CircuitState => "closed"),
    clear: () => attempt(() => state.clear()).then(undefined, () => {}),
  };
}
