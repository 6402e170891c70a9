/**
 * What both fast executors (`backtrack.ts`, `onepass.ts`) read of a program
 * compiled by the pinned re2js 2.10.0: its instruction opcodes and Go's
 * empty-width assertion bits. Internal to the regexp concept.
 */

/**
 * re2js instruction opcodes (`Inst`): Go's `syntax.InstOp` plus one. An enum
 * rather than module constants: the bundler writes enum members into the
 * executors as literals, where bundled constants would be variables that the
 * hot loops reload on every comparison.
 */
export enum Op {
  Alt = 1,
  AltMatch = 2,
  Capture = 3,
  EmptyWidth = 4,
  Fail = 5,
  Match = 6,
  Nop = 7,
  Rune = 8,
  Rune1 = 9,
  RuneAny = 10,
  RuneAnyNotNL = 11,
}

/** Go's `syntax.EmptyOp` bits (an enum for the reason {@link Op} is). */
export enum EmptyOp {
  BeginLine = 1,
  EndLine = 2,
  BeginText = 4,
  EndText = 8,
  WordBoundary = 16,
  NoWordBoundary = 32,
}

/** Go's `syntax.IsWordChar`: ASCII letters, digits and `_`. */
function isWordChar(r: number): boolean {
  return (
    (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a) || r === 0x5f
  );
}

/**
 * Returns the empty-width assertions that hold between `r1` and `r2` (-1 at
 * either end of the text), as Go's `syntax.EmptyOpContext` does.
 *
 * @example
 * ```ts
 * emptyOpContext(-1, 0x61); // EmptyOp.BeginText | EmptyOp.BeginLine | EmptyOp.WordBoundary
 * ```
 */
export function emptyOpContext(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= EmptyOp.BeginText | EmptyOp.BeginLine;
  if (r1 === 10) op |= EmptyOp.BeginLine;
  if (r2 < 0) op |= EmptyOp.EndText | EmptyOp.EndLine;
  if (r2 === 10) op |= EmptyOp.EndLine;
  op |= isWordChar(r1) !== isWordChar(r2) ? EmptyOp.WordBoundary : EmptyOp.NoWordBoundary;
  return op;
}
