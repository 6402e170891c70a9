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
  return ms;
}
