/**
 * The parser of Go's `regexp/syntax` (Perl flags, RE2 syntax): pattern text
 * to a syntax tree, with Go's exact error reasons and fragments.
 *
 * It follows Go's parser step for step (a stack of partial expressions,
 * literal runs merged as they come, alternations factored by common
 * prefixes, the same size and nesting limits), because every one of those
 * steps can be seen from outside: in which patterns are errors, in the text
 * an error quotes, and in which programs the one-pass engine can take. Two
 * differences on purpose: `(?<name>…)` is a named group, as in Go 1.22 and
 * later, which is what Flux and the conformance vectors expect; and a
 * pattern over the size limits gets Go 1.20's reason (see `errInternal`).
 *
 * Positions are JavaScript string indexes; a code point outside the BMP
 * takes two of them. Lone surrogates are rejected before parsing.
 */
import { cleanRanges, maxRune, simpleFold, unicodeTable } from "./unicode.js";

/** Go's `syntax.Op`. The order matters: the parser compares ops. */
export enum SOp {
  NoMatch = 1,
  EmptyMatch = 2,
  Literal = 3,
  CharClass = 4,
  AnyCharNotNL = 5,
  AnyChar = 6,
  BeginLine = 7,
  EndLine = 8,
  BeginText = 9,
  EndText = 10,
  WordBoundary = 11,
  NoWordBoundary = 12,
  Capture = 13,
  Star = 14,
  Plus = 15,
  Quest = 16,
  Repeat = 17,
  Concat = 18,
  Alternate = 19,
  /** Pseudo-ops, on the parse stack only. */
  LeftParen = 128,
  VerticalBar = 129,
}

/** Go's `syntax.Flags`, the Perl subset. */
export enum Flag {
  FoldCase = 1,
  ClassNL = 4,
  DotNL = 8,
  OneLine = 16,
  NonGreedy = 32,
  PerlX = 64,
  UnicodeGroups = 128,
  WasDollar = 256,
  Perl = 4 | 16 | 64 | 128,
}

/** A node of the syntax tree (Go's `syntax.Regexp`). */
export interface Node {
  op: SOp;
  flags: number;
  sub: Node[];
  /** Literal runes, or class ranges `[lo, hi, …]`. */
  runes: number[];
  min: number;
  max: number;
  cap: number;
  name: string;
}

/** Go's `syntax.Error`: a reason (`ErrorCode`) and the text it is about. */
export class SyntaxError_ {
  constructor(
    readonly code: string,
    readonly expr: string,
  ) {}
}

const maxHeight = 1000;
const maxSize = Math.floor((128 << 20) / 40);
const maxRunes = (128 << 20) / 4;
const minFold = 0x41;
const maxFold = 0x1e943;

/**
 * Go 1.19 reports a pattern over the size limits as `regexp/syntax: internal
 * error`; Go 1.20 and later (and Flux, and the vectors) name it `expression
 * too large`. The limits are the same.
 */
const errInternal = "expression too large";
const errNesting = "expression nests too deeply";

function newNode(op: SOp): Node {
  return { op, flags: 0, sub: [], runes: [], min: 0, max: 0, cap: 0, name: "" };
}

const perlGroups: Record<string, [number, number[]]> = {};
const posixGroups: Record<string, [number, number[]]> = {};
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

const isalnum = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The code point at `i` of `s` (the caller has rejected lone surrogates). */
function runeAt(s: string, i: number): number {
  return s.codePointAt(i) as number;
}
const width = (r: number): number => (r > 0xffff ? 2 : 1);

