/**
 * Flux's `filterTags` (`RegexFilter` in image-reflector-controller): keep the
 * tags the pattern matches anywhere, turn each into the key the policy ranks
 * (the tag itself, or Go's `Expand` of `extract` over the leftmost match), and
 * remember which tag each key came from.
 *
 * The match runs through `@kubeimg/core/regexp`, never `new RegExp`. To stay
 * fast on large repositories the filter asks the engine for as little as
 * the template needs: a boolean match when the key is the tag itself or a
 * constant, and otherwise the group positions written into one buffer reused
 * for every tag.
 */
import {
  compileRegexp,
  type ExpandTemplate,
  type GoRegexp,
  parseTemplate,
  RegexpError,
  requiredLiteralPrefix,
} from "@kubeimg/core/regexp";
import { TagPolicyError } from "./errors.js";
import type { TagFilterSpec } from "./types.js";

/** A compiled `filterTags`. */
export interface TagFilter {
  readonly pattern: string;
  readonly extract: string;
  /**
   * Returns the map from key to original tag, in first-seen key order; a
   * later tag with the same key replaces the earlier one, as in Flux.
   */
  apply(tags: readonly string[]): Map<string, string>;
  /** Returns the key of one tag, or undefined when the pattern does not match it. */
  keyOf(tag: string): string | undefined;
}

/**
 * Returns the compiled filter, or throws `INVALID_PATTERN` with Flux's
 * message when the pattern is not a Go regular expression.
 */
export function compileTagFilter(spec: TagFilterSpec): TagFilter {
  const pattern = spec.pattern ?? "";
  const extract = spec.extract ?? "";
  let re: GoRegexp;
  try {
    re = sharedRegexp(pattern);
  } catch (error) {
    if (!(error instanceof RegexpError)) throw error;
    throw new TagPolicyError(
      "INVALID_PATTERN",
      `failed to filter tags: invalid regular expression pattern '${pattern}': ${error.message}`,
      { input: pattern, cause: error },
    );
  }
  const template: ExpandTemplate | undefined =
    extract === "" ? undefined : re.compileTemplate(extract);
  const prefix = anchoredPrefix(pattern);
  const keyOf = makeKeyOf(re, template, prefix);
  const filter: TagFilter = {
    pattern,
    extract,
    keyOf,
    apply(tags) {
      const keys = new Map<string, string>();
      for (let i = 0; i < tags.length; i++) {
        const tag = tags[i] as string;
        const key = keyOf(tag);
        if (key !== undefined) keys.set(key, tag);
      }
      return keys;
    },
  };
  const group = template === undefined ? -1 : loneGroup(extract, re.subexpNames());
  const match = group < 0 ? undefined : new Int32Array(2 * (group + 1));
  scanners.set(filter, { re, prefix, keyOf, group, match });
  return filter;
}

/**
 * What the single-pass selection of `select.ts` needs from a filter: the
 * matcher itself, and, when the key is one group of the match (`$ts`), that
 * group's index and a position buffer, so the key can be read in place
 * without slicing it out of the tag.
 */
export interface TagScanner {
  readonly re: GoRegexp;
  readonly prefix: string;
  readonly keyOf: (tag: string) => string | undefined;
  /** The one group the key is, or -1 when the key is the tag, a constant or a longer template. */
  readonly group: number;
  /** Positions buffer for `group` (groups 0 to `group`), when `group >= 0`. */
  readonly match: Int32Array | undefined;
}

const scanners = new WeakMap<TagFilter, TagScanner>();

/** Returns the scanner behind a filter made by {@link compileTagFilter}. */
export function tagScanner(filter: TagFilter): TagScanner | undefined {
  return scanners.get(filter);
}

/**
 * The group a template is when it is exactly one reference to exactly one
 * group (`$ts`, `${1}`), else -1: the key is then that group's text, or ""
 * when the group did not take part.
 */
function loneGroup(extract: string, names: readonly string[]): number {
  const pieces = parseTemplate(extract);
  if (pieces.length !== 1) return -1;
  const piece = pieces[0] as (typeof pieces)[number];
  if (piece.kind === "number") return piece.group < names.length ? piece.group : -1;
  if (piece.kind !== "name") return -1;
  let found = -1;
  for (let i = 1; i < names.length; i++) {
    if (names[i] !== piece.name) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}

/** How many compiled patterns are kept before the table starts over. */
const REGEXP_CAPACITY = 256;
const regexps = new Map<string, GoRegexp>();

/**
 * `compileRegexp`, kept by pattern text: a controller selects with the same
 * few policies on every scan, and compiling (program, one-pass DFA) costs
 * more than filtering a small repository.
 */
export function sharedRegexp(pattern: string): GoRegexp {
  let re = regexps.get(pattern);
  if (re === undefined) {
    re = compileRegexp(pattern);
    if (regexps.size >= REGEXP_CAPACITY) regexps.clear();
    regexps.set(pattern, re);
  }
  return re;
}

/** For a pattern anchored at the start (`^main-…`), the text every matching tag starts with. */
function anchoredPrefix(pattern: string): string {
  return pattern.startsWith("^") ? requiredLiteralPrefix(pattern.slice(1)) : "";
}

function makeKeyOf(
  re: GoRegexp,
  template: ExpandTemplate | undefined,
  prefix: string,
): (tag: string) => string | undefined {
  if (template === undefined) {
    return (tag) => (tag.startsWith(prefix) && re.matchString(tag) ? tag : undefined);
  }
  if (template.maxGroup < 0) {
    const constant = template.expand("", []);
    return (tag) => (tag.startsWith(prefix) && re.matchString(tag) ? constant : undefined);
  }
  // One reusable buffer for the match positions, only as large as the
  // template's highest group (the engines record no group past it): no
  // allocation per tag, and none at all for a tag the pattern refuses.
  const match = new Int32Array(2 * (Math.min(template.maxGroup, re.numSubexp) + 1));
  return (tag) =>
    tag.startsWith(prefix) && re.findStringSubmatchIndexInto(tag, match)
      ? template.expand(tag, match)
      : undefined;
}
