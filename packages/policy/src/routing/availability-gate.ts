/**
 * A decorator around an {@link AvailabilityChecker} for admission webhooks:
 * per-probe timeout, coalescing of concurrent probes of the same image, a
 * TTL cache (negative answers kept shorter), and a per-registry circuit
 * breaker that skips a registry for a cool-down after it timed out or
 * refused, instead of paying the timeout on every admission.
 */
import type {
  Availability,
  AvailabilityChecker,
  CredentialSecretRef,
  RoutingTimers,
} from "./availability.js";

/** Options of {@link createAvailabilityGate}. */
export interface AvailabilityGateOptions<Handle> {
  /** Clock and timers. */
  readonly timers: RoutingTimers<Handle>;
  /** A probe that has not answered after this long counts as unavailable (default 1000, kuik's `routing.activeCheck.timeout`). */
  readonly probeTimeoutMs?: number;
  /** How long an "available" answer is reused (default 5000). */
  readonly positiveTtlMs?: number;
  /** How long an "unavailable" answer is reused (default 1000, kuik's own cache TTL). */
  readonly negativeTtlMs?: number;
  /** Most answers kept; the oldest go first (default 1000). */
  readonly maxEntries?: number;
  /** Per-registry circuit breaker; `false` turns it off. */
  readonly circuitBreaker?:
    | false
    | {
        /** Consecutive retryable failures (timeouts, refusals) that open the circuit (default 1). */
        readonly failureThreshold?: number;
        /** How long an open circuit skips the registry (default 30000). */
        readonly coolDownMs?: number;
      };
  /** The registry an image belongs to (default: the text before its first `/`). */
  readonly registryOf?: (image: string) => string;
}

/** Counters for observability and tests. */
export interface AvailabilityGateStats {
  /** Probes actually sent to the wrapped checker. */
  readonly probes: number;
  /** Answers served from the cache. */
  readonly cacheHits: number;
  /** Calls that joined a probe already in flight. */
  readonly coalesced: number;
  /** Calls answered "unavailable" at once because the registry's circuit was open. */
  readonly shortCircuited: number;
  /** Probes that hit the probe timeout. */
  readonly timeouts: number;
}

/** The state of one registry's circuit. */
export type CircuitState = "closed" | "open" | "half-open";

/** An {@link AvailabilityChecker} with caching, coalescing and circuit breaking. */
export interface AvailabilityGate extends AvailabilityChecker {
  stats(): AvailabilityGateStats;
  /** The circuit state of a registry now. */
  circuitState(registry: string): CircuitState;
  /** Forgets cached answers and circuit states (probes in flight continue). */
  clear(): void;
}

interface CacheEntry {
  readonly answer: Availability;
  readonly expiresAt: number;
}

interface Breaker {
  failures: number;
  openUntil: number | undefined;
  trialInFlight: boolean;
}

interface SharedProbe {
  readonly promise: Promise<Availability | undefined>;
  subscribers: number;
  readonly controller: AbortController;
}

const abortedAnswer: Availability = Object.freeze({
  available: false,
  reason: "aborted",
  retryable: true,
});

function defaultRegistryOf(image: string): string {
  const slash = image.indexOf("/");
  return slash === -1 ? image : image.slice(0, slash);
}

function keyOf(image: string, secret: CredentialSecretRef | undefined): string {
  return secret ? `${image}\u0000${secret.namespace}/${secret.name}` : image;
}

