import { time } from "@kubeimg/core/internal";
import { CliError } from "../errors/cli-error.js";

/**
 * Returns the milliseconds of a positive Go duration such as `1s`, `500ms`
 * or `1m30s` (Go `time.ParseDuration`'s units; a sign is refused). Throws a
 * `USAGE` {@link CliError} naming `flag` otherwise.
 *
 * @example
 * ```ts
 * parseDurationFlag("1m30s", "--timeout"); // 90000
 * ```
 */
export function parseDurationFlag(value: string, flag: string): number {
  // A sign is refused; the rest is Go's grammar, and Go's arithmetic.
  const parsed = /^[+-]/.test(value) ? undefined : time.ParseDuration(value);
  const ms = parsed?.ok ? Number(parsed.nanoseconds) / 1e6 : Number.NaN;
  if (!(ms > 0)) {
    throw new CliError(
      "USAGE",
      `${flag} must be a positive duration such as 1s, 500ms or 1m30s, not "${value}"`,
      value,
    );
  }
  return ms;
}
