import { time } from "@kubeimg/core/internal";
import { CliError } from "../errors/cli-error.js";

/**
 * The longest delay a Node.js timer honours (2^31 - 1 ms, about 24.8 days);
 * a longer one fires at once with a warning, so such a budget is refused.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The shape of an unsigned Go duration, whatever its size (`0` aside). */
const wellFormedDuration = /^(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$/u;

/** The shortest budget: below a millisecond every call would time out at once. */
export const MIN_TIMER_MS = 1;

/**
 * Returns the milliseconds of a positive Go duration such as `1s`, `500ms`
 * or `1m30s` (Go `time.ParseDuration`'s units; a sign is refused), between
 * 1ms and {@link MAX_TIMER_MS} (596h31m23.647s). Throws a `USAGE`
 * {@link CliError} naming `flag` and the bounds otherwise.
 */
export function parseDurationFlag(value: string, flag: string): number {
  // A sign is refused; the rest is Go's grammar, and Go's arithmetic.
  const parsed = /^[+-]/.test(value) ? undefined : time.ParseDuration(value);
  // Go refuses a well-formed duration past ~292 years as invalid; here it is
  // simply too long for a timer, and the message should say the bounds.
  const ms = parsed?.ok
    ? Number(parsed.nanoseconds) / 1e6
    : wellFormedDuration.test(value)
      ? Number.POSITIVE_INFINITY
      : Number.NaN;
  if (!(ms > 0)) {
    throw new CliError(
      "USAGE",
      `${flag} must be a positive duration such as 1s, 500ms or 1m30s, not "${value}"`,
      value,
    );
  }
  if (ms < MIN_TIMER_MS || ms > MAX_TIMER_MS) {
    throw new CliError(
      "USAGE",
      `${flag} must be between 1ms and 596h31m23.647s (the longest timer Node.js keeps), not "${value}"`,
      value,
    );
  }
  return ms;
}