/**
 * Returns `checker` wrapped for admission traffic:
 * - each probe gets `probeTimeoutMs`, after which it is aborted and counts as
 *   unavailable (retryable), even if the wrapped checker ignores its signal;
 * - concurrent calls for the same image and secret share one probe (a
 *   100-replica rollout sends one probe per alternative); the shared probe is
 *   aborted only when every caller has aborted;
 * - answers are cached: available for `positiveTtlMs`, unavailable for the
 *   shorter `negativeTtlMs`; aborted probes are not cached;
 * - after `failureThreshold` consecutive retryable failures of a registry, its
 *   circuit opens: calls for any image there answer "unavailable" at once for
 *   `coolDownMs`, then one trial probe decides (success closes, failure
 *   re-opens). Definite answers (404, 401) do not count: the registry is up.
 *
 * @example
 * ```ts
 * const gate = createAvailabilityGate(registryChecker, { timers, probeTimeoutMs: 1000 });
 * const { winner } = await resolveFirstAvailable(route.alternatives, gate, { timers, deadlineMs: 8000 });
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
  const maxEntries = options.maxEntries ?? 1000;
  const breakerOptions =
    options.circuitBreaker === false ? undefined : (options.circuitBreaker ?? {});
  const failureThreshold = breakerOptions?.failureThreshold ?? 1;
  const coolDownMs = breakerOptions?.coolDownMs ?? 30_000;
  const registryOf = options.registryOf ?? defaultRegistryOf;

  const cache = new Map<string, CacheEntry>();
  const inFlight = new Map<string, SharedProbe>();
  const breakers = new Map<string, Breaker>();
  const counters = { probes: 0, cacheHits: 0, coalesced: 0, shortCircuited: 0, timeouts: 0 };

  const breakerOf = (registry: string): Breaker => {
    let b = breakers.get(registry);
    if (!b) {
      b = { failures: 0, openUntil: undefined, trialInFlight: false };
      breakers.set(registry, b);
    }
    return b;
  };

  const stateOf = (b: Breaker | undefined): CircuitState => {
    if (!b || b.openUntil === undefined) return "closed";
    return timers.now() < b.openUntil ? "open" : "half-open";
  };

  const remember = (key: string, answer: Availability): void => {
    const ttl = answer.available ? positiveTtlMs : negativeTtlMs;
    if (ttl <= 0) return;
    cache.delete(key);
    cache.set(key, { answer, expiresAt: timers.now() + ttl });
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  };

  const record = (registry: string, answer: Availability, trial: boolean): void => {
    if (!breakerOptions) return;
    const b = breakerOf(registry);
    if (trial) b.trialInFlight = false;
    if (!answer.available && answer.retryable) {
      b.failures++;
      if (b.failures >= failureThreshold) b.openUntil = timers.now() + coolDownMs;
    } else {
      b.failures = 0;
      b.openUntil = undefined;
    }
  };

  const startProbe = (
    key: string,
    image: string,
    secret: CredentialSecretRef | undefined,
    registry: string,
    trial: boolean,
  ): SharedProbe => {
    const controller = new AbortController();
    counters.probes++;
    const promise = new Promise<Availability | undefined>((resolve) => {
      let settled = false;
      const done = (answer: Availability | undefined): void => {
        if (settled) return;
        settled = true;
        timers.clearTimeout(timer);
        controller.signal.removeEventListener("abort", onAbort);
        inFlight.delete(key);
        if (answer === undefined) {
          if (trial && breakerOptions) breakerOf(registry).trialInFlight = false;
        } else {
          record(registry, answer, trial);
          remember(key, answer);
        }
        resolve(answer);
      };
      const onAbort = (): void => done(undefined);
      const timer = timers.setTimeout(() => {
        counters.timeouts++;
        done({ available: false, reason: `timed out after ${probeTimeoutMs} ms`, retryable: true });
        controller.abort(new Error("probe timeout"));
      }, probeTimeoutMs);
      controller.signal.addEventListener("abort", onAbort, { once: true });
      let pending: Promise<Availability>;
      try {
        pending = checker.check(image, secret, { signal: controller.signal });
      } catch (e) {
        pending = Promise.reject(e);
      }
      Promise.resolve(pending).then(
        (answer) => done(controller.signal.aborted ? undefined : answer),
        (e: unknown) =>
          done(
            controller.signal.aborted
              ? undefined
              : {
                  available: false,
                  reason: e instanceof Error ? e.message : String(e),
                  retryable: true,
                },
          ),
      );
    });
    return { promise, subscribers: 0, controller };
  };

  const subscribe = (
    shared: SharedProbe,
    signal: AbortSignal | undefined,
  ): Promise<Availability> => {
    shared.subscribers++;
    return new Promise<Availability>((resolve) => {
      let left = false;
      const onAbort = (): void => {
        if (left) return;
        left = true;
        shared.subscribers--;
        if (shared.subscribers === 0) shared.controller.abort(new Error("every caller aborted"));
        resolve(abortedAnswer);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      shared.promise.then((answer) => {
        if (left) return;
        left = true;
        signal?.removeEventListener("abort", onAbort);
        resolve(answer ?? abortedAnswer);
      });
    });
  };

  return {
    check(image, credentialSecret, { signal } = {}) {
      if (signal?.aborted) return Promise.resolve(abortedAnswer);
      const key = keyOf(image, credentialSecret);
      const cached = cache.get(key);
      if (cached) {
        if (timers.now() < cached.expiresAt) {
          counters.cacheHits++;
          return Promise.resolve(cached.answer);
        }
        cache.delete(key);
      }
      const shared = inFlight.get(key);
      if (shared) {
        counters.coalesced++;
        return subscribe(shared, signal);
      }
      const registry = registryOf(image);
      let trial = false;
      if (breakerOptions) {
        const b = breakers.get(registry);
        const state = stateOf(b);
        if (state === "open" || (state === "half-open" && b?.trialInFlight)) {
          counters.shortCircuited++;
          return Promise.resolve({
            available: false,
            reason: `circuit open for registry ${registry}`,
            retryable: true,
          });
        }
        if (state === "half-open" && b) {
          b.trialInFlight = true;
          trial = true;
        }
      }
      const probe = startProbe(key, image, credentialSecret, registry, trial);
      inFlight.set(key, probe);
      return subscribe(probe, signal);
    },
    stats: () => ({ ...counters }),
    circuitState: (registry) => stateOf(breakers.get(registry)),
    clear() {
      cache.clear();
      breakers.clear();
    },
  };
}
