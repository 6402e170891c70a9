/**
 * Go's `time`: durations as `time.ParseDuration` reads them (Flux's
 * `spec.interval`, kuik's `--probe-timeout`-style settings, the CLI's
 * timeouts), and timestamps as `metav1.Time` reads and writes them in the
 * kubelet's record files: parsed with `time.Parse(time.RFC3339, …)`
 * (fractional seconds after `.` or `,` accepted, `Z` or `±hh:mm` required,
 * calendar ranges checked), written as `t.UTC().Format(time.RFC3339)` (whole
 * seconds, `Z`), and Go's zero time written as JSON `null`.
 */

/** Go's zero `time.Time` (0001-01-01T00:00:00Z) in epoch milliseconds; `metav1.Time` writes it as `null`. */
export const ZeroTimeMillis = -62135596800000;

/**
 * Go's fallback parser reads the layout's `15` (hour) with one or two digits,
 * every other field with exactly its width.
 */
const rfc3339Pattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

function daysIn(month: number, year: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function utcMs(year: number, month: number, day: number, h: number, m: number, s: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, m, s, 0);
  return d.getTime();
}

/**
 * Parses an RFC 3339 timestamp as Go's `time.Parse(time.RFC3339, s)` does and
 * returns epoch milliseconds (sub-millisecond digits are dropped), or
 * `undefined` when Go would refuse it.
 */
export function ParseRFC3339(s: string): number | undefined {
  const m = rfc3339Pattern.exec(s);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    // Go accepts offsets up to 24 hours and 60 minutes ("some people do write" them).
    if (oh > 24 || om > 60) return undefined;
    offsetMinutes = (oh * 60 + om) * (m[9] === "-" ? -1 : 1);
  }
  const fraction = m[7] === undefined ? 0 : Number(`${m[7].slice(0, 3).padEnd(3, "0")}`);
  return utcMs(year, month, day, hour, minute, second) + fraction - offsetMinutes * 60_000;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * Formats epoch milliseconds as Go's `t.UTC().Format(time.RFC3339)`: whole
 * seconds (the fraction is truncated, not rounded) and a `Z` suffix.
 */
export function FormatRFC3339(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const y = d.getUTCFullYear();
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}Z`;
}

/** Nanoseconds per unit, as `time.ParseDuration` knows them. */
const unitNanos: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  "\u00b5s": 1_000n, // micro sign
  "\u03bcs": 1_000n, // Greek small letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const two63 = 1n << 63n;

/**
 * The `quote` Go's `time` package writes into its error messages: in double
 * quotes, `"` and `\` escaped, every byte of a non-ASCII or control character
 * as `\xNN`. (Not `strconv.Quote`: the time package has its own.)
 */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80 || c < 0x20) {
      for (const b of new TextEncoder().encode(ch)) out += `\\x${b.toString(16).padStart(2, "0")}`;
    } else {
      out += c === 0x22 || c === 0x5c ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

/** A parsed duration in nanoseconds, or the error message Go gives. */
export type DurationResult =
  | { readonly ok: true; readonly nanoseconds: bigint }
  | { readonly ok: false; readonly message: string };

/**
 * Go's `time.ParseDuration`: an optional sign, then one or more decimal
 * numbers each followed by a unit (`ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`,
 * `h`); `0` alone needs no unit. Integer parts are exact up to 2^63 ns;
 * fractions are scaled in float64 and truncated, as Go does, so `1.5h` and
 * `0.1ns` come out as Go's do. Returns Go's error message on failure.
 *
 * @example
 * ```ts
 * import { time } from "@kubeimg/core/internal";
 *
 * time.ParseDuration("1m30s"); // → { ok: true, nanoseconds: 90_000_000_000n }
 * time.ParseDuration("1"); // → { ok: false, message: 'time: missing unit in duration "1"' }
 * ```
 */
export function ParseDuration(orig: string): DurationResult {
  const invalid = (): DurationResult => ({
    ok: false,
    message: `time: invalid duration ${quote(orig)}`,
  });
  let s = orig;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return { ok: true, nanoseconds: 0n };
  if (s === "") return invalid();
  let d = 0n;
  while (s !== "") {
    const c0 = s.charCodeAt(0);
    if (!(c0 === 0x2e || (c0 >= 0x30 && c0 <= 0x39))) return invalid();
    // The integer part: [0-9]*, an error past 2^63.
    let i = 0;
    let v = 0n;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      if (v > two63 / 10n) return invalid();
      v = v * 10n + BigInt(c - 0x30);
      if (v > two63) return invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // The fraction: (\.[0-9]*)?, which stops gaining precision rather than failing.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length; j++) {
        const c = s.charCodeAt(j);
        if (c < 0x30 || c > 0x39) break;
        if (overflow) continue;
        if (f > (two63 - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(c - 0x30);
        if (y > two63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid();
    // The unit: everything up to the next digit or dot.
    let k = 0;
    for (; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 0x2e || (c >= 0x30 && c <= 0x39)) break;
    }
    if (k === 0) return { ok: false, message: `time: missing unit in duration ${quote(orig)}` };
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = unitNanos[u];
    if (unit === undefined) {
      return { ok: false, message: `time: unknown unit ${quote(u)} in duration ${quote(orig)}` };
    }
    if (v > two63 / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > two63) return invalid();
    }
    d += v;
    if (d > two63) return invalid();
  }
  if (neg) return { ok: true, nanoseconds: -d };
  if (d > two63 - 1n) return invalid();
  return { ok: true, nanoseconds: d };
}

function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let out = "";
  let print = false;
  let rest = v;
  for (let i = 0; i < prec; i++) {
    const digit = rest % 10n;
    print = print || digit !== 0n;
    if (print) out = digit.toString() + out;
    rest /= 10n;
  }
  return [print ? `.${out}` : "", rest];
}

/**
 * Go's `time.Duration.String` for a nanosecond count: `1h2m3.5s`, `1.5ms`,
 * `0s`.
 *
 * @example
 * ```ts
 * import { time } from "@kubeimg/core/internal";
 *
 * time.DurationString(90_000_000_000n); // → "1m30s"
 * ```
 */
export function DurationString(ns: bigint): string {
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    if (u === 0n) return "0s";
    let unit: string;
    let prec: number;
    if (u < 1_000n) {
      prec = 0;
      unit = "ns";
    } else if (u < 1_000_000n) {
      prec = 3;
      unit = "\u00b5s";
    } else {
      prec = 6;
      unit = "ms";
    }
    const [frac, whole] = fmtFrac(u, prec);
    out = `${whole}${frac}${unit}`;
  } else {
    const [frac, whole] = fmtFrac(u, 9);
    u = whole;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}
