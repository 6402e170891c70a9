/**
 * Go's `time.Duration.String`. containerd keeps `dial_timeout` as a parsed
 * `time.Duration` (read with `@kubeimg/core/internal`'s exact
 * `ParseDuration`), and kubeimg reports it as Go prints it.
 */

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
