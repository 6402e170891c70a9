/**
 * Where `createAvailabilityGate` keeps what it has learned: verdicts with a
 * TTL, one circuit breaker per registry, and a marker per image saying "a
 * probe is in flight" (single-flight probing). The port exists so that
 * several webhook replicas can share that state (`@kubeimg/redis`); the
 * in-memory implementation here is the default and keeps one process's view,
 * bounded in size whatever the traffic (a million distinct registry names
 * must not grow it without end).
 */
import type { Availability, SecretRef } from "./checker.js";

/** The state of one registry's circuit. */
export type CircuitState = "closed" | "open" | "half-open";

/** What one verdict is stored under: an image, the secret it was probed with, and its registry. */
export interface VerdictKey {
  readonly image: string;
  readonly credentialSecret: SecretRef | undefined;
  /** The registry the image belongs to (the breaker's key). */
  readonly registry: string;
  /**
   * The platforms the verdict is for, formatted (`linux/amd64,linux/arm64`);
   * absent for a platform-blind check. Part of the key: an image can be
   * available for one node pool and not for another.
   */
  readonly platforms?: string | undefined;
}

/** What {@link AvailabilityState.peekProbe} sees. */
export interface ProbePeek {
  readonly verdict: Availability | undefined;
  readonly claimed: boolean;
}

/** How failures open a circuit (see `AvailabilityGateOptions.circuitBreaker`). */
export interface BreakerPolicy {
  /** Consecutive retryable failures that open the circuit. */
  readonly failureThreshold: number;
  /** How long an open circuit skips the registry, in ms. */
  readonly coolDownMs: number;
}

/**
 * The state port of the availability gate. Every method may be slow or fail
 * (a network store): the gate bounds each call by the caller's signal and
 * treats a failure as "nothing known", so an implementation should fail
 * fast rather than retry. Implementations must enforce TTLs themselves
 * (an expired verdict, marker or open circuit is never returned) and must
 * ignore values they did not write.
 */
export interface AvailabilityState {
  /** Returns the stored verdict for `key` while its TTL runs, else undefined. */
  getVerdict(key: VerdictKey): Promise<Availability | undefined>;
  /** Stores `answer` for `ttlMs` milliseconds. */
  setVerdict(key: VerdictKey, answer: Availability, ttlMs: number): Promise<void>;
  /**
   * Takes the single-flight marker of `key` for `ttlMs` when nobody holds
   * it. Returns a token for {@link AvailabilityState.releaseProbe}, or
   * undefined when another prober holds it.
   */
  claimProbe(key: VerdictKey, ttlMs: number): Promise<string | undefined>;
  /** Drops the marker of `key` if it is still the one `token` names. */
  releaseProbe(key: VerdictKey, token: string): Promise<void>;
  /**
   * Optional: gives the marker of `key` a new `ttlMs` from now if it is
   * still the one `token` names; true when it was. The gate calls it while
   * its probe runs, so that a marker outlives a holder that is slow (a
   * stalled event loop, a queue for a probe slot) but alive, and waiters do
   * not probe a second time. Without it a marker lasts its first TTL.
   */
  refreshProbe?(key: VerdictKey, token: string, ttlMs: number): Promise<boolean>;
  /**
   * One look for a caller waiting on another prober: the verdict of `key`
   * if there is one now, and whether somebody still holds its marker.
   */
  peekProbe(key: VerdictKey): Promise<ProbePeek>;
  /** The circuit of `registry` now. */
  circuitState(registry: string): Promise<CircuitState>;
  /** Counts a retryable failure; opens the circuit for `coolDownMs` at `failureThreshold`. */
  recordFailure(registry: string, policy: BreakerPolicy): Promise<void>;
  /** Closes the circuit and forgets the failures. */
  recordSuccess(registry: string): Promise<void>;
  /**
   * Takes the one trial probe of a half-open circuit for `ttlMs`; true when
   * this caller got it.
   */
  claimTrial(registry: string, ttlMs: number): Promise<boolean>;
  /** Frees the trial of `registry` (its verdict was recorded, or it was aborted). */
  releaseTrial(registry: string): Promise<void>;
  /** Forgets every verdict, marker and circuit. */
  clear(): Promise<void>;
  /**
   * Optional: the verdict of `key` now, from this process's memory, without
   * waiting. A state that offers it and {@link AvailabilityState.circuitStateNow}
   * lets the gate answer cache hits and open circuits at once: no operation,
   * no promise chain, no listener on the caller's signal.
   */
  getVerdictNow?(key: VerdictKey): Availability | undefined;
  /** Optional: the circuit of `registry` now, from memory (see `getVerdictNow`). */
  circuitStateNow?(registry: string): CircuitState;
}

/** Options of {@link createMemoryAvailabilityState}. */
export interface MemoryAvailabilityStateOptions {
  /** Milliseconds on a monotonic clock (usually `timers.now`). */
  readonly now: () => number;
  /** Most verdicts kept; the least recently used go first (default 1000). */
  readonly maxVerdicts?: number;
  /** Most registries with a breaker record kept; the least recently used go first (default 1000). */
  readonly maxRegistries?: number;
  /** Most probe markers kept (default 10000). */
  readonly maxMarkers?: number;
}

/** Entry counts of a {@link MemoryAvailabilityState}, for tests and metrics.
 *
 * @inline
 */
export interface MemoryAvailabilityStateSizes {
  readonly verdicts: number;
  readonly breakers: number;
  readonly markers: number;
}

