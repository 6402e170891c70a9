import { checkArgument } from "../errors/registry-error.js";

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 * Returns milliseconds to wait from `nowMs`, or `undefined` when the header
 * is absent, malformed, or names a time already past (then the caller's own
 * back-off applies, as containers/image does).
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  checkArgument(
    value === null || typeof value === "string",
    "parseRetryAfter",
    value,
    "the header must be a string or null",
  );
  checkArgument(
    Number.isFinite(nowMs),
    "parseRetryAfter",
    nowMs,
    "now must be a finite number of ms",
  );
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  if (!/[a-zA-Z]/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  const wait = at - nowMs;
  return wait > 0 ? wait : undefined;
}
