/**
 * Reading a repository's tag list as both updaters see it: names in listing
 * order, and per name the metadata of its **last** occurrence (a registry
 * reports one manifest per tag; a list that names a tag twice is resolved the
 * way a map keyed by tag is filled in order). Creation times compare as
 * instants at Go's nanosecond precision.
 */
import { strings, time } from "@kubeimg/core/internal";
import { TagDialectError } from "./errors.js";
import type { TagInfo } from "./types.js";

/** A creation instant: epoch milliseconds, then the nanoseconds below them. */
export interface Instant {
  readonly ms: number;
  readonly subMsNanos: number;
}

/** Go's zero `time.Time`, what an image without `created` reports. */
export const ZERO_INSTANT: Instant = { ms: time.ZeroTimeMillis, subMsNanos: 0 };

/** The metadata of one tag name after the last-occurrence rule. */
export interface TagMetadata {
  readonly created: Instant;
  readonly digest: string | undefined;
  /** Undefined: a single image manifest. */
  readonly platforms: readonly string[] | undefined;
  /** A single image manifest's platform, when known. */
  readonly platform: string | undefined;
}

/** A validated tag list, as the plain passes read it (`readTags` in `prepared.ts`). */
export interface TagList {
  readonly names: readonly string[];
  /**
   * The metadata of a listed name (its last occurrence). Only lists read
   * with `metadata: true` have it; the others answer from the tag as given.
   */
  metadata(name: string): TagMetadata;
}

/**
 * Whether `text` is `sha256:` and 64 lower-case hex digits, read with
 * character codes: a regexp per entry was most of a raw list's check.
 */
export function isSha256Digest(text: string): boolean {
  if (
    text.length !== 71 ||
    text.charCodeAt(0) !== 115 /* s */ ||
    text.charCodeAt(1) !== 104 /* h */ ||
    text.charCodeAt(2) !== 97 /* a */ ||
    text.charCodeAt(3) !== 50 /* 2 */ ||
    text.charCodeAt(4) !== 53 /* 5 */ ||
    text.charCodeAt(5) !== 54 /* 6 */ ||
    text.charCodeAt(6) !== 58 /* : */
  ) {
    return false;
  }
  for (let i = 7; i < 71; i++) {
    const c = text.charCodeAt(i);
    if ((c < 48 /* 0 */ || c > 57) /* 9 */ && (c < 97 /* a */ || c > 102) /* f */) return false;
  }
  return true;
}

/** Days in each month of a common year. */
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The two ASCII digits of `text` at `i` as a number, or -1. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar, by
 * whole 400-year eras counted from March (so the leap day ends a year).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = (((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) | 0) + day - 1;
  const doe = yoe * 365 + ((yoe / 4) | 0) - ((yoe / 100) | 0) + doy;
  return era * 146_097 + doe - 719_468;
}

/** An instant being read: one slot reused for every tag, so reading a time allocates nothing. */
export interface InstantSlot {
  ms: number;
  subMsNanos: number;
}

/**
 * The shape registries write (`2024-01-02T03:04:05.123456789Z`: UTC, years
 * 1000–9999), read with character codes into `slot`; false for anything else,
 * which {@link parseInstant} then hands to the full RFC 3339 reader. Held to
 * that reader by a property test.
 */
export function scanUtcInto(text: string, slot: InstantSlot): boolean {
  const n = text.length;
  if (n < 20 || text.charCodeAt(n - 1) !== 90 /* Z */) return false;
  if (
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 /* T */ ||
    text.charCodeAt(13) !== 58 /* : */ ||
    text.charCodeAt(16) !== 58
  ) {
    return false;
  }
  const hi = twoDigits(text, 0);
  const lo = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (
    hi < 10 ||
    lo < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59
  ) {
    return false;
  }
  if (hour < 0 || second < 0 || second > 59) return false;
  const year = hi * 100 + lo;
  if (day > 28) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (day > (month === 2 && leap ? 29 : (monthDays[month - 1] as number))) return false;
  }
  let nanos = 0;
  if (n > 20) {
    // A fraction: "." and 1 or more digits before the Z; Go keeps nine.
    if (text.charCodeAt(19) !== 46 /* . */ || n === 21) return false;
    let scale = 100_000_000;
    for (let i = 20; i < n - 1; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return false;
      nanos += d * scale;
      scale = (scale / 10) | 0;
    }
  }
  const subMs = nanos % 1_000_000;
  slot.ms =
    daysFromCivil(year, month, day) * 86_400_000 +
    hour * 3_600_000 +
    minute * 60_000 +
    second * 1000 +
    (nanos - subMs) / 1_000_000;
  slot.subMsNanos = subMs;
  return true;
}

/** {@link scanUtcInto} as a new instant, or undefined. */
export function scanUtcInstant(text: string): Instant | undefined {
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  return scanUtcInto(text, slot) ? slot : undefined;
}

/** Parses an RFC 3339 time as Go's `time.Parse(time.RFC3339, …)`, keeping nanoseconds. */
export function parseInstant(text: string): Instant | undefined {
  const fast = scanUtcInstant(text);
  if (fast !== undefined) return fast;
  const ms = time.ParseRFC3339(text);
  if (ms === undefined) return undefined;
  // The fraction follows the seconds (`…T15:04:05.999999999`); Go keeps nine digits.
  const fraction = /^\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d\.(\d+)/.exec(text)?.[1] ?? "";
  const nanos = Number(fraction.slice(0, 9).padEnd(9, "0"));
  return { ms, subMsNanos: nanos % 1_000_000 };
}

