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
}

/** A validated tag list. */
export interface TagList {
  readonly names: readonly string[];
  /**
   * The metadata of a listed name (its last occurrence). Only lists read
   * with `metadata: true` have it; the others answer from the tag as given.
   */
  metadata(name: string): TagMetadata;
}

const digestPattern = /^sha256:[0-9a-f]{64}$/;

/** Parses an RFC 3339 time as Go's `time.Parse(time.RFC3339, …)`, keeping nanoseconds. */
export function parseInstant(text: string): Instant | undefined {
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

/** Checks one entry's shape (every field, whatever the strategy reads). */
function checkEntry(tag: TagInfo, i: number): void {
  if (tag === null || typeof tag !== "object") fail(i, "", tag, "must be an object with a name");
  for (const key in tag) {
    if (key !== "name" && key !== "created" && key !== "digest" && key !== "platforms") {
      fail(i, key, (tag as unknown as Record<string, unknown>)[key], "unknown field");
    }
  }
  if (typeof tag.name !== "string") fail(i, "name", tag.name, "must be a string");
  const { created, digest, platforms } = tag;
  if (
    created !== undefined &&
    (typeof created !== "string" || parseInstant(created) === undefined)
  ) {
    fail(i, "created", created, "must be an RFC 3339 time");
  }
  if (digest !== undefined && (typeof digest !== "string" || !digestPattern.test(digest))) {
    fail(i, "digest", digest, "must be sha256: and 64 lower-case hex digits");
  }
  if (platforms !== undefined) {
    let ok = Array.isArray(platforms) && platforms.length > 0;
    for (let k = 0; ok && k < platforms.length; k++) ok = typeof platforms[k] === "string";
    if (!ok) fail(i, "platforms", platforms, "must be a non-empty array of strings");
  }
}

function metadataOf(tag: TagInfo): TagMetadata {
  return {
    created: tag.created === undefined ? ZERO_INSTANT : (parseInstant(tag.created) as Instant),
    digest: tag.digest,
    platforms: tag.platforms === undefined ? undefined : [...tag.platforms],
  };
}

/**
 * Validates `tags` (every entry's shape) and returns their names. With
 * `metadata`, also the metadata of each name after the last-occurrence rule.
 * Throws a {@link TagDialectError} naming the entry and field that is
 * malformed.
 */
export function readTagList(tags: readonly TagInfo[], options: { metadata: boolean }): TagList {
  if (!Array.isArray(tags)) throw new TagDialectError("tags", tags, "must be an array of tags");
  const n = tags.length;
  const names: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tag = tags[i] as TagInfo;
    checkEntry(tag, i);
    names[i] = tag.name;
  }
  if (!options.metadata) {
    return {
      names,
      metadata: () => ({ created: ZERO_INSTANT, digest: undefined, platforms: undefined }),
    };
  }
  const last = new Map<string, TagInfo>();
  for (let i = 0; i < n; i++) last.set(names[i] as string, tags[i] as TagInfo);
  const cache = new Map<string, TagMetadata>();
  return {
    names,
    metadata(name) {
      let meta = cache.get(name);
      if (meta === undefined) {
        meta = metadataOf(last.get(name) as TagInfo);
        cache.set(name, meta);
      }
      return meta;
    },
  };
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
