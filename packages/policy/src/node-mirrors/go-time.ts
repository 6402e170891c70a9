/**
 * Go's `time.ParseDuration` over exact nanoseconds and `Duration.String`.
 * containerd keeps `dial_timeout` as a parsed `time.Duration`, so reporting
 * it the way containerd would print it needs the exact int64 value (the
 * routing package's float reading is fine for comparisons, not for text).
 */

const unitNs: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n],
  ["\u03bcs", 1_000n],
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

const LIMIT = 1n << 63n;

/** Go's error text for a duration it rejects. */
export class GoDurationError extends Error {
  override readonly name = "GoDurationError";
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

/** Parses a Go duration to nanoseconds, or throws {@link GoDurationError} with Go's message. */
export function parseGoDurationNs(input: string): bigint {
  const invalid = () => new GoDurationError(`time: invalid duration ${JSON.stringify(input)}`);
  let s = input;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") throw invalid();
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s[0]))) throw invalid();
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      if (v > LIMIT / 10n) throw invalid();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) throw invalid();
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    let post = false;
    let f = 0n;
    let scale = 1;
    if (s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          if (f > (LIMIT - 1n) / 10n) overflow = true;
          else {
            const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
            if (y > LIMIT) overflow = true;
            else {
              f = y;
              scale *= 10;
            }
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let k = 0;
    while (k < s.length && !(s[k] === "." || isDigit(s[k]))) k++;
    if (k === 0)
      throw new GoDurationError(`time: missing unit in duration ${JSON.stringify(input)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = unitNs.get(u);
    if (unit === undefined) {
      throw new GoDurationError(
        `time: unknown unit ${JSON.stringify(u)} in duration ${JSON.stringify(input)}`,
      );
    }
    if (v > LIMIT / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) throw invalid();
    }
    d += v;
    if (d > LIMIT) throw invalid();
  }
  if (neg) return -d;
  if (d > LIMIT - 1n) throw invalid();
  return d;
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

/** Go's `time.Duration.String` for a nanosecond count. */
export function formatGoDuration(ns: bigint): string {
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
