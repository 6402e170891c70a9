import { errorGuard, KubeimgError } from "@kubeimg/core";

/** The stable codes a {@link RedisStateError} carries.
 *
 * @inline
 */
export type RedisStateErrorCode =
  /** An option of `createRedisAvailabilityState` is invalid (field and value on the error). */
  | "INVALID_OPTION"
  /** `ready()`: nothing accepted the connection at the url's host and port (`ECONNREFUSED`). */
  | "REDIS_REFUSED"
  /** `ready()`: the server refused the url's user and password (`WRONGPASS`, `NOAUTH`, `NOPERM`). */
  | "REDIS_AUTH_FAILED"
  /** `ready()`: no answer within its `timeoutMs` (unreachable host, a TLS port without `rediss://`). */
  | "REDIS_TIMEOUT"
  /** `ready()`: any other failure (the client's words in the message, the original as `cause`). */
  | "REDIS_UNAVAILABLE";

/**
 * The error `@kubeimg/redis` throws for misuse, and the reason `ready()`
 * gives when the state cannot share. Redis being down, slow or restarted
 * under a running state is not an error: the state falls back to its local
 * memory and says so in its log.
 *
 * @example
 * ```ts
 * import { createRedisAvailabilityState, RedisStateError } from "@kubeimg/redis";
 *
 * try {
 *   createRedisAvailabilityState({ url: "redis://127.0.0.1:6379", prefix: "{bad}" });
 * } catch (e) {
 *   // Braces would break the keys' Redis Cluster hash tags; the error throws before any connection.
 *   if (e instanceof RedisStateError) [e.code, e.field, e.value]; // → ["INVALID_OPTION", "prefix", "{bad}"]
 * }
 * ```
 */
export class RedisStateError extends KubeimgError {
  override readonly name = "RedisStateError";
  readonly code: RedisStateErrorCode;
  /** The option at fault. */
  readonly field: string;
  /** Its value (never a URL with credentials: those are redacted). */
  readonly value: unknown;

  constructor(
    code: RedisStateErrorCode,
    message: string,
    details: { field: string; value: unknown; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.field = details.field;
    this.value = details.value;
  }
}

/** Returns true when `value` is a {@link RedisStateError}, from either module format. */
export const isRedisStateError = errorGuard<RedisStateError>(
  "RedisStateError",
  new Set<RedisStateErrorCode>([
    "INVALID_OPTION",
    "REDIS_REFUSED",
    "REDIS_AUTH_FAILED",
    "REDIS_TIMEOUT",
    "REDIS_UNAVAILABLE",
  ]),
);
