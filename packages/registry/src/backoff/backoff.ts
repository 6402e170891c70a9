/**
 * Back-off for callers that poll a failing repository. The default is the
 * kubelet's ImagePullBackOff shape: 10 s, doubling per failure, capped at
 * 300 s. Jitter is an option; randomness and time are injected.
 */

/** Options of {@link createBackoffSchedule}. */
export interface BackoffOptions {
  /** Delay after the first failure, ms. Default 10 000 (kubelet `backOffPeriod`). */
  readonly initialMs?: number;
  /** Largest delay, ms. Default 300 000 (kubelet `MaxContainerBackOff`). */
  readonly maxMs?: number;
  /** Growth per failure. Default 2. */
  readonly factor?: number;
  /** Fraction of the delay added at random, 0–1 (0.1 → up to +10 %). Default 0. */
  readonly jitter?: number;
  /** Source of randomness in [0, 1), used only with jitter. Default `Math.random`. */
  readonly random?: () => number;
}

/** A back-off schedule: the delay to wait after a number of consecutive failures. */
export interface BackoffSchedule {
  /** Returns the delay in ms after `failures` consecutive failures (1 = the first failure). */
  delayMs(failures: number): number;
}

/**
 * Returns a back-off schedule.
 *
 * @example
 * ```ts
 * const schedule = createBackoffSchedule();
 * [1, 2, 3, 6, 10].map((n) => schedule.delayMs(n)); // [10000, 20000, 40000, 300000, 300000]
 * ```
 */
export function createBackoffSchedule(options: BackoffOptions = {}): BackoffSchedule {
  const initial = options.initialMs ?? 10_000;
  const max = options.maxMs ?? 300_000;
  const factor = options.factor ?? 2;
  const jitter = options.jitter ?? 0;
  const random = options.random ?? Math.random;
  if (!(initial >= 0 && max >= initial && factor >= 1 && jitter >= 0 && jitter <= 1)) {
    throw new RangeError(
      "back-off needs 0 <= initialMs <= maxMs, factor >= 1 and jitter within [0, 1]",
    );
  }
  return {
    delayMs(failures) {
      if (failures <= 0) return 0;
      const base = Math.min(max, initial * factor ** Math.min(failures - 1, 64));
      return jitter > 0 ? base + Math.floor(base * jitter * random()) : base;
    },
  };
}

/** Per-key back-off state with an injected clock (like the kubelet's `flowcontrol.Backoff`). */
export interface BackoffTracker {
  /** Records a failure for `key` and returns when (epoch ms) the next attempt may start. */
  recordFailure(key: string): number;
  /** Forgets the failures of `key` (call it after a success). */
  reset(key: string): void;
  /** Returns true while `key` must not be tried again. */
  isInBackoff(key: string): boolean;
}

/**
 * Returns a back-off tracker over `schedule`, reading time from `now`.
 *
 * @example
 * ```ts
 * const backoff = createBackoffTracker(createBackoffSchedule(), { now: () => Date.now() });
 * if (!backoff.isInBackoff(repo)) { try { await poll(repo); backoff.reset(repo) } catch { backoff.recordFailure(repo) } }
 * ```
 */
export function createBackoffTracker(
  schedule: BackoffSchedule,
  { now }: { readonly now: () => number },
): BackoffTracker {
  const state = new Map<string, { failures: number; until: number }>();
  return {
    recordFailure(key) {
      const failures = (state.get(key)?.failures ?? 0) + 1;
      const until = now() + schedule.delayMs(failures);
      state.set(key, { failures, until });
      return until;
    },
    reset(key) {
      state.delete(key);
    },
    isInBackoff(key) {
      const entry = state.get(key);
      return entry !== undefined && now() < entry.until;
    },
  };
}
