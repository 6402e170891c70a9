/**
 * The values stored under our keys, versioned and validated: whatever else
 * sits there (an older layout, another program, a corrupted write) reads as
 * "nothing stored". Verdict reasons are cut and scrubbed before they leave
 * the process: a registry's error text must not carry a credential into a
 * shared store.
 */
import type { Availability } from "@kubeimg/policy/availability";

/** Longest reason stored. */
const MAX_REASON = 300;

/** A probe marker or trial token: `v1:` and a random UUID. */
const TOKEN_PATTERN = /^v1:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Returns `true` when `value` is a marker token this layout writes. */
export function isToken(value: unknown): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}

/**
 * Returns `reason` safe to share: control characters dropped, `user:pass@`
 * in URLs and `Bearer`/`Basic` credentials redacted, at most 300 characters.
 */
export function scrubReason(reason: string): string {
  return (
    reason
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
      .replace(/\b(bearer|basic)\s+[^\s,;"']+/gi, "$1 [redacted]")
      .replace(/\/\/[^/\s@]*@/g, "//[redacted]@")
      .slice(0, MAX_REASON)
  );
}

/** Returns the stored form of a verdict. */
export function encodeVerdict(answer: Availability): string {
  return JSON.stringify(
    answer.available
      ? { kubeimg: "verdict", v: 1, available: true }
      : {
          kubeimg: "verdict",
          v: 1,
          available: false,
          reason: scrubReason(answer.reason),
          retryable: answer.retryable,
        },
  );
}

/** Returns the verdict `raw` holds, or undefined for anything this layout did not write. */
export function decodeVerdict(raw: unknown): Availability | undefined {
  if (typeof raw !== "string" || raw.length > 1024) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (v.kubeimg !== "verdict" || v.v !== 1) return undefined;
  const keys = Object.keys(v).sort().join(",");
  if (v.available === true && keys === "available,kubeimg,v") return { available: true };
  if (
    v.available === false &&
    keys === "available,kubeimg,reason,retryable,v" &&
    typeof v.reason === "string" &&
    v.reason.length <= MAX_REASON &&
    typeof v.retryable === "boolean"
  ) {
    return { available: false, reason: v.reason, retryable: v.retryable };
  }
  return undefined;
}
