/**
 * `FamiliarMatch` of distribution/reference, and the shell-pattern matcher
 * it relies on: Go's `path.Match`.
 *
 * Pattern syntax (Go `path.Match`): `*` any run of non-`/` characters; `?`
 * one non-`/` character; `[…]` / `[^…]` a class of characters or ranges
 * `lo-hi`; `\c` the character `c`. A malformed pattern (an unclosed or empty
 * class, a trailing `\`) is an error whatever the name, exactly as upstream
 * checks the whole pattern even after a mismatch.
 *
 * @module
 */
import { ImageReferenceError } from "./errors.js";
import { familiarName, familiarString } from "./normalize.js";
import type { Reference } from "./reference.js";

const STAR = 0x2a;
const QUESTION = 0x3f;
const BACKSLASH = 0x5c;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
const CARET = 0x5e;
const DASH = 0x2d;
const SLASH = 0x2f;

/** `matchChunk` outcome: the chunk does not match here. */
const NO_MATCH = -1;
/** `matchChunk` outcome: the pattern is malformed. */
const BAD_PATTERN = -2;

/** Code units taken by the code point `c`. */
function width(c: number): number {
  return c > 0xffff ? 2 : 1;
}

/**
 * Reads one possibly escaped character of a class at `p[i]`. Returns the
 * index after it, or -1 when the pattern is malformed there; the code point
 * is left in `out[0]`.
 */
function readClassCharacter(p: string, i: number, end: number, out: number[]): number {
  if (i >= end) return -1;
  const c = p.charCodeAt(i);
  if (c === DASH || c === RIGHT_BRACKET) return -1;
  let at = i;
  if (c === BACKSLASH) {
    at++;
    if (at >= end) return -1;
  }
  const codePoint = p.codePointAt(at) as number;
  out[0] = codePoint;
  const next = at + width(codePoint);
  // A class must be closed: a character cannot end the pattern.
  return next >= end ? -1 : next;
}

/**
 * Matches the star-free chunk `p[start:end]` against the start of `s[from:]`.
 * Returns the index in `s` after the match, {@link NO_MATCH}, or
 * {@link BAD_PATTERN}. After a mismatch it keeps reading the chunk, so that
 * a malformed chunk is reported whatever the name.
 */
function matchChunk(p: string, start: number, end: number, s: string, from: number): number {
  let failed = false;
  let si = from;
  let i = start;
  const scratch = [0];
  while (i < end) {
    if (!failed && si >= s.length) failed = true;
    let c = p.charCodeAt(i);
    if (c === LEFT_BRACKET) {
      let r = 0;
      if (!failed) {
        r = s.codePointAt(si) as number;
        si += width(r);
      }
      i++;
      let negated = false;
      if (i < end && p.charCodeAt(i) === CARET) {
        negated = true;
        i++;
      }
      let matched = false;
      let ranges = 0;
      for (;;) {
        if (i < end && p.charCodeAt(i) === RIGHT_BRACKET && ranges > 0) {
          i++;
          break;
        }
        i = readClassCharacter(p, i, end, scratch);
        if (i < 0) return BAD_PATTERN;
        const lo = scratch[0] as number;
        let hi = lo;
        if (p.charCodeAt(i) === DASH) {
          i = readClassCharacter(p, i + 1, end, scratch);
          if (i < 0) return BAD_PATTERN;
          hi = scratch[0] as number;
        }
        if (lo <= r && r <= hi) matched = true;
        ranges++;
      }
      if (matched === negated) failed = true;
      continue;
    }
    if (c === QUESTION) {
      if (!failed) {
        const r = s.codePointAt(si) as number;
        if (r === SLASH) failed = true;
        si += width(r);
      }
      i++;
      continue;
    }
    if (c === BACKSLASH) {
      i++;
      if (i >= end) return BAD_PATTERN;
      c = p.charCodeAt(i);
    }
    if (!failed) {
      if (c !== s.charCodeAt(si)) failed = true;
      si++;
    }
    i++;
  }
  return failed ? NO_MATCH : si;
}

/** Returns the end of the star-free chunk starting at `p[i]` (a `*` outside a class ends it). */
function chunkEnd(p: string, i: number): number {
  let inClass = false;
  for (; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c === BACKSLASH) {
      if (i + 1 < p.length) i++;
    } else if (c === LEFT_BRACKET) inClass = true;
    else if (c === RIGHT_BRACKET) inClass = false;
    else if (c === STAR && !inClass) return i;
  }
  return p.length;
}

/**
 * Returns whether `name` matches the shell pattern, or `undefined` when the
 * pattern is malformed. Mirrors Go's `path.Match`.
 */
export function pathMatch(pattern: string, name: string): boolean | undefined {
  let p = 0;
  let s = 0;
  next: while (p < pattern.length) {
    let star = false;
    while (p < pattern.length && pattern.charCodeAt(p) === STAR) {
      p++;
      star = true;
    }
    const start = p;
    const end = chunkEnd(pattern, p);
    p = end;
    if (star && start === end) {
      // A trailing star matches the rest of the name unless it holds a '/'.
      return name.indexOf("/", s) < 0;
    }
    const t = matchChunk(pattern, start, end, name, s);
    if (t >= 0 && (t === name.length || p < pattern.length)) {
      s = t;
      continue;
    }
    if (t === BAD_PATTERN) return undefined;
    if (star) {
      // Let the star swallow one more character, never a '/'.
      for (let i = s; i < name.length && name.charCodeAt(i) !== SLASH; i++) {
        const u = matchChunk(pattern, start, end, name, i + 1);
        if (u >= 0) {
          if (p === pattern.length && u < name.length) continue;
          s = u;
          continue next;
        }
        if (u === BAD_PATTERN) return undefined;
      }
    }
    // No match: still report a malformed remainder of the pattern.
    while (p < pattern.length) {
      while (p < pattern.length && pattern.charCodeAt(p) === STAR) p++;
      const restEnd = chunkEnd(pattern, p);
      if (matchChunk(pattern, p, restEnd, "", 0) === BAD_PATTERN) return undefined;
      p = restEnd;
    }
    return false;
  }
  return s === name.length;
}

/**
 * Returns whether the reference matches a shell pattern (Go's
 * `FamiliarMatch`): the pattern is tried on {@link familiarString} and, for a
 * named reference, then on {@link familiarName}. Patterns follow Go's
 * `path.Match` (`*` never crosses `/`). Throws `BAD_PATTERN` (message
 * `syntax error in pattern`) for a malformed pattern.
 *
 * @example
 * ```ts
 * familiarMatch("library/*", parseNormalizedNamed("nginx"));    // false: familiar form is "nginx"
 * familiarMatch("ngin?", parseNormalizedNamed("nginx:1.25"));   // true, through the name
 * familiarMatch("quay.io/*\/*", parseNormalizedNamed("quay.io/a/b")); // true
 * ```
 */
export function familiarMatch(pattern: string, r: Reference): boolean {
  const matched = pathMatch(pattern, familiarString(r));
  if (matched === undefined) throw new ImageReferenceError("BAD_PATTERN", pattern);
  if (matched) return true;
  return "name" in r && pathMatch(pattern, familiarName(r)) === true;
}
