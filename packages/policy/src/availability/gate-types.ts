/**
 * What `createAvailabilityGate` takes and gives: its options, its counters,
 * and the gate itself, a checker that also knows what it has learned.
 */
import type { NamedReference } from "@kubeimg/core/reference";
import type { AvailabilityChecker, PeekingAvailabilityChecker, RoutingTimers } from "./checker.js";
import type { AvailabilityState, CircuitState } from "./state.js";

/** Options of `createAvailabilityGate`. */
export interface AvailabilityGateOptions<Handle> {
  /** Clock and timers. */
  readonly timers: RoutingTimers<Handle>;
  /** A probe that has not answered after this long counts as unavailable (default 1000, kuik's `routing.activeCheck.timeout`). */
  readonly probeTimeoutMs?: number;
  /** How long an "available" answer is reused (default 5000). */
  readonly positiveTtlMs?: number;
  /** How long an "unavailable" answer is reused (default 1000, kuik's own cache TTL). */
  readonly negativeTtlMs?: number;
  /** Most answers kept by the default in-memory state; the least recently used go first (default 1000). */
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
  /** The registry an image belongs to, the circuit breaker's key (default: its `domain`). */
  readonly registryOf?: (image: NamedReference) => string;
  /**
   * Where verdicts, breakers and probe markers live (default: this
   * process's memory, `createMemoryAvailabilityState`, bounded by
   * `maxEntries` verdicts and 1000 registries).
   */
  readonly state?: AvailabilityState;
  /** Most probes in flight at once, over all callers (default 256). */
  readonly maxConcurrentProbes?: number;
  /**
   * Most probes in flight at once to one registry (default 64): a registry
   * that hangs holds at most this many of the `maxConcurrentProbes` slots.
   */
  readonly maxProbesPerRegistry?: number;
  /**
   * Most probes waiting for a free slot (default 1024); past it a probe
   * answers "unavailable" (retryable) at once, without a verdict.
   */
  readonly maxQueuedProbes?: number;
  /**
   * How long a caller waits for another prober's verdict (another replica
   * holds the image's marker) before probing itself (default
   * twice `probeTimeoutMs` + 250). The caller's own signal ends the wait sooner.
   */
  readonly peerWaitMs?: number;
  /** How often a waiting caller looks for the other prober's verdict (default 25). */
  readonly peerPollMs?: number;
}

/** Counters for observability and tests.
 *
 * @inline
 */
export interface AvailabilityGateStats {
  /** Probes actually sent to the wrapped checker. */
  readonly probes: number;
  /** Answers served from the state (this process's or another replica's earlier probe). */
  readonly cacheHits: number;
  /** Calls that joined a probe already in flight in this process. */
  readonly coalesced: number;
  /** Calls answered "unavailable" at once because the registry's circuit was open. */
  readonly shortCircuited: number;
  /** Probes that hit the probe timeout. */
  readonly timeouts: number;
  /** Calls that found another prober's marker and waited for its verdict. */
  readonly peerWaits: number;
  /** Answers that came from another prober's verdict while waiting. */
  readonly peerVerdicts: number;
  /** Probes refused because `maxQueuedProbes` were already waiting. */
  readonly queueFull: number;
  /** Calls to the state that failed or were cut short (answered as "nothing known"). */
  readonly stateErrors: number;
  /** Operations in flight now (each may serve several coalesced callers). */
  readonly inFlight: number;
  /** Probes running now. */
  readonly activeProbes: number;
  /** Probes waiting for a slot now. */
  readonly queuedProbes: number;
}

/** An {@link AvailabilityChecker} with caching, coalescing and circuit breaking. */
export interface AvailabilityGate extends PeekingAvailabilityChecker {
  stats(): AvailabilityGateStats;
  /** The circuit state of a registry now. */
  circuitState(registry: string): Promise<CircuitState>;
  /** Forgets cached answers, markers and circuit states (probes in flight continue). */
  clear(): Promise<void>;
}
