/**
 * Which HTTP statuses are worth another attempt, decided once for the
 * transport (which retries them) and for the errors the client throws
 * (whose `retryable` tells callers whether a later call may succeed).
 *
 * 408 and 429 ask the client to come back; 5xx are server failures, most of
 * them transient (a restarting registry, a proxy in front of it). Two 5xx
 * are answers about the request itself and do not change by waiting:
 * 501 Not Implemented (the registry lacks the method, e.g. HEAD) and
 * 505 HTTP Version Not Supported.
 */

/** Statuses below 500 that invite a retry. */
const RETRYABLE_CLIENT_STATUSES: ReadonlySet<number> = /*#__PURE__*/ new Set([408, 429]);

/** Server statuses that a retry cannot fix. */
const PERMANENT_SERVER_STATUSES: ReadonlySet<number> = /*#__PURE__*/ new Set([501, 505]);

/** Returns true when a response with `status` may succeed if sent again later. */
export function isRetryableStatus(status: number): boolean {
  if (RETRYABLE_CLIENT_STATUSES.has(status)) return true;
  return status >= 500 && status <= 599 && !PERMANENT_SERVER_STATUSES.has(status);
}
