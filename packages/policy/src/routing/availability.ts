/**
 * The small interfaces routing needs from the outside world. `@kubeimg/policy`
 * never does I/O: the registry package implements {@link AvailabilityChecker}
 * (a HEAD on the manifest), and callers pass a {@link RoutingTimers} (real timers in
 * production, a fake clock in tests).
 */

/** A Secret named by a `credentialSecret` (namespace already resolved). */
export interface CredentialSecretRef {
  readonly namespace: string;
  readonly name: string;
}

/** The answer of one availability probe. */
export type Availability =
  | { readonly available: true }
  | {
      readonly available: false;
      /** Why (status code, timeout, refused connection, …). */
      readonly reason: string;
      /**
       * True when asking again later may succeed (timeout, refused connection,
       * 5xx, rate limit); false for a definite answer such as 404 or 401. Only
       * retryable failures trip the circuit breaker of
       * `createAvailabilityGate`.
       */
      readonly retryable: boolean;
    };

/**
 * Checks whether an image reference can be pulled, with the alternative's
 * credential secret. Implementations must honour `signal` (stop and settle
 * promptly when it aborts).
 */
export interface AvailabilityChecker {
  check(
    image: string,
    credentialSecret: CredentialSecretRef | undefined,
    options: { signal?: AbortSignal },
  ): Promise<Availability>;
}

/** Time as routing needs it: a monotonic clock in milliseconds and one-shot timers. */
export interface RoutingTimers {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a pending `setTimeout`. */
  clearTimeout(handle: unknown): void;
}
