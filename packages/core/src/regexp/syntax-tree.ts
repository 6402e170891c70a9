/**
 * The syntax tree of Go's `regexp/syntax`: its ops and flags, the node the
 * parser builds and the compiler reads, and the questions asked of a
 * finished tree (equality, capture count and names). Kept apart from the
 * parser so the compiler and the one-pass analysis depend on the tree only.
 */
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

/** A fresh node of `op` (the parser counts the ones it allocates). */
export function newNode(op: SOp): Node {
  return { op, flags: 0, sub: [], runes: [], min: 0, max: 0, cap: 0, name: "" };
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