/** Go's `appendRange`: adds lo-hi, merging with one of the last two ranges when they touch. */
function appendRange(r: number[], lo: number, hi: number): number[] {
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

function appendFoldedRange(r: number[], lo: number, hi: number): number[] {
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

function appendClass(r: number[], x: readonly number[]): number[] {
  for (let i = 0; i < x.length; i += 2) appendRange(r, x[i] as number, x[i + 1] as number);
  return r;
}

function appendFoldedClass(r: number[], x: readonly number[]): number[] {
  for (let i = 0; i < x.length; i += 2) appendFoldedRange(r, x[i] as number, x[i + 1] as number);
  return r;
}

function appendNegatedClass(r: number[], x: readonly number[]): number[] {
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

function appendLiteral(r: number[], x: number, flags: number): number[] {
  return flags & Flag.FoldCase ? appendFoldedRange(r, x, x) : appendRange(r, x, x);
}

function negateClass(r: readonly number[]): number[] {
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

function minFoldRune(r: number): number {
  if (r < minFold || r > maxFold) return r;
  let min = r;
  const r0 = r;
  for (r = simpleFold(r); r !== r0; r = simpleFold(r)) if (min > r) min = r;
  return min;
}

function isCharClass(re: Node): boolean {
  return (
    (re.op === SOp.Literal && re.runes.length === 1) ||
    re.op === SOp.CharClass ||
    re.op === SOp.AnyCharNotNL ||
    re.op === SOp.AnyChar
  );
}

function matchRune(re: Node, r: number): boolean {
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

function mergeCharClass(dst: Node, src: Node): void {
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

function cleanAlt(re: Node): void {
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

/** Go's `Regexp.Equal` (which, like Go, ignores the fold flag of literals). */
export function equalNodes(x: Node, y: Node): boolean {
  if (x.op !== y.op) return false;
  switch (x.op) {
    case SOp.EndText:
      return (x.flags & Flag.WasDollar) === (y.flags & Flag.WasDollar);
    case SOp.Literal:
    case SOp.CharClass:
      return x.runes.length === y.runes.length && x.runes.every((r, i) => r === y.runes[i]);
    case SOp.Alternate:
    case SOp.Concat:
      return (
        x.sub.length === y.sub.length && x.sub.every((s, i) => equalNodes(s, y.sub[i] as Node))
      );
    case SOp.Star:
    case SOp.Plus:
    case SOp.Quest:
      return (
        (x.flags & Flag.NonGreedy) === (y.flags & Flag.NonGreedy) &&
        equalNodes(x.sub[0] as Node, y.sub[0] as Node)
      );
    case SOp.Repeat:
      return (
        (x.flags & Flag.NonGreedy) === (y.flags & Flag.NonGreedy) &&
        x.min === y.min &&
        x.max === y.max &&
        equalNodes(x.sub[0] as Node, y.sub[0] as Node)
      );
    case SOp.Capture:
      return x.cap === y.cap && x.name === y.name && equalNodes(x.sub[0] as Node, y.sub[0] as Node);
    default:
      return true;
  }
}

function repeatIsValid(re: Node, n: number): boolean {
  if (re.op === SOp.Repeat) {
    let m = re.max;
    if (m === 0) return true;
    if (m < 0) m = re.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  for (const sub of re.sub) if (!repeatIsValid(sub, n)) return false;
  return true;
}

/** Thrown inside the parser for the two limits Go reports against the whole pattern. */
class Limit {
  constructor(readonly code: string) {}
}

class Parser {
  flags = Flag.Perl as number;
  stack: Node[] = [];
  numCap = 0;
  wholeRegexp: string;
  /** Go counts allocated nodes, reusing freed ones first; the limits start from that count. */
  numRegexp = 0;
  free = 0;
  numRunes = 0;
  repeats = 0;
  height: Map<Node, number> | undefined;
  size: Map<Node, number> | undefined;

  constructor(s: string) {
    this.wholeRegexp = s;
  }

  newRegexp(op: SOp): Node {
    if (this.free > 0) this.free--;
    else this.numRegexp++;
    return newNode(op);
  }

  reuse(re: Node): void {
    this.height?.delete(re);
    this.free++;
  }

  checkLimits(re: Node): void {
    if (this.numRunes > maxRunes) throw new Limit(errInternal);
    this.checkSize(re);
    this.checkHeight(re);
  }

  checkSize(re: Node): void {
    if (this.size === undefined) {
      if (this.repeats === 0) this.repeats = 1;
      if (re.op === SOp.Repeat) {
        let n = re.max;
        if (n === -1) n = re.min;
        if (n <= 0) n = 1;
        if (n > Math.trunc(maxSize / this.repeats)) this.repeats = maxSize;
        else this.repeats *= n;
      }
      if (this.numRegexp < Math.trunc(maxSize / this.repeats)) return;
      this.size = new Map();
      for (const r of this.stack) this.checkSize(r);
    }
    if (this.calcSize(re, true) > maxSize) throw new Limit(errInternal);
  }

  calcSize(re: Node, force: boolean): number {
    const sizes = this.size as Map<Node, number>;
    if (!force) {
      const known = sizes.get(re);
      if (known !== undefined) return known;
    }
    let size = 0;
    switch (re.op) {
      case SOp.Literal:
        size = re.runes.length;
        break;
      case SOp.Capture:
      case SOp.Star:
        size = 2 + this.calcSize(re.sub[0] as Node, false);
        break;
      case SOp.Plus:
      case SOp.Quest:
        size = 1 + this.calcSize(re.sub[0] as Node, false);
        break;
      case SOp.Concat:
        for (const sub of re.sub) size += this.calcSize(sub, false);
        break;
      case SOp.Alternate:
        for (const sub of re.sub) size += this.calcSize(sub, false);
        if (re.sub.length > 1) size += re.sub.length - 1;
        break;
      case SOp.Repeat: {
        const sub = this.calcSize(re.sub[0] as Node, false);
        if (re.max === -1) {
          size = re.min === 0 ? 2 + sub : 1 + re.min * sub;
          break;
        }
        size = re.max * sub + (re.max - re.min);
        break;
      }
    }
    if (size < 1) size = 1;
    sizes.set(re, size);
    return size;
  }

  checkHeight(re: Node): void {
    if (this.numRegexp < maxHeight) return;
    if (this.height === undefined) {
      this.height = new Map();
      for (const r of this.stack) this.checkHeight(r);
    }
    if (this.calcHeight(re, true) > maxHeight) throw new Limit(errNesting);
  }

  calcHeight(re: Node, force: boolean): number {
    const heights = this.height as Map<Node, number>;
    if (!force) {
      const known = heights.get(re);
      if (known !== undefined) return known;
    }
    let h = 1;
    for (const sub of re.sub) {
      const hs = this.calcHeight(sub, false);
      if (h < 1 + hs) h = 1 + hs;
    }
    heights.set(re, h);
    return h;
  }

  push(re: Node): Node | null {
    this.numRunes += re.runes.length;
    const r = re.runes;
    if (re.op === SOp.CharClass && r.length === 2 && r[0] === r[1]) {
      if (this.maybeConcat(r[0] as number, this.flags & ~Flag.FoldCase)) return null;
      re.op = SOp.Literal;
      re.runes = [r[0] as number];
      re.flags = this.flags & ~Flag.FoldCase;
    } else if (
      (re.op === SOp.CharClass &&
        r.length === 4 &&
        r[0] === r[1] &&
        r[2] === r[3] &&
        simpleFold(r[0] as number) === r[2] &&
        simpleFold(r[2] as number) === r[0]) ||
      (re.op === SOp.CharClass &&
        r.length === 2 &&
        (r[0] as number) + 1 === r[1] &&
        simpleFold(r[0] as number) === r[1] &&
        simpleFold(r[1] as number) === r[0])
    ) {
      if (this.maybeConcat(r[0] as number, this.flags | Flag.FoldCase)) return null;
      re.op = SOp.Literal;
      re.runes = [r[0] as number];
      re.flags = this.flags | Flag.FoldCase;
    } else {
      this.maybeConcat(-1, 0);
    }
    this.stack.push(re);
    this.checkLimits(re);
    return re;
  }

  maybeConcat(r: number, flags: number): boolean {
    const n = this.stack.length;
    if (n < 2) return false;
    const re1 = this.stack[n - 1] as Node;
    const re2 = this.stack[n - 2] as Node;
    if (
      re1.op !== SOp.Literal ||
      re2.op !== SOp.Literal ||
      (re1.flags & Flag.FoldCase) !== (re2.flags & Flag.FoldCase)
    ) {
      return false;
    }
    re2.runes.push(...re1.runes);
    if (r >= 0) {
      re1.runes = [r];
      re1.flags = flags;
      return true;
    }
    this.stack.pop();
    this.reuse(re1);
    return false;
  }

  literal(r: number): void {
    const re = this.newRegexp(SOp.Literal);
    re.flags = this.flags;
    if (this.flags & Flag.FoldCase) r = minFoldRune(r);
    re.runes = [r];
    this.push(re);
  }

  op(op: SOp): Node | null {
    const re = this.newRegexp(op);
    re.flags = this.flags;
    return this.push(re);
  }

  /** Returns the position after the operator (past a `?` that makes it non-greedy). */
  repeat(
    op: SOp,
    min: number,
    max: number,
    before: number,
    after: number,
    lastRepeat: number,
  ): number {
    let flags = this.flags;
    const s = this.wholeRegexp;
    if (this.flags & Flag.PerlX) {
      if (after < s.length && s[after] === "?") {
        after++;
        flags ^= Flag.NonGreedy;
      }
      if (lastRepeat >= 0) {
        throw new SyntaxError_("invalid nested repetition operator", s.slice(lastRepeat, after));
      }
    }
    const n = this.stack.length;
    if (n === 0)
      throw new SyntaxError_("missing argument to repetition operator", s.slice(before, after));
    const sub = this.stack[n - 1] as Node;
    if (sub.op >= SOp.LeftParen) {
      throw new SyntaxError_("missing argument to repetition operator", s.slice(before, after));
    }
    const re = this.newRegexp(op);
    re.min = min;
    re.max = max;
    re.flags = flags;
    re.sub = [sub];
    this.stack[n - 1] = re;
    this.checkLimits(re);
    if (op === SOp.Repeat && (min >= 2 || max >= 2) && !repeatIsValid(re, 1000)) {
      throw new SyntaxError_("invalid repeat count", s.slice(before, after));
    }
    return after;
  }

  concat(): Node | null {
    this.maybeConcat(-1, 0);
    let i = this.stack.length;
    while (i > 0 && (this.stack[i - 1] as Node).op < SOp.LeftParen) i--;
    const subs = this.stack.splice(i);
    if (subs.length === 0) return this.push(this.newRegexp(SOp.EmptyMatch));
    return this.push(this.collapse(subs, SOp.Concat));
  }

  alternate(): Node | null {
    let i = this.stack.length;
    while (i > 0 && (this.stack[i - 1] as Node).op < SOp.LeftParen) i--;
    const subs = this.stack.splice(i);
    if (subs.length > 0) cleanAlt(subs[subs.length - 1] as Node);
    if (subs.length === 0) return this.push(this.newRegexp(SOp.NoMatch));
    return this.push(this.collapse(subs, SOp.Alternate));
  }

  collapse(subs: Node[], op: SOp): Node {
    if (subs.length === 1) return subs[0] as Node;
    let re = this.newRegexp(op);
    for (const sub of subs) {
      if (sub.op === op) {
        re.sub.push(...sub.sub);
        this.reuse(sub);
      } else {
        re.sub.push(sub);
      }
    }
    if (op === SOp.Alternate) {
      re.sub = this.factor(re.sub);
      if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0] as Node;
        this.reuse(old);
      }
    }
    return re;
  }

  factor(sub: Node[]): Node[] {
    if (sub.length < 2) return sub;
    // Round 1: common literal prefixes.
    let str: number[] = [];
    let strflags = 0;
    let start = 0;
    let out: Node[] = [];
    for (let i = 0; i <= sub.length; i++) {
      let istr: number[] = [];
      let iflags = 0;
      if (i < sub.length) {
        [istr, iflags] = this.leadingString(sub[i] as Node);
        if (iflags === strflags) {
          let same = 0;
          while (same < str.length && same < istr.length && str[same] === istr[same]) same++;
          if (same > 0) {
            str = str.slice(0, same);
            continue;
          }
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start] as Node);
      } else {
        const prefix = this.newRegexp(SOp.Literal);
        prefix.flags = strflags;
        prefix.runes = str.slice();
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingString(sub[j] as Node, str.length);
          this.checkLimits(sub[j] as Node);
        }
        const suffix = this.collapse(sub.slice(start, i), SOp.Alternate);
        const re = this.newRegexp(SOp.Concat);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      str = istr;
      strflags = iflags;
    }
    sub = out;

    // Round 2: a common leading character class (or fixed repeat of one).
    start = 0;
    out = [];
    let first: Node | null = null;
    for (let i = 0; i <= sub.length; i++) {
      let ifirst: Node | null = null;
      if (i < sub.length) {
        ifirst = this.leadingRegexp(sub[i] as Node);
        if (
          first !== null &&
          ifirst !== null &&
          equalNodes(first, ifirst) &&
          (isCharClass(first) ||
            (first.op === SOp.Repeat &&
              first.min === first.max &&
              isCharClass(first.sub[0] as Node)))
        ) {
          continue;
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start] as Node);
      } else {
        const prefix = first as Node;
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingRegexp(sub[j] as Node, j !== start);
          this.checkLimits(sub[j] as Node);
        }
        const suffix = this.collapse(sub.slice(start, i), SOp.Alternate);
        const re = this.newRegexp(SOp.Concat);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      first = ifirst;
    }
    sub = out;

    // Round 3: runs of single characters or classes become one class.
    start = 0;
    out = [];
    for (let i = 0; i <= sub.length; i++) {
      if (i < sub.length && isCharClass(sub[i] as Node)) continue;
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start] as Node);
      } else {
        let max = start;
        for (let j = start + 1; j < i; j++) {
          const a = sub[max] as Node;
          const b = sub[j] as Node;
          if (a.op < b.op || (a.op === b.op && a.runes.length < b.runes.length)) max = j;
        }
        const tmp = sub[start] as Node;
        sub[start] = sub[max] as Node;
        sub[max] = tmp;
        for (let j = start + 1; j < i; j++) {
          mergeCharClass(sub[start] as Node, sub[j] as Node);
          this.reuse(sub[j] as Node);
        }
        cleanAlt(sub[start] as Node);
        out.push(sub[start] as Node);
      }
      if (i < sub.length) out.push(sub[i] as Node);
      start = i + 1;
    }
    sub = out;

    // Round 4: runs of empty matches become one.
    out = [];
    for (let i = 0; i < sub.length; i++) {
      if (
        i + 1 < sub.length &&
        (sub[i] as Node).op === SOp.EmptyMatch &&
        (sub[i + 1] as Node).op === SOp.EmptyMatch
      ) {
        continue;
      }
      out.push(sub[i] as Node);
    }
    return out;
  }

  leadingString(re: Node): [number[], number] {
    if (re.op === SOp.Concat && re.sub.length > 0) re = re.sub[0] as Node;
    if (re.op !== SOp.Literal) return [[], 0];
    return [re.runes, re.flags & Flag.FoldCase];
  }

  removeLeadingString(re: Node, n: number): Node {
    if (re.op === SOp.Concat && re.sub.length > 0) {
      const sub = this.removeLeadingString(re.sub[0] as Node, n);
      re.sub[0] = sub;
      if (sub.op === SOp.EmptyMatch) {
        this.reuse(sub);
        switch (re.sub.length) {
          case 0:
          case 1:
            re.op = SOp.EmptyMatch;
            re.sub = [];
            break;
          case 2: {
            const old = re;
            re = re.sub[1] as Node;
            this.reuse(old);
            break;
          }
          default:
            re.sub.shift();
        }
      }
      return re;
    }
    if (re.op === SOp.Literal) {
      re.runes = re.runes.slice(n);
      if (re.runes.length === 0) re.op = SOp.EmptyMatch;
    }
    return re;
  }

  leadingRegexp(re: Node): Node | null {
    if (re.op === SOp.EmptyMatch) return null;
    if (re.op === SOp.Concat && re.sub.length > 0) {
      const sub = re.sub[0] as Node;
      if (sub.op === SOp.EmptyMatch) return null;
      return sub;
    }
    return re;
  }

  removeLeadingRegexp(re: Node, reuse: boolean): Node {
    if (re.op === SOp.Concat && re.sub.length > 0) {
      if (reuse) this.reuse(re.sub[0] as Node);
      re.sub.shift();
      switch (re.sub.length) {
        case 0:
          re.op = SOp.EmptyMatch;
          re.sub = [];
          break;
        case 1: {
          const old = re;
          re = re.sub[0] as Node;
          this.reuse(old);
          break;
        }
      }
      return re;
    }
    if (reuse) this.reuse(re);
    return this.newRegexp(SOp.EmptyMatch);
  }

  swapVerticalBar(): boolean {
    const st = this.stack;
    const n = st.length;
    if (
      n >= 3 &&
      (st[n - 2] as Node).op === SOp.VerticalBar &&
      isCharClass(st[n - 1] as Node) &&
      isCharClass(st[n - 3] as Node)
    ) {
      let re1 = st[n - 1] as Node;
      let re3 = st[n - 3] as Node;
      if (re1.op > re3.op) {
        [re1, re3] = [re3, re1];
        st[n - 3] = re3;
      }
      mergeCharClass(re3, re1);
      this.reuse(re1);
      st.pop();
      return true;
    }
    if (n >= 2) {
      const re1 = st[n - 1] as Node;
      const re2 = st[n - 2] as Node;
      if (re2.op === SOp.VerticalBar) {
        if (n >= 3) cleanAlt(st[n - 3] as Node);
        st[n - 2] = re1;
        st[n - 1] = re2;
        return true;
      }
    }
    return false;
  }

  parseVerticalBar(): void {
    this.concat();
    if (!this.swapVerticalBar()) this.op(SOp.VerticalBar);
  }

  parseRightParen(): void {
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    const n = this.stack.length;
    if (n < 2) throw new SyntaxError_("unexpected )", this.wholeRegexp);
    const re1 = this.stack[n - 1] as Node;
    const re2 = this.stack[n - 2] as Node;
    this.stack.length = n - 2;
    if (re2.op !== SOp.LeftParen) throw new SyntaxError_("unexpected )", this.wholeRegexp);
    this.flags = re2.flags;
    if (re2.cap === 0) {
      this.push(re1);
    } else {
      re2.op = SOp.Capture;
      re2.sub = [re1];
      this.push(re2);
    }
  }

  /** Parses `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at `i`; returns the position after it. */
  parsePerlFlags(i: number): number {
    const s = this.wholeRegexp;
    const t = s.slice(i);
    if ((t.length > 4 && t[2] === "P" && t[3] === "<") || (t.length > 3 && t[2] === "<")) {
      const begin = t[2] === "<" ? 3 : 4;
      const end = t.indexOf(">");
      if (end < 0) throw new SyntaxError_("invalid named capture", t);
      const capture = t.slice(0, end + 1);
      const name = t.slice(begin, end);
      if (!isValidCaptureName(name)) throw new SyntaxError_("invalid named capture", capture);
      this.numCap++;
      const re = this.op(SOp.LeftParen) as Node;
      re.cap = this.numCap;
      re.name = name;
      return i + end + 1;
    }
    let pos = i + 2;
    let flags = this.flags;
    let sign = 1;
    let sawFlag = false;
    loop: while (pos < s.length) {
      const c = runeAt(s, pos);
      pos += width(c);
      switch (c) {
        case 0x69: // i
          flags |= Flag.FoldCase;
          sawFlag = true;
          break;
        case 0x6d: // m
          flags &= ~Flag.OneLine;
          sawFlag = true;
          break;
        case 0x73: // s
          flags |= Flag.DotNL;
          sawFlag = true;
          break;
        case 0x55: // U
          flags |= Flag.NonGreedy;
          sawFlag = true;
          break;
        case 0x2d: // -
          if (sign < 0) break loop;
          sign = -1;
          flags = ~flags;
          sawFlag = false;
          break;
        case 0x3a: // :
        case 0x29: // )
          if (sign < 0) {
            if (!sawFlag) break loop;
            flags = ~flags;
          }
          if (c === 0x3a) this.op(SOp.LeftParen);
          this.flags = flags;
          return pos;
        default:
          break loop;
      }
    }
    throw new SyntaxError_("invalid or unsupported Perl syntax", s.slice(i, pos));
  }

  /** Go's `parseInt`: [value, end] or undefined; value -1 when it is too big. */
  parseInt(i: number): [number, number] | undefined {
    const s = this.wholeRegexp;
    const c0 = s.charCodeAt(i);
    if (!(c0 >= 0x30 && c0 <= 0x39)) return undefined;
    const c1 = s.charCodeAt(i + 1);
    if (c0 === 0x30 && c1 >= 0x30 && c1 <= 0x39) return undefined;
    let j = i;
    while (j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x39) j++;
    let n = 0;
    for (let k = i; k < j; k++) {
      if (n >= 1e8) {
        n = -1;
        break;
      }
      n = n * 10 + s.charCodeAt(k) - 0x30;
    }
    return [n, j];
  }

  /** Go's `parseRepeat` at `i` (a `{`): [min, max, end] or undefined. */
  parseRepeat(i: number): [number, number, number] | undefined {
    const s = this.wholeRegexp;
    i++;
    const a = this.parseInt(i);
    if (a === undefined) return undefined;
    let [min, j] = a;
    let max: number;
    if (j >= s.length) return undefined;
    if (s[j] !== ",") {
      max = min;
    } else {
      j++;
      if (j >= s.length) return undefined;
      if (s[j] === "}") {
        max = -1;
      } else {
        const b = this.parseInt(j);
        if (b === undefined) return undefined;
        [max, j] = b;
        if (max < 0) min = -1;
      }
    }
    if (j >= s.length || s[j] !== "}") return undefined;
    return [min, max, j + 1];
  }

  /** Go's `parseEscape` at `i` (a backslash): [rune, end]. */
  parseEscape(i: number): [number, number] {
    const s = this.wholeRegexp;
    const t = i + 1;
    if (t >= s.length) throw new SyntaxError_("trailing backslash at end of expression", "");
    const [r, end] = readEscape(s, t);
    if (r < 0) throw new SyntaxError_("invalid escape sequence", s.slice(i, end));
    return [r, end];
  }

  parseClassChar(i: number, wholeClass: number): [number, number] {
    const s = this.wholeRegexp;
    if (i >= s.length) throw new SyntaxError_("missing closing ]", s.slice(wholeClass));
    if (s[i] === "\\") return this.parseEscape(i);
    const r = runeAt(s, i);
    return [r, i + width(r)];
  }

  appendGroup(r: number[], g: [number, number[]]): number[] {
    if ((this.flags & Flag.FoldCase) === 0) {
      return g[0] < 0 ? appendNegatedClass(r, g[1]) : appendClass(r, g[1]);
    }
    const tmp = cleanRanges(appendFoldedClass([], g[1]));
    return g[0] < 0 ? appendNegatedClass(r, tmp) : appendClass(r, tmp);
  }

  parsePerlClassEscape(i: number, r: number[]): number | undefined {
    const s = this.wholeRegexp;
    if ((this.flags & Flag.PerlX) === 0 || i + 1 >= s.length || s[i] !== "\\") return undefined;
    const g = perlGroups[s.slice(i, i + 2)];
    if (g === undefined) return undefined;
    this.appendGroup(r, g);
    return i + 2;
  }

  parseNamedClass(i: number, r: number[]): number | undefined {
    const s = this.wholeRegexp;
    if (s[i] !== "[" || s[i + 1] !== ":") return undefined;
    const close = s.indexOf(":]", i + 2);
    if (close < 0) return undefined;
    const name = s.slice(i, close + 2);
    const g = Object.hasOwn(posixGroups, name) ? posixGroups[name] : undefined;
    if (g === undefined) throw new SyntaxError_("invalid character class range", name);
    this.appendGroup(r, g);
    return close + 2;
  }

  parseUnicodeClass(i: number, r: number[]): number | undefined {
    const s = this.wholeRegexp;
    if (
      (this.flags & Flag.UnicodeGroups) === 0 ||
      i + 1 >= s.length ||
      s[i] !== "\\" ||
      (s[i + 1] !== "p" && s[i + 1] !== "P")
    ) {
      return undefined;
    }
    let sign = s[i + 1] === "P" ? -1 : 1;
    let t = i + 2;
    // Go reads past the end as U+FFFD of width 0: a lone `\p` is an unknown name.
    const c = t < s.length ? runeAt(s, t) : 0xfffd;
    if (t < s.length) t += width(c);
    let seq: string;
    let name: string;
    if (c !== 0x7b) {
      seq = s.slice(i, t);
      name = seq.slice(2);
    } else {
      const end = s.indexOf("}", i);
      if (end < 0) throw new SyntaxError_("invalid character class range", s.slice(i));
      seq = s.slice(i, end + 1);
      t = end + 1;
      name = s.slice(i + 3, end);
    }
    if (name !== "" && name[0] === "^") {
      sign = -sign;
      name = name.slice(1);
    }
    const found = unicodeTable(name);
    if (found === undefined) throw new SyntaxError_("invalid character class range", seq);
    if ((this.flags & Flag.FoldCase) === 0 || found.fold === undefined) {
      if (sign > 0) appendClass(r, found.table);
      else appendNegatedClass(r, found.table);
    } else {
      const tmp = cleanRanges([...found.table, ...found.fold]);
      if (sign > 0) appendClass(r, tmp);
      else appendNegatedClass(r, tmp);
    }
    return t;
  }

  parseClass(i: number): number {
    const s = this.wholeRegexp;
    let t = i + 1;
    const re = this.newRegexp(SOp.CharClass);
    re.flags = this.flags;
    let sign = 1;
    let cls: number[] = [];
    if (t < s.length && s[t] === "^") {
      sign = -1;
      t++;
      if ((this.flags & Flag.ClassNL) === 0) cls.push(10, 10);
    }
    let first = true;
    while (t >= s.length || s[t] !== "]" || first) {
      first = false;
      if (t + 2 < s.length && s[t] === "[" && s[t + 1] === ":") {
        const nt = this.parseNamedClass(t, cls);
        if (nt !== undefined) {
          t = nt;
          continue;
        }
      }
      const nu = this.parseUnicodeClass(t, cls);
      if (nu !== undefined) {
        t = nu;
        continue;
      }
      const np = this.parsePerlClassEscape(t, cls);
      if (np !== undefined) {
        t = np;
        continue;
      }
      const rng = t;
      let lo: number;
      let hi: number;
      [lo, t] = this.parseClassChar(t, i);
      hi = lo;
      if (t + 1 < s.length && s[t] === "-" && s[t + 1] !== "]") {
        t++;
        [hi, t] = this.parseClassChar(t, i);
        if (hi < lo) throw new SyntaxError_("invalid character class range", s.slice(rng, t));
      }
      if ((this.flags & Flag.FoldCase) === 0) cls = appendRange(cls, lo, hi);
      else cls = appendFoldedRange(cls, lo, hi);
    }
    t++;
    cls = cleanRanges(cls);
    if (sign < 0) cls = negateClass(cls);
    re.runes = cls;
    this.push(re);
    return t;
  }
}

/**
 * Reads the escape whose letter is at `t` (just after the backslash): [rune,
 * end], or [-1, end] when Go rejects it, `end` being how far Go read.
 */
function readEscape(s: string, t: number): [number, number] {
  const c = runeAt(s, t);
  t += width(c);
  if (c >= 0x31 && c <= 0x37) {
    const d = s.charCodeAt(t);
    if (!(d >= 0x30 && d <= 0x37)) return [-1, t];
  }
  if (c >= 0x30 && c <= 0x37) {
    let r = c - 0x30;
    for (let k = 1; k < 3; k++) {
      const d = s.charCodeAt(t);
      if (!(d >= 0x30 && d <= 0x37)) break;
      r = r * 8 + d - 0x30;
      t++;
    }
    return [r, t];
  }
  switch (c) {
    case 0x78: {
      // x
      if (t >= s.length) return [-1, t];
      let x = runeAt(s, t);
      t += width(x);
      if (x === 0x7b) {
        let nhex = 0;
        let r = 0;
        for (;;) {
          if (t >= s.length) return [-1, t];
          x = runeAt(s, t);
          t += width(x);
          if (x === 0x7d) break;
          const v = unhex(x);
          if (v < 0) return [-1, t];
          r = r * 16 + v;
          if (r > maxRune) return [-1, t];
          nhex++;
        }
        if (nhex === 0) return [-1, t];
        return [r, t];
      }
      const hi = unhex(x);
      if (t >= s.length) return [-1, t];
      const y = runeAt(s, t);
      t += width(y);
      const lo = unhex(y);
      if (hi < 0 || lo < 0) return [-1, t];
      return [hi * 16 + lo, t];
    }
    case 0x61:
      return [7, t];
    case 0x66:
      return [12, t];
    case 0x6e:
      return [10, t];
    case 0x72:
      return [13, t];
    case 0x74:
      return [9, t];
    case 0x76:
      return [11, t];
    default:
      if (c < 0x80 && !isalnum(c)) return [c, t];
  }
  return [-1, t];
}

function isValidCaptureName(name: string): boolean {
  if (name === "") return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c !== 0x5f && !isalnum(c)) return false;
  }
  return true;
}

