/**
 * Go's Unicode facts for the regexp engine: the `\p{…}` tables and simple
 * case folding (`unicode.SimpleFold`), decoded on first use from the compact
 * tables in `unicode-data.ts` (Unicode 13.0.0, Go 1.19's edition). Never the
 * JavaScript runtime's own `\p{…}` support, whose Unicode edition varies.
 *
 * A character class is a sorted array of inclusive code point ranges,
 * `[lo0, hi0, lo1, hi1, …]`, as in Go's `regexp/syntax`.
 */
import {
  caseOrbit,
  caseRanges,
  categoryIds,
  categoryLengths,
  categoryNames,
  foldNames,
  scriptIds,
  scriptLengths,
  scriptNames,
} from "./unicode-data.js";

export const maxRune = 0x10ffff;

/** Decodes the numbers of a table string (5 bits per character, bit 5 = more follows). */
function decode(text: string): number[] {
  const out: number[] = [];
  let n = 0;
  let scale = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c >= 97 ? c - 71 : c >= 65 ? c - 65 : c >= 48 ? c + 4 : c === 43 ? 62 : 63;
    n += (v & 31) * scale;
    if (v < 32) {
      out.push(n);
      n = 0;
      scale = 1;
    } else {
      scale *= 32;
    }
  }
  return out;
}

/** Per table name, its ranges: built from the runs of one property on first use. */
function runTables(names: string, lengths: string, ids: string): Map<string, number[]> {
  const list = names.split(" ");
  const byId: number[][] = list.map(() => []);
  const idOf = decode(ids);
  let c = 0;
  decode(lengths).forEach((v, k) => {
    const id = idOf[k] as number;
    if (id > 0) {
      // Adjacent runs of one id never occur, so each run is its own range.
      (byId[id - 1] as number[]).push(c, c + v);
    }
    c += v + 1;
  });
  const out = new Map<string, number[]>();
  list.forEach((name, i) => {
    out.set(name, byId[i] as number[]);
  });
  return out;
}

let categories: Map<string, number[]> | undefined;
let scripts: Map<string, number[]> | undefined;

