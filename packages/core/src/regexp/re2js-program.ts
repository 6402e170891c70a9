/**
 * What both fast executors (`backtrack.ts`, `onepass.ts`) read of a program
 * compiled by the pinned re2js 2.10.0: its instruction opcodes and Go's
 * empty-width assertion bits. Internal to the regexp concept.
 */

/** re2js instruction opcodes (`Inst`): Go's `syntax.InstOp` plus one. */
export const ALT = 1;
export const ALT_MATCH = 2;
export const CAPTURE = 3;
export const EMPTY_WIDTH = 4;
export const FAIL = 5;
export const MATCH = 6;
export const NOP = 7;
export const RUNE = 8;
export const RUNE1 = 9;
export const RUNE_ANY = 10;
export const RUNE_ANY_NOT_NL = 11;

/** Go's `syntax.EmptyOp` bits. */
export const EMPTY_BEGIN_LINE = 1;
export const EMPTY_END_LINE = 2;
export const EMPTY_BEGIN_TEXT = 4;
export const EMPTY_END_TEXT = 8;
export const EMPTY_WORD_BOUNDARY = 16;
export const EMPTY_NO_WORD_BOUNDARY = 32;

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
 * emptyOpContext(-1, 0x61); // EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE | EMPTY_WORD_BOUNDARY
 * ```
 */
export function emptyOpContext(r1: number, r2: number): number {
  let op = 0;
  if (r1 < 0) op |= EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE;
  if (r1 === 10) op |= EMPTY_BEGIN_LINE;
  if (r2 < 0) op |= EMPTY_END_TEXT | EMPTY_END_LINE;
  if (r2 === 10) op |= EMPTY_END_LINE;
  op |= isWordChar(r1) !== isWordChar(r2) ? EMPTY_WORD_BOUNDARY : EMPTY_NO_WORD_BOUNDARY;
  return op;
}
