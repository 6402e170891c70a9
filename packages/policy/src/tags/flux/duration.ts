/**
 * Go durations as Kubernetes `metav1.Duration` fields carry them
 * (`spec.interval`): Go's `time.ParseDuration`, within the shape the Flux CRD
 * admits, `^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`.
 */

import { time } from "@kubeimg/core/internal";

/** The CRD's pattern for `spec.interval`: a fixed grammar, safe for `RegExp`. */
const intervalPattern = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;

/**
 * Returns the duration in milliseconds, or undefined when `text` is not a
 * duration the Flux CRD and Go's `time.ParseDuration` both accept (wrong
 * shape, or beyond Go's int64 nanoseconds, about 292 years). Fractions are
 * truncated to the nanosecond as Go does.
 *
 * For example `1h30m` is 5400000 and `1.5s` is 1500; `10` is undefined (a unit is required).
 */
export function parseIntervalMillis(text: string): number | undefined {
  if (!intervalPattern.test(text)) return undefined;
  const parsed = time.ParseDuration(text);
  return parsed.ok ? Number(parsed.nanoseconds / 1000n) / 1000 : undefined;
}
