/**
 * Timestamps as `metav1.Time` reads and writes them in the kubelet's record
 * files: parsed with Go's `time.Parse(time.RFC3339, …)` (fractional seconds
 * after `.` or `,` accepted, `Z` or `±hh:mm` required, calendar ranges
 * checked), written as `t.UTC().Format(time.RFC3339)` (whole seconds, `Z`),
 * and Go's zero time written as JSON `null`.
 */

/** Go's zero `time.Time` (0001-01-01T00:00:00Z) in epoch milliseconds; `metav1.Time` writes it as `null`. */
export const goZeroTimeMs = -62135596800000;

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
export function parseRfc3339(s: string): number | undefined {
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
export function formatRfc3339(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const y = d.getUTCFullYear();
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}Z`;
}
