/**
 * Filter + rank in one pass over the tags, for the alphabetical and
 * numerical policers.
 *
 * Flux maps every matching tag to its key (a later tag replaces an earlier
 * one with the same key), ranks the distinct keys and maps the winner back.
 * For these two policers only the winner matters, and it can be found while
 * filtering, with no map and, when the key is one group of the match
 * (`$ts`), without slicing the key out of any tag:
 *
 * - alphabetical: distinct keys never tie, so the winner is the greatest key
 *   (ASC) or the smallest (DESC), and its tag is the last tag with that key;
 * - numerical: Flux keeps a later value unless it is strictly smaller (ASC)
 *   or larger (DESC), so with no NaN and no two distinct keys of the same
 *   value the winner is the largest (smallest) value's key, and again its
 *   last tag.
 *
 * Whatever falls outside these cases (no tag matches, a key that is not a Go
 * float, a NaN, two distinct keys with the winning value, a winner holding a
 * character from U+D800 up, where UTF-16 and UTF-8 orders can differ) gets
 * `undefined`, and the caller runs the plain map-and-rank path, which gives
 * Flux's answer or error. So this path never decides anything on its own
 * that the plain path would decide differently.
 */
import { strconv } from "@kubeimg/core/internal";
import type { TagFilter } from "./filter.js";
import { tagScanner } from "./filter.js";
import type { Policer } from "./policers.js";
import { policerOrder } from "./policers.js";

/** A character from U+D800 up: where JavaScript's order may differ from Go's byte order. */
const highChars = /[\uD800-\uFFFF]/;

/**
 * Returns the tag Flux selects from `tags` with `filter` and `policer`, or
 * undefined when the plain path must decide (see the module comment).
 */
export function singlePassSelect(
  tags: readonly string[],
  filter: TagFilter,
  policer: Policer,
): string | undefined {
  if (policer.kind === "semver") return undefined;
  const order = policerOrder(policer);
  const scanner = tagScanner(filter);
  if (order === undefined || scanner === undefined) return undefined;
  const { re, prefix, keyOf, group, match } = scanner;
  const numerical = policer.kind === "numerical";
  const asc = order === "ASC";

  let bestTag: string | undefined;
  // The winning key so far is `bestSrc.slice(bestStart, bestEnd)`.
  let bestSrc = "";
  let bestStart = 0;
  let bestEnd = 0;
  let bestValue = 0;

  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as string;
    if (!tag.startsWith(prefix)) continue;
    let src: string;
    let start: number;
    let end: number;
    if (match !== undefined) {
      if (!re.findStringSubmatchIndexInto(tag, match)) continue;
      src = tag;
      start = match[2 * group] as number;
      end = match[2 * group + 1] as number;
      if (start < 0) {
        start = 0;
        end = 0;
      }
    } else {
      const key = keyOf(tag);
      if (key === undefined) continue;
      src = key;
      start = 0;
      end = key.length;
    }

    if (numerical) {
      const value = parseNumber(src, start, end);
      if (value === undefined || Number.isNaN(value)) return undefined;
      if (bestTag !== undefined) {
        if (asc ? value < bestValue : value > bestValue) continue;
        if (
          value === bestValue &&
          compareRanges(src, start, end, bestSrc, bestStart, bestEnd) !== 0
        )
          return undefined;
      }
      bestValue = value;
    } else if (bestTag !== undefined) {
      const c = compareRanges(src, start, end, bestSrc, bestStart, bestEnd);
      if (asc ? c < 0 : c > 0) continue;
    }
    bestTag = tag;
    bestSrc = src;
    bestStart = start;
    bestEnd = end;
  }
  if (bestTag === undefined) return undefined;
  if (!numerical && highChars.test(bestSrc.slice(bestStart, bestEnd))) return undefined;
  return bestTag;
}

/** JavaScript's string order (UTF-16 code units) of `a[as:ae]` against `b[bs:be]`, as a sign. */
function compareRanges(
  a: string,
  as: number,
  ae: number,
  b: string,
  bs: number,
  be: number,
): number {
  const la = ae - as;
  const lb = be - bs;
  const n = Math.min(la, lb);
  for (let k = 0; k < n; k++) {
    const d = a.charCodeAt(as + k) - b.charCodeAt(bs + k);
    if (d !== 0) return d;
  }
  return la - lb;
}

/**
 * Go's `strconv.ParseFloat` of `s[start:end]`, undefined when Go refuses it.
 * Up to 15 ASCII digits are read in place (an exact integer); anything else
 * is sliced out and parsed in full.
 */
function parseNumber(s: string, start: number, end: number): number | undefined {
  const n = end - start;
  if (n > 0 && n <= 15) {
    let v = 0;
    let j = start;
    for (; j < end; j++) {
      const c = s.charCodeAt(j) - 0x30;
      if (c < 0 || c > 9) break;
      v = v * 10 + c;
    }
    if (j === end) return v;
  }
  return strconv.ParseFloat(s.slice(start, end));
}
