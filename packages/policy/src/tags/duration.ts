/**
 * Go durations as Kubernetes `metav1.Duration` fields carry them
 * (`spec.interval`): Go's `time.ParseDuration`, within the shape the Flux CRD
 * admits, `^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`.
 */

/** The CRD's pattern for `spec.interval`: a fixed grammar, safe for `RegExp`. */
const intervalPattern = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;

/** Nanoseconds per unit. */
const unitNanos: Readonly<Record<string, bigint>> = {
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Go's largest duration, in nanoseconds (int64). */
const maxDuration = (1n << 63n) - 1n;

/**
 * Returns the duration in milliseconds, or undefined when `text` is not a
 * duration the Flux CRD and Go's `time.ParseDuration` both accept (wrong
 * shape, or beyond Go's int64 nanoseconds, about 292 years). Fractions are
 * truncated to the nanosecond as Go does.
 *
 * @example
 * ```ts
 * parseIntervalMillis("1h30m"); // 5_400_000
 * parseIntervalMillis("1.5s");  // 1_500
 * parseIntervalMillis("10");    // undefined: a unit is required
 * ```
 */
export function parseIntervalMillis(text: string): number | undefined {
  if (!intervalPattern.test(text)) return undefined;
  const component = /([0-9]+)(?:\.([0-9]+))?(ms|s|m|h)/gy;
  let total = 0n;
  for (let m = component.exec(text); m !== null; m = component.exec(text)) {
    const unit = unitNanos[m[3] as string] as bigint;
    const whole = BigInt(m[1] as string);
    if (whole > maxDuration / unit) return undefined;
    const fraction = m[2] ?? "";
    const fractionNanos =
      fraction === "" ? 0n : (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += whole * unit + fractionNanos;
    if (total > maxDuration) return undefined;
  }
  return Number(total / 1000n) / 1000;
}
