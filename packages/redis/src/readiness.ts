/** Why `ready()` gives up, as a typed error naming the kind of failure and the setting to check. */
import { RedisStateError } from "./errors.js";
import { describeFailure, failureKind, redactUrl } from "./sender.js";

/** The typed reason `ready()` gives up with: the kind of failure and the setting to check. */
export function readinessError(
  last: unknown,
  timeoutMs: number,
  defaulted: boolean,
  configuredUrl: string | undefined,
): RedisStateError {
  const kind = failureKind(last);
  const message = `cannot share availability state through Redis within ${timeoutMs} ms: ${describeFailure(last, "timeoutMs")}`;
  const url = configuredUrl === undefined ? undefined : redactUrl(configuredUrl);
  if (kind === "refused")
    return new RedisStateError("REDIS_REFUSED", message, {
      field: "url",
      value: url,
      cause: last,
    });
  if (kind === "auth-failed")
    return new RedisStateError("REDIS_AUTH_FAILED", message, {
      field: "url",
      value: url,
      cause: last,
    });
  if (kind === "timed-out")
    return new RedisStateError("REDIS_TIMEOUT", message, {
      field: "timeoutMs",
      value: defaulted ? `${timeoutMs} (default)` : timeoutMs,
      cause: last,
    });
  return new RedisStateError("REDIS_UNAVAILABLE", message, {
    field: "url",
    value: url,
    cause: last,
  });
}