/** The in-memory {@link AvailabilityState}, with its entry counts. */
export interface MemoryAvailabilityState extends AvailabilityState {
  sizes(): MemoryAvailabilityStateSizes;
  refreshProbe(key: VerdictKey, token: string, ttlMs: number): Promise<boolean>;
  getVerdictNow(key: VerdictKey): Availability | undefined;
  circuitStateNow(registry: string): CircuitState;
}

interface Expiring<V> {
  readonly value: V;
  readonly expiresAt: number;
}

/**
 * A map whose entries expire and whose size is capped: an expired entry is
 * never returned, and inserting past the cap drops the least recently used.
 */
class BoundedExpiringMap<V> {
  private readonly entries = new Map<string, Expiring<V>>();

  constructor(
    private readonly now: () => number,
    private readonly max: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    if (ttlMs <= 0 || this.max <= 0) return;
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

interface BreakerRecord {
  readonly failures: number;
  readonly openUntil: number | undefined;
}

/** A breaker record outlives its cool-down by this factor before it is forgotten. */
const BREAKER_MEMORY_FACTOR = 10;

/** The one key string of a verdict: image, then the secret when there is one. */
export function verdictKeyString(key: VerdictKey): string {
  const secret = key.credentialSecret;
  const base = secret ? `${key.image}\u0000${secret.namespace}/${secret.name}` : key.image;
  return key.platforms === undefined ? base : `${base}\u0000platforms=${key.platforms}`;
}

/**
 * Returns the in-memory {@link AvailabilityState}: one process's view,
 * bounded by entry counts and by expiry. A breaker record is kept for ten
 * cool-downs after its last failure (then the registry is "closed" again,
 * costing at most one more probe); a success deletes it, so registries that
 * answer never take room.
 *
 * @example
 * ```ts
 * import {
 *   type AvailabilityChecker,
 *   createAvailabilityGate,
 *   createMemoryAvailabilityState,
 * } from "@kubeimg/policy/availability";
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * let probes = 0;
 * // Stands in for createAvailabilityChecker (@kubeimg/registry).
 * const checker: AvailabilityChecker = { check: async () => (probes++, { available: true }) };
 * const timers = { now: () => performance.now(), setTimeout, clearTimeout };
 * const state = createMemoryAvailabilityState({ now: timers.now, maxVerdicts: 5000 });
 * const gate = createAvailabilityGate(checker, { timers, state });
 * for (let i = 0; i < 2; i++) await gate.check(parseNormalizedNamed("nginx:1.25"), undefined, {});
 * console.log(probes); // 1: the second answer is the verdict kept in `state`
 * ```
 */
export function createMemoryAvailabilityState(
  options: MemoryAvailabilityStateOptions,
): MemoryAvailabilityState {
  const { now } = options;
  const verdicts = new BoundedExpiringMap<Availability>(now, options.maxVerdicts ?? 1000);
  const breakers = new BoundedExpiringMap<BreakerRecord>(now, options.maxRegistries ?? 1000);
  const markers = new BoundedExpiringMap<string>(now, options.maxMarkers ?? 10_000);
  let nextToken = 1;
  const trialKey = (registry: string) => `trial\u0000${registry}`;
  const probeKey = (key: VerdictKey) => `probe\u0000${verdictKeyString(key)}`;
  const stateOf = (record: BreakerRecord | undefined): CircuitState => {
    if (!record || record.openUntil === undefined) return "closed";
    return now() < record.openUntil ? "open" : "half-open";
  };

  return {
    getVerdict: async (key) => verdicts.get(verdictKeyString(key)),
    setVerdict: async (key, answer, ttlMs) => verdicts.set(verdictKeyString(key), answer, ttlMs),
    async claimProbe(key, ttlMs) {
      const k = probeKey(key);
      if (markers.get(k) !== undefined) return undefined;
      const token = String(nextToken++);
      markers.set(k, token, ttlMs);
      return token;
    },
    async releaseProbe(key, token) {
      const k = probeKey(key);
      if (markers.get(k) === token) markers.delete(k);
    },
    async refreshProbe(key, token, ttlMs) {
      const k = probeKey(key);
      if (markers.get(k) !== token) return false;
      markers.set(k, token, ttlMs);
      return true;
    },
    peekProbe: async (key) => ({
      verdict: verdicts.get(verdictKeyString(key)),
      claimed: markers.get(probeKey(key)) !== undefined,
    }),
    circuitState: async (registry) => stateOf(breakers.get(registry)),
    async recordFailure(registry, { failureThreshold, coolDownMs }) {
      const previous = breakers.get(registry);
      const failures = (previous?.failures ?? 0) + 1;
      const openUntil = failures >= failureThreshold ? now() + coolDownMs : previous?.openUntil;
      breakers.set(
        registry,
        { failures, openUntil },
        Math.max(coolDownMs, 1) * BREAKER_MEMORY_FACTOR,
      );
    },
    async recordSuccess(registry) {
      breakers.delete(registry);
    },
    async claimTrial(registry, ttlMs) {
      const k = trialKey(registry);
      if (markers.get(k) !== undefined) return false;
      markers.set(k, "trial", ttlMs);
      return true;
    },
    async releaseTrial(registry) {
      markers.delete(trialKey(registry));
    },
    async clear() {
      verdicts.clear();
      breakers.clear();
      markers.clear();
    },
    sizes: () => ({ verdicts: verdicts.size, breakers: breakers.size, markers: markers.size }),
    getVerdictNow: (key) => verdicts.get(verdictKeyString(key)),
    circuitStateNow: (registry) => stateOf(breakers.get(registry)),
  };
}
