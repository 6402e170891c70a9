/**
 * Character classes as Go's parser builds them: sorted `[lo, hi, …]` range
 * lists grown one range at a time (merging with the last two, as Go does,
 * so the tree matches Go's node for node), case folding by simple folds,
 * negation, and the Perl and POSIX class tables. Also the tests and merges
 * the parser applies to single-character nodes when it factors
 * alternations.
 */

import { Flag, type Node, SOp } from "./syntax-tree.js";
import { cleanRanges, maxRune, simpleFold } from "./unicode.js";

const minFold = 0x41;
const maxFold = 0x1e943;

/** Perl's `\d \s \w` and their negations: [sign, ranges]. */
export const perlGroups: Record<string, [number, number[]]> = {};
/** The POSIX `[:name:]` classes and their negations: [sign, ranges]. */
export const posixGroups: Record<string, [number, number[]]> = {};
{
  const d = [0x30, 0x39];
  const s = [0x9, 0xa, 0xc, 0xd, 0x20, 0x20];
  const w = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
  for (const [k, v] of [
    ["d", d],
    ["s", s],
    ["w", w],
  ] as const) {
    perlGroups[`\\${k}`] = [1, v];
    perlGroups[`\\${k.toUpperCase()}`] = [-1, v];
  }
  const posix: [string, number[]][] = [
    ["alnum", [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a]],
    ["alpha", [0x41, 0x5a, 0x61, 0x7a]],
    ["ascii", [0, 0x7f]],
    ["blank", [0x9, 0x9, 0x20, 0x20]],
    ["cntrl", [0, 0x1f, 0x7f, 0x7f]],
    ["digit", d],
    ["graph", [0x21, 0x7e]],
    ["lower", [0x61, 0x7a]],
    ["print", [0x20, 0x7e]],
    ["punct", [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e]],
    ["space", [0x9, 0xd, 0x20, 0x20]],
    ["upper", [0x41, 0x5a]],
    ["word", w],
    ["xdigit", [0x30, 0x39, 0x41, 0x46, 0x61, 0x66]],
  ];
  for (const [name, v] of posix) {
    posixGroups[`[:${name}:]`] = [1, v];
    posixGroups[`[:^${name}:]`] = [-1, v];
  }
}

/** Go's `appendRange`: adds lo-hi, merging with one of the last two ranges when they touch. */
export function appendRange(r: number[], lo: number, hi: number): number[] {
  const n = r.length;
  for (let i = 2; i <= 4; i += 2) {
    if (n >= i) {
      const rlo = r[n - i] as number;
      const rhi = r[n - i + 1] as number;
      if (lo <= rhi + 1 && rlo <= hi + 1) {
        if (lo < rlo) r[n - i] = lo;
        if (hi > rhi) r[n - i + 1] = hi;
        return r;
      }
    }
  }
  r.push(lo, hi);
  return r;
}

export function appendFoldedRange(r: number[], lo: number, hi: number): number[] {
  if (lo <= minFold && hi >= maxFold) return appendRange(r, lo, hi);
  if (hi < minFold || lo > maxFold) return appendRange(r, lo, hi);
  if (lo < minFold) {
    appendRange(r, lo, minFold - 1);
    lo = minFold;
  }
  if (hi > maxFold) {
    appendRange(r, maxFold + 1, hi);
    hi = maxFold;
  }
  for (let c = lo; c <= hi; c++) {
    appendRange(r, c, c);
    for (let f = simpleFold(c); f !== c; f = simpleFold(f)) appendRange(r, f, f);
  }
  return r;
}

export function appendClass(r: number[], x: readonly number[]): number[] {
  for (let i = 0; i < x.length; i += 2) appendRange(r, x[i] as number, x[i + 1] as number);
  return r;
}

export function appendFoldedClass(r: number[], x: readonly number[]): number[] {
  for (let i = 0; i < x.length; i += 2) appendFoldedRange(r, x[i] as number, x[i + 1] as number);
  return r;
}

export function appendNegatedClass(r: number[], x: readonly number[]): number[] {
  let nextLo = 0;
  for (let i = 0; i < x.length; i += 2) {
    const lo = x[i] as number;
    const hi = x[i + 1] as number;
    if (nextLo <= lo - 1) appendRange(r, nextLo, lo - 1);
    nextLo = hi + 1;
  }
  if (nextLo <= maxRune) appendRange(r, nextLo, maxRune);
  return r;
}

export function appendLiteral(r: number[], x: number, flags: number): number[] {
  return flags & Flag.FoldCase ? appendFoldedRange(r, x, x) : appendRange(r, x, x);
}

export function negateClass(r: readonly number[]): number[] {
  const out: number[] = [];
  let nextLo = 0;
  for (let i = 0; i < r.length; i += 2) {
    const lo = r[i] as number;
    const hi = r[i + 1] as number;
    if (nextLo <= lo - 1) out.push(nextLo, lo - 1);
    nextLo = hi + 1;
  }
  if (nextLo <= maxRune) out.push(nextLo, maxRune);
  return out;
}

export function minFoldRune(r: number): number {
  if (r < minFold || r > maxFold) return r;
  let min = r;
  const r0 = r;
  for (r = simpleFold(r); r !== r0; r = simpleFold(r)) if (min > r) min = r;
  return min;
}

export function isCharClass(re: Node): boolean {
  return (
    (re.op === SOp.Literal && re.runes.length === 1) ||
    re.op === SOp.CharClass ||
    re.op === SOp.AnyCharNotNL ||
    re.op === SOp.AnyChar
  );
}

export function matchRune(re: Node, r: number): boolean {
  switch (re.op) {
    case SOp.Literal:
      return re.runes.length === 1 && re.runes[0] === r;
    case SOp.CharClass:
      for (let i = 0; i < re.runes.length; i += 2) {
        if ((re.runes[i] as number) <= r && r <= (re.runes[i + 1] as number)) return true;
      }
      return false;
    case SOp.AnyCharNotNL:
      return r !== 10;
    case SOp.AnyChar:
      return true;
    default:
      return false;
  }
}

export function mergeCharClass(dst: Node, src: Node): void {
  switch (dst.op) {
    case SOp.AnyChar:
      break;
    case SOp.AnyCharNotNL:
      if (matchRune(src, 10)) dst.op = SOp.AnyChar;
      break;
    case SOp.CharClass:
      if (src.op === SOp.Literal) appendLiteral(dst.runes, src.runes[0] as number, src.flags);
      else appendClass(dst.runes, src.runes);
      break;
    case SOp.Literal: {
      if (src.runes[0] === dst.runes[0] && src.flags === dst.flags) break;
      dst.op = SOp.CharClass;
      const first = dst.runes[0] as number;
      dst.runes = [];
      appendLiteral(dst.runes, first, dst.flags);
      appendLiteral(dst.runes, src.runes[0] as number, src.flags);
      break;
    }
  }
}

export function cleanAlt(re: Node): void {
  if (re.op !== SOp.CharClass) return;
  re.runes = cleanRanges(re.runes);
  const r = re.runes;
  if (r.length === 2 && r[0] === 0 && r[1] === maxRune) {
    re.runes = [];
    re.op = SOp.AnyChar;
  } else if (r.length === 4 && r[0] === 0 && r[1] === 9 && r[2] === 11 && r[3] === maxRune) {
    re.runes = [];
    re.op = SOp.AnyCharNotNL;
  }
}
