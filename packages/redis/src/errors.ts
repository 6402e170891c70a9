import { errorGuard, KubeimgError } from "@kubeimg/core";

/** The stable codes a {@link RedisStateError} carries. */
export type RedisStateErrorCode =
  /** An option of `createRedisAvailabilityState` is invalid (field and value on the error). */
  "INVALID_OPTION";

/**
 * The error `@kubeimg/redis` throws for misuse. Redis being down, slow or
 * restarted is not an error of this package: the state falls back to its
 * local memory and says so in its log.
 *
 * @example
 * ```ts
 * try { createRedisAvailabilityState({ url, prefix: "{bad}" }) } catch (e) {
 *   if (isRedisStateError(e)) console.error(e.code, e.field, e.value);
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
    details: { field: string; value: unknown },
  ) {
    super(message);
    this.code = code;
    this.field = details.field;
    this.value = details.value;
  }
}

/** Returns true when `value` is a {@link RedisStateError}, from either module format. */
export const isRedisStateError = errorGuard<RedisStateError>(
  "RedisStateError",
  new Set<RedisStateErrorCode>(["INVALID_OPTION"]),
);