/**
 * Parses `s` with Go's Perl flags (what `regexp.Compile` uses). Throws a
 * {@link SyntaxError_} with Go's reason and fragment when Go would reject it.
 */
export function parse(s: string): Node {
  const p = new Parser(s);
  try {
    return parseInto(p, s);
  } catch (e) {
    if (e instanceof Limit) throw new SyntaxError_(e.code, s);
    throw e;
  }
}

function parseInto(p: Parser, s: string): Node {
  let t = 0;
  let lastRepeat = -1;
  while (t < s.length) {
    let repeat = -1;
    const ch = s[t];
    switch (ch) {
      case "(":
        if (t + 1 < s.length && s[t + 1] === "?") {
          t = p.parsePerlFlags(t);
          break;
        }
        p.numCap++;
        (p.op(SOp.LeftParen) as Node).cap = p.numCap;
        t++;
        break;
      case "|":
        p.parseVerticalBar();
        t++;
        break;
      case ")":
        p.parseRightParen();
        t++;
        break;
      case "^":
        p.op(p.flags & Flag.OneLine ? SOp.BeginText : SOp.BeginLine);
        t++;
        break;
      case "$":
        if (p.flags & Flag.OneLine) {
          const re = p.op(SOp.EndText);
          if (re !== null) re.flags |= Flag.WasDollar;
        } else {
          p.op(SOp.EndLine);
        }
        t++;
        break;
      case ".":
        p.op(p.flags & Flag.DotNL ? SOp.AnyChar : SOp.AnyCharNotNL);
        t++;
        break;
      case "[":
        t = p.parseClass(t);
        break;
      case "*":
      case "+":
      case "?": {
        const before = t;
        const op = ch === "*" ? SOp.Star : ch === "+" ? SOp.Plus : SOp.Quest;
        t = p.repeat(op, 0, 0, before, t + 1, lastRepeat);
        repeat = before;
        break;
      }
      case "{": {
        const before = t;
        const parsed = p.parseRepeat(t);
        if (parsed === undefined) {
          p.literal(0x7b);
          t++;
          break;
        }
        const [min, max, after] = parsed;
        if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) {
          throw new SyntaxError_("invalid repeat count", s.slice(before, after));
        }
        t = p.repeat(SOp.Repeat, min, max, before, after, lastRepeat);
        repeat = before;
        break;
      }
      case "\\": {
        if (t + 1 < s.length) {
          const next = s[t + 1];
          if (next === "A") {
            p.op(SOp.BeginText);
            t += 2;
            break;
          }
          if (next === "b") {
            p.op(SOp.WordBoundary);
            t += 2;
            break;
          }
          if (next === "B") {
            p.op(SOp.NoWordBoundary);
            t += 2;
            break;
          }
          if (next === "C") throw new SyntaxError_("invalid escape sequence", s.slice(t, t + 2));
          if (next === "Q") {
            let end = s.indexOf("\\E", t + 2);
            const lit = end < 0 ? s.slice(t + 2) : s.slice(t + 2, end);
            end = end < 0 ? s.length : end + 2;
            for (let k = 0; k < lit.length; ) {
              const c = runeAt(lit, k);
              p.literal(c);
              k += width(c);
            }
            t = end;
            break;
          }
          if (next === "z") {
            p.op(SOp.EndText);
            t += 2;
            break;
          }
        }
        const re = p.newRegexp(SOp.CharClass);
        re.flags = p.flags;
        if (t + 1 < s.length && (s[t + 1] === "p" || s[t + 1] === "P")) {
          const r: number[] = [];
          const nt = p.parseUnicodeClass(t, r);
          if (nt !== undefined) {
            re.runes = r;
            t = nt;
            p.push(re);
            break;
          }
        }
        const r: number[] = [];
        const np = p.parsePerlClassEscape(t, r);
        if (np !== undefined) {
          re.runes = r;
          t = np;
          p.push(re);
          break;
        }
        p.reuse(re);
        const [c, nt] = p.parseEscape(t);
        t = nt;
        p.literal(c);
        break;
      }
      default: {
        const c = runeAt(s, t);
        t += width(c);
        p.literal(c);
      }
    }
    lastRepeat = repeat;
  }
  p.concat();
  if (p.swapVerticalBar()) p.stack.pop();
  p.alternate();
  if (p.stack.length !== 1) throw new SyntaxError_("missing closing )", s);
  return p.stack[0] as Node;
}

/** Go's `Regexp.MaxCap`. */
export function maxCap(re: Node): number {
  let m = re.op === SOp.Capture ? re.cap : 0;
  for (const sub of re.sub) m = Math.max(m, maxCap(sub));
  return m;
}

/** Go's `Regexp.CapNames`. */
export function capNames(re: Node): string[] {
  const names = new Array<string>(maxCap(re) + 1).fill("");
  const walk = (n: Node): void => {
    if (n.op === SOp.Capture) names[n.cap] = n.name;
    for (const sub of n.sub) walk(sub);
  };
  walk(re);
  return names;
}
