/**
 * The small interfaces routing needs from the outside world. `@kubeimg/policy`
 * never does I/O: the registry package implements {@link AvailabilityChecker}
 * (a HEAD on the manifest), and callers pass a {@link RoutingTimers} (real timers in
 * production, a fake clock in tests).
 */

import type { PlatformInput } from "@kubeimg/core/platform";

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

/** Per-call options of {@link AvailabilityChecker.check}. */
export interface AvailabilityCheckOptions {
  readonly signal?: AbortSignal;
  /**
   * The platforms the pod may land on (one node's, or every platform of a
   * node pool). When given, an image counts as available only if it can
   * serve each of them, as containerd would pick a manifest for that node;
   * otherwise the answer is unavailable with the reason
   * `available, but no linux/arm64 manifest`. Absent (the default), a
   * checker answers as kube-image-keeper does: the manifest exists.
   * Checkers that do not know platforms ignore it.
   */
  readonly platforms?: readonly PlatformInput[];
}

/**
 * Checks whether an image reference can be pulled, with the alternative's
 * credential secret. Implementations must honour `signal` (stop and settle
 * promptly when it aborts).
 */
export interface AvailabilityChecker {
  check(
    image: string,
    credentialSecret: CredentialSecretRef | undefined,
    options: AvailabilityCheckOptions,
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