/** Merges sorted-or-not ranges into a clean class. */
export function cleanRanges(r: number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < r.length; i += 2) pairs.push([r[i] as number, r[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const n = out.length;
    if (n > 0 && lo <= (out[n - 1] as number) + 1) {
      if (hi > (out[n - 1] as number)) out[n - 1] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

function categoryTable(name: string): number[] | undefined {
  categories ??= runTables(categoryNames, categoryLengths, categoryIds);
  const known = categories.get(name);
  if (known !== undefined || name.length !== 1) return known;
  {
    const parts: number[] = [];
    for (const [leaf, ranges] of categories) if (leaf[0] === name) parts.push(...ranges);
    if (parts.length === 0) return undefined;
    const merged = cleanRanges(parts);
    categories.set(name, merged);
    return merged;
  }
}

/**
 * Returns Go's table for a `\p{name}` (Go's `unicodeTable`): the ranges, and
 * the extra code points that fold to them (undefined when Go has no fold
 * table for that name); undefined when the name is unknown.
 */
export function unicodeTable(
  name: string,
): { table: number[]; fold: number[] | undefined } | undefined {
  if (name === "Any") return { table: [0, maxRune], fold: [0, maxRune] };
  if (!/^[A-Za-z_]+$/.test(name)) return undefined;
  scripts ??= runTables(scriptNames, scriptLengths, scriptIds);
  const table = categoryTable(name) ?? scripts.get(name);
  if (table === undefined) return undefined;
  const fold = foldNames.split(" ").includes(name) ? foldOf(table) : undefined;
  return { table, fold };
}

/**
 * Go's `FoldCategory` / `FoldScript` table for `table`: the code points
 * outside it that simple folding makes equivalent to one inside it. Every
 * code point with a case mapping lies in a `CaseRanges` row or `caseOrbit`.
 */
function foldOf(table: readonly number[]): number[] {
  const rows = loadedCases();
  const candidates: number[] = [];
  for (let i = 0; i < rows.length; i += 5) {
    for (let c = rows[i] as number; c <= (rows[i + 1] as number); c++) candidates.push(c);
  }
  for (const c of orbitFrom as Int32Array) candidates.push(c);
  const out: number[] = [];
  for (const c of candidates) {
    if (inClass(table, c)) continue;
    for (let f = simpleFold(c); f !== c; f = simpleFold(f)) {
      if (inClass(table, f)) {
        out.push(c, c);
        break;
      }
    }
  }
  return cleanRanges(out);
}

/** True when `c` is in the clean class `r`. */
function inClass(r: readonly number[], c: number): boolean {
  let lo = 0;
  let hi = r.length / 2;
  while (lo < hi) {
    const m = lo + ((hi - lo) >> 1);
    if (c < (r[2 * m] as number)) hi = m;
    else if (c > (r[2 * m + 1] as number)) lo = m + 1;
    else return true;
  }
  return false;
}

/** `CaseRanges` as flat rows of five: lo, hi, upper, lower, title deltas. */
let cases: Int32Array | undefined;
/** `caseOrbit` as from/to pairs. */
let orbitFrom: Int32Array | undefined;
let orbitTo: Int32Array | undefined;
const unzigzag = (n: number): number => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

function loadedCases(): Int32Array {
  cases ??= loadCases();
  return cases;
}

function loadCases(): Int32Array {
  const nums = decode(caseRanges);
  const rows = new Int32Array(nums.length);
  let prev = -1;
  for (let i = 0; i < nums.length; i += 5) {
    const lo = prev + 1 + (nums[i] as number);
    const hi = lo + (nums[i + 1] as number);
    rows[i] = lo;
    rows[i + 1] = hi;
    for (let k = 2; k < 5; k++) rows[i + k] = unzigzag(nums[i + k] as number);
    prev = hi;
  }
  const pairs = decode(caseOrbit);
  orbitFrom = new Int32Array(pairs.length / 2);
  orbitTo = new Int32Array(pairs.length / 2);
  let from = -1;
  for (let i = 0; i < pairs.length; i += 2) {
    from = from + 1 + (pairs[i] as number);
    orbitFrom[i / 2] = from;
    orbitTo[i / 2] = from + unzigzag(pairs[i + 1] as number);
  }
  return rows;
}

/** Go's `unicode.to`: the mapping of `r` in case `which` (0 upper, 1 lower, 2 title). */
function toCase(which: number, r: number): number {
  cases ??= loadCases();
  const rows = cases;
  let lo = 0;
  let hi = rows.length / 5;
  while (lo < hi) {
    const m = lo + ((hi - lo) >> 1);
    const base = m * 5;
    const rlo = rows[base] as number;
    const rhi = rows[base + 1] as number;
    if (rlo <= r && r <= rhi) {
      const delta = rows[base + 2 + which] as number;
      if (delta > maxRune) {
        // UpperLower: alternate upper (even offset from lo) and lower.
        return rlo + (((r - rlo) & ~1) | (which & 1));
      }
      return r + delta;
    }
    if (r < rlo) hi = m;
    else lo = m + 1;
  }
  return r;
}

/**
 * Go's `unicode.SimpleFold`: the next code point, in increasing order with
 * wrap-around, that is equivalent to `r` under simple case folding.
 */
export function simpleFold(r: number): number {
  if (r < 0 || r > maxRune) return r;
  if (r < 0x80) {
    if (r >= 0x41 && r <= 0x5a) return r === 0x4b || r === 0x53 ? orbitOf(r) : r + 32;
    if (r >= 0x61 && r <= 0x7a) return r === 0x6b || r === 0x73 ? orbitOf(r) : r - 32;
    return r;
  }
  return orbitOf(r);
}

function orbitOf(r: number): number {
  cases ??= loadCases();
  const from = orbitFrom as Int32Array;
  let lo = 0;
  let hi = from.length;
  while (lo < hi) {
    const m = lo + ((hi - lo) >> 1);
    if ((from[m] as number) < r) lo = m + 1;
    else hi = m;
  }
  if (lo < from.length && from[lo] === r) return (orbitTo as Int32Array)[lo] as number;
  const l = toCase(1, r);
  if (l !== r) return l;
  return toCase(0, r);
}

/** Exposed for the tests: `unicode.ToUpper` and `unicode.ToLower` over Go's tables. */
export const caseMapping = {
  upper: (r: number) => toCase(0, r),
  lower: (r: number) => toCase(1, r),
};
