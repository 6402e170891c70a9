import { CliError } from "../errors/cli-error.js";

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * The longest delay a Node.js timer honours (2^31 - 1 ms, about 24.8 days);
 * a longer one fires at once with a warning, so such a budget is refused.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The shortest budget: below a millisecond every call would time out at once. */
export const MIN_TIMER_MS = 1;

/**
 * Returns the milliseconds of a positive Go duration such as `1s`, `500ms`
 * or `1m30s` (Go `time.ParseDuration`'s units; a sign is refused), between
 * 1ms and {@link MAX_TIMER_MS} (596h31m23.647s). Throws a `USAGE`
 * {@link CliError} naming `flag` and the bounds otherwise.
 *
 * @example
 * ```ts
 * parseDurationFlag("1m30s", "--timeout"); // 90000
 * ```
 */
export function parseDurationFlag(value: string, flag: string): number {
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let ms = 0;
  let at = 0;
  while (at < value.length) {
    part.lastIndex = at;
    const match = part.exec(value);
    if (!match) break;
    ms += Number(match[1]) * (UNIT_MS[match[2] as string] ?? Number.NaN);
    at = part.lastIndex;
  }
  if (value === "" || at !== value.length || !(ms > 0)) {
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
