import { time } from "@kubeimg/core/internal";
import { RoutingError } from "./errors.js";

/**
 * Returns the duration in milliseconds (possibly fractional) of a Go
 * duration string such as `1s`, `1m30s`, `-1.5h` or `250ms`, read by Go's
 * `time.ParseDuration`. Throws a {@link RoutingError} `INVALID_DURATION`
 * with Go's message.
 *
 * For example `1m30s` is 90000 and `500ms` is 500.
 */
export function parseGoDuration(input: string): number {
  const parsed = time.ParseDuration(input);
  if (!parsed.ok) {
    throw new RoutingError("INVALID_DURATION", parsed.message, { input, value: input });
  }
  return Number(parsed.nanoseconds) / 1e6;
}
