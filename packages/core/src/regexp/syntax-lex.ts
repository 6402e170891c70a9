/**
 * The pieces of a pattern Go's parser reads without touching its stack:
 * escapes, repeat counts, and whole character classes with their named
 * (POSIX), Perl and Unicode groups. Each reads from an index and returns
 * what it read and where it stopped, with Go's error reason and fragment.
 */
import {
  appendClass,
  appendFoldedClass,
  appendFoldedRange,
  appendNegatedClass,
  appendRange,
  negateClass,
  perlGroups,
  posixGroups,
} from "./char-class.js";
import { Flag, SyntaxError_ } from "./syntax-tree.js";
import { cleanRanges, maxRune, unicodeTable } from "./unicode.js";

export const isalnum = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The code point at `i` of `s` (the caller has rejected lone surrogates). */
export function runeAt(s: string, i: number): number {
  return s.codePointAt(i) as number;
}
export const width = (r: number): number => (r > 0xffff ? 2 : 1);

/** Go's `parseInt`: [value, end] or undefined; value -1 when it is too big. */
function parseGoInt(s: string, i: number): [number, number] | undefined {
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
export function parseRepeat(s: string, i: number): [number, number, number] | undefined {
  i++;
  const a = parseGoInt(s, i);
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
      const b = parseGoInt(s, j);
      if (b === undefined) return undefined;
      [max, j] = b;
      if (max < 0) min = -1;
    }
  }
  if (j >= s.length || s[j] !== "}") return undefined;
  return [min, max, j + 1];
}

/** Go's `parseEscape` at `i` (a backslash): [rune, end]. */
export function parseEscape(s: string, i: number): [number, number] {
  const t = i + 1;
  if (t >= s.length) throw new SyntaxError_("trailing backslash at end of expression", "");
  const [r, end] = readEscape(s, t);
  if (r < 0) throw new SyntaxError_("invalid escape sequence", s.slice(i, end));
  return [r, end];
}

function parseClassChar(s: string, i: number, wholeClass: number): [number, number] {
  if (i >= s.length) throw new SyntaxError_("missing closing ]", s.slice(wholeClass));
  if (s[i] === "\\") return parseEscape(s, i);
  const r = runeAt(s, i);
  return [r, i + width(r)];
}

function appendGroup(flags: number, r: number[], g: [number, number[]]): number[] {
  if ((flags & Flag.FoldCase) === 0) {
    return g[0] < 0 ? appendNegatedClass(r, g[1]) : appendClass(r, g[1]);
  }
  const tmp = cleanRanges(appendFoldedClass([], g[1]));
  return g[0] < 0 ? appendNegatedClass(r, tmp) : appendClass(r, tmp);
}

export function parsePerlClassEscape(
  s: string,
  flags: number,
  i: number,
  r: number[],
): number | undefined {
  if ((flags & Flag.PerlX) === 0 || i + 1 >= s.length || s[i] !== "\\") return undefined;
  const g = perlGroups[s.slice(i, i + 2)];
  if (g === undefined) return undefined;
  appendGroup(flags, r, g);
  return i + 2;
}

function parseNamedClass(s: string, flags: number, i: number, r: number[]): number | undefined {
  if (s[i] !== "[" || s[i + 1] !== ":") return undefined;
  const close = s.indexOf(":]", i + 2);
  if (close < 0) return undefined;
  const name = s.slice(i, close + 2);
  const g = Object.hasOwn(posixGroups, name) ? posixGroups[name] : undefined;
  if (g === undefined) throw new SyntaxError_("invalid character class range", name);
  appendGroup(flags, r, g);
  return close + 2;
}

export function parseUnicodeClass(
  s: string,
  flags: number,
  i: number,
  r: number[],
): number | undefined {
  if (
    (flags & Flag.UnicodeGroups) === 0 ||
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
  if ((flags & Flag.FoldCase) === 0 || found.fold === undefined) {
    if (sign > 0) appendClass(r, found.table);
    else appendNegatedClass(r, found.table);
  } else {
    const tmp = cleanRanges([...found.table, ...found.fold]);
    if (sign > 0) appendClass(r, tmp);
    else appendNegatedClass(r, tmp);
  }
  return t;
}

export function readClass(s: string, flags: number, i: number): [number[], number] {
  let t = i + 1;
  let sign = 1;
  let cls: number[] = [];
  if (t < s.length && s[t] === "^") {
    sign = -1;
    t++;
    if ((flags & Flag.ClassNL) === 0) cls.push(10, 10);
  }
  let first = true;
  while (t >= s.length || s[t] !== "]" || first) {
    first = false;
    if (t + 2 < s.length && s[t] === "[" && s[t + 1] === ":") {
      const nt = parseNamedClass(s, flags, t, cls);
      if (nt !== undefined) {
        t = nt;
        continue;
      }
    }
    const nu = parseUnicodeClass(s, flags, t, cls);
    if (nu !== undefined) {
      t = nu;
      continue;
    }
    const np = parsePerlClassEscape(s, flags, t, cls);
    if (np !== undefined) {
      t = np;
      continue;
    }
    const rng = t;
    let lo: number;
    let hi: number;
    [lo, t] = parseClassChar(s, t, i);
    hi = lo;
    if (t + 1 < s.length && s[t] === "-" && s[t + 1] !== "]") {
      t++;
      [hi, t] = parseClassChar(s, t, i);
      if (hi < lo) throw new SyntaxError_("invalid character class range", s.slice(rng, t));
    }
    if ((flags & Flag.FoldCase) === 0) cls = appendRange(cls, lo, hi);
    else cls = appendFoldedRange(cls, lo, hi);
  }
  t++;
  cls = cleanRanges(cls);
  if (sign < 0) cls = negateClass(cls);
  return [cls, t];
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