/** Compares two instants: negative when `a` is earlier. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.ms !== b.ms ? a.ms - b.ms : a.subMsNanos - b.subMsNanos;
}

function fail(i: number, field: string, value: unknown, problem: string): never {
  throw new TagDialectError(`tags[${i}]${field === "" ? "" : `.${field}`}`, value, problem);
}

/**
 * Reads a `created` value into `slot`: an RFC 3339 string (nanoseconds kept)
 * or epoch milliseconds (a safe integer, no sub-millisecond part). False when
 * it is neither.
 */
export function readCreated(created: unknown, slot: InstantSlot): boolean {
  if (typeof created === "string") {
    if (scanUtcInto(created, slot)) return true;
    const full = parseInstant(created);
    if (full === undefined) return false;
    slot.ms = full.ms;
    slot.subMsNanos = full.subMsNanos;
    return true;
  }
  if (typeof created === "number" && Number.isSafeInteger(created)) {
    slot.ms = created;
    slot.subMsNanos = 0;
    return true;
  }
  return false;
}

/** The instant of a `created` value (Go's zero time when absent), or undefined when it is malformed. */
export function createdInstant(created: string | number | undefined): Instant | undefined {
  if (created === undefined) return ZERO_INSTANT;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  return readCreated(created, slot) ? slot : undefined;
}

/** A slot for a check whose instant nobody reads. */
const scratch: InstantSlot = { ms: 0, subMsNanos: 0 };

/**
 * Checks what every selection reads of an entry whatever its strategy: an
 * object whose `name` is a string, and each other field, when present, of
 * its type (`created` a string or a number, `digest` and `platform` strings,
 * `platforms` an array). The content of those fields (a time that parses, a
 * digest's hex, the platform strings, no unknown field) is
 * {@link checkEntry}'s, asked of an entry whose metadata a selection reads:
 * content nobody reads cannot change an answer, and checking every digest's
 * 64 digits costs more than a whole selection by name. A malformed entry gets
 * {@link checkEntry}'s error, the same as from a full check.
 */
export function checkShape(tag: TagInfo, i: number): void {
  if (tag !== null && typeof tag === "object" && typeof tag.name === "string") {
    const { created, digest, platforms, platform } = tag;
    if (
      (created === undefined || typeof created === "string" || typeof created === "number") &&
      (digest === undefined || typeof digest === "string") &&
      (platforms === undefined || Array.isArray(platforms)) &&
      (platform === undefined || typeof platform === "string")
    ) {
      return;
    }
  }
  // Every shape problem is one of checkEntry's, so this throws.
  checkEntry(tag, i, scratch);
}

/**
 * Checks one entry in full (every field and its content). When
 * it has `created`, leaves that instant in `slot` and returns true; so a
 * caller that compares times reads each one once and allocates nothing.
 */
export function checkEntry(tag: TagInfo, i: number, slot: InstantSlot): boolean {
  if (tag === null || typeof tag !== "object") fail(i, "", tag, "must be an object with a name");
  for (const key in tag) {
    if (
      key !== "name" &&
      key !== "created" &&
      key !== "digest" &&
      key !== "platforms" &&
      key !== "platform"
    ) {
      fail(i, key, (tag as unknown as Record<string, unknown>)[key], "unknown field");
    }
  }
  if (typeof tag.name !== "string") fail(i, "name", tag.name, "must be a string");
  const { created, digest, platforms, platform } = tag;
  const hasCreated = created !== undefined;
  if (hasCreated && !readCreated(created, slot)) {
    fail(i, "created", created, "must be an RFC 3339 time or epoch milliseconds (a safe integer)");
  }
  if (digest !== undefined && (typeof digest !== "string" || !isSha256Digest(digest))) {
    fail(i, "digest", digest, "must be sha256: and 64 lower-case hex digits");
  }
  if (platforms !== undefined) {
    let ok = Array.isArray(platforms) && platforms.length > 0;
    for (let k = 0; ok && k < platforms.length; k++) ok = typeof platforms[k] === "string";
    if (!ok) fail(i, "platforms", platforms, "must be a non-empty array of strings");
  }
  if (platform !== undefined && typeof platform !== "string") {
    fail(i, "platform", platform, "must be a string");
  }
  return hasCreated;
}

/** One platform split as both updaters split theirs: on `/`, into at most three parts. */
export interface SplitPlatform {
  readonly os: string;
  readonly arch: string;
  readonly variant: string;
  /** Fewer than two parts: a platform nothing matches. */
  readonly valid: boolean;
}

/** Splits `text` on `/` into at most three parts (Go `strings.SplitN(text, "/", 3)`). */
export function splitPlatform(text: string): SplitPlatform {
  const first = text.indexOf("/");
  if (first < 0) return { os: text, arch: "", variant: "", valid: false };
  const second = text.indexOf("/", first + 1);
  return second < 0
    ? { os: text.slice(0, first), arch: text.slice(first + 1), variant: "", valid: true }
    : {
        os: text.slice(0, first),
        arch: text.slice(first + 1, second),
        variant: text.slice(second + 1),
        valid: true,
      };
}

/** Go's byte order of two strings, greatest first (both updaters break ties so). */
export function byTagDescending(a: string, b: string): number {
  return strings.Compare(b, a);
}
