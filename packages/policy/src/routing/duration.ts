import { RoutingError } from "./errors.js";

/** Nanoseconds per unit, as Go's `time.ParseDuration` knows them. */
const unitNanoseconds: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  "\u00b5s": 1e3, // micro sign
  "\u03bcs": 1e3, // Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

function invalid(input: string, message: string): RoutingError {
  return new RoutingError("INVALID_DURATION", message, { input, value: input });
}

/**
 * Returns the duration in milliseconds (possibly fractional) of a Go
 * duration string such as `1s`, `1m30s`, `-1.5h` or `250ms`. Mirrors Go's
 * `time.ParseDuration` grammar: a sign, then one or more decimal numbers each
 * followed by a unit (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`); `0` alone needs
 * no unit. Throws a {@link RoutingError} `INVALID_DURATION` with Go's message.
 *
 * @example
 * ```ts
 * parseGoDuration("1m30s") // 90000
 * parseGoDuration("500ms") // 500
 * ```
 */
export function parseGoDuration(input: string): number {
  let s = input;
  let sign = 1;
  if (s.startsWith("-") || s.startsWith("+")) {
    if (s[0] === "-") sign = -1;
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") throw invalid(input, `time: invalid duration "${input}"`);
  let totalNs = 0;
  while (s !== "") {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s);
    const whole = number?.[1] ?? "";
    const fraction = number?.[2];
    if (whole === "" && (fraction === undefined || fraction === "")) {
      throw invalid(input, `time: invalid duration "${input}"`);
    }
    s = s.slice(number?.[0].length ?? 0);
    const unitMatch = /^[^0-9.]*/.exec(s);
    const unit = unitMatch?.[0] ?? "";
    if (unit === "") throw invalid(input, `time: missing unit in duration "${input}"`);
    const scale = unitNanoseconds[unit];
    if (scale === undefined) {
      throw invalid(input, `time: unknown unit "${unit}" in duration "${input}"`);
    }
    s = s.slice(unit.length);
    totalNs += Number(`${whole === "" ? "0" : whole}.${fraction ?? "0"}`) * scale;
  }
  if (totalNs > 2 ** 63) throw invalid(input, `time: invalid duration "${input}"`);
  return (sign * totalNs) / 1e6;
}
