/**
 * A DFA for one-pass programs on ASCII input.
 *
 * The one-pass walk (`onepass.ts`) spends most of its steps on instructions
 * that consume nothing: alternations choosing a branch by the next
 * character, captures, `^` and `$`. For a given instruction after a consumed
 * character and a given next character, that whole walk is always the same,
 * so it is done once here, for every such instruction and every ASCII
 * character (and the end of the text): the result is a table from (state,
 * character) to the next state, with the capture slots to set on the way.
 * A tag filter then costs one table lookup per character, and a tag that
 * does not match stops at its first wrong character.
 *
 * Only programs whose empty-width assertions are `^` and `$` at the text's
 * ends (no `\b`, no multi-line anchors) qualify, since those depend on
 * nothing but the position. Non-ASCII input goes back to the walk.
 */
import { EmptyOp, Op } from "./program.js";

/** The flat one-pass tables the DFA is built from (see `onepass.ts`). */
export interface OnePassTables {
  readonly ops: Int8Array;
  readonly out: Int32Array;
  readonly arg: Int32Array;
  /** Per instruction, 128 entries: does the rune instruction accept this ASCII character? */
  readonly accept: Uint8Array;
  /** Per instruction, 128 entries: the branch an alternation takes on this ASCII character. */
  readonly next: Int32Array;
  readonly start: number;
  /** The branch an alternation takes on a rune outside the tables (here: the end of text, -1). */
  step(pc: number, rune: number): number;
}

/** A compiled DFA: `trans[state * COLUMNS + column]` is a state, {@link FAIL} or {@link MATCH}. */
export interface OnePassDfa {
  readonly trans: Int32Array;
  /** Capture slots of transition k are `slots[from[k] .. from[k + 1])`. */
  readonly from: Int32Array;
  readonly slots: Int32Array;
}

const FAIL = -1;
const MATCH = -2;
/** 128 ASCII characters, then the end of the text. */
const COLUMNS = 129;
const END = 128;
/** Larger programs keep the walk: the table would cost more than it saves. */
const MAX_INSTRUCTIONS = 1024;

/** Returns the DFA of a one-pass program, or undefined when it does not qualify. */
export function buildDfa(t: OnePassTables): OnePassDfa | undefined {
  const n = t.ops.length;
  if (n > MAX_INSTRUCTIONS) return undefined;
  for (let pc = 0; pc < n; pc++) {
    if (
      t.ops[pc] === Op.EmptyWidth &&
      (t.arg[pc] as number) & ~(EmptyOp.BeginText | EmptyOp.EndText)
    )
      return undefined;
  }
  // State 0 is the start (the only one where ^ holds); others are an instruction after a character.
  const stateOf = new Map<number, number>();
  const pcs: number[] = [t.start];
  const trans: number[] = [];
  const from: number[] = [0];
  const slots: number[] = [];
  for (let state = 0; state < pcs.length; state++) {
    for (let column = 0; column < COLUMNS; column++) {
      const rune = column === END ? -1 : column;
      let pc = pcs[state] as number;
      let target: number | undefined;
      for (let steps = 0; target === undefined; steps++) {
        if (steps > n) return undefined; // a loop that consumes nothing
        const op = t.ops[pc];
        if (op === Op.Rune || op === Op.Rune1 || op === Op.RuneAny || op === Op.RuneAnyNotNL) {
          const ok =
            rune >= 0 &&
            (op === Op.RuneAny ||
              (op === Op.RuneAnyNotNL ? rune !== 10 : t.accept[pc * 128 + rune] === 1));
          if (!ok) target = FAIL;
          else {
            const after = t.out[pc] as number;
            let s = stateOf.get(after);
            if (s === undefined) {
              s = pcs.length;
              stateOf.set(after, s);
              pcs.push(after);
            }
            target = s;
          }
        } else if (op === Op.Alt || op === Op.AltMatch) {
          pc = rune >= 0 ? (t.next[pc * 128 + rune] as number) : t.step(pc, rune);
        } else if (op === Op.Capture) {
          slots.push(t.arg[pc] as number);
          pc = t.out[pc] as number;
        } else if (op === Op.EmptyWidth) {
          const holds = (state === 0 ? EmptyOp.BeginText : 0) | (rune < 0 ? EmptyOp.EndText : 0);
          if ((t.arg[pc] as number) & ~holds) target = FAIL;
          else pc = t.out[pc] as number;
        } else if (op === Op.Nop) {
          pc = t.out[pc] as number;
        } else if (op === Op.Match) {
          target = MATCH;
        } else {
          target = FAIL;
        }
      }
      trans.push(target);
      from.push(slots.length);
    }
  }
  return {
    trans: Int32Array.from(trans),
    from: Int32Array.from(from),
    slots: Int32Array.from(slots),
  };
}

/**
 * Runs the DFA on `s` from its start, with the walk's contract (see
 * `OnePassMatcher.exec`); undefined when `s` has a non-ASCII character.
 */
export function runDfa(
  dfa: OnePassDfa,
  s: string,
  cap: Int32Array,
  ncap: number,
): boolean | undefined {
  const { trans, from, slots } = dfa;
  for (let i = 0; i < ncap; i++) cap[i] = -1;
  const end = s.length;
  let state = 0;
  for (let pos = 0; ; pos++) {
    let column = END;
    if (pos < end) {
      column = s.charCodeAt(pos);
      if (column >= 128) return undefined;
    }
    const k = state * COLUMNS + column;
    for (let j = from[k] as number, stop = from[k + 1] as number; j < stop; j++) {
      const slot = slots[j] as number;
      if (slot < ncap) cap[slot] = pos;
    }
    const target = trans[k] as number;
    if (target >= 0) {
      state = target;
      continue;
    }
    if (target === MATCH) {
      if (ncap > 0) {
        cap[0] = 0;
        if (ncap > 1) cap[1] = pos;
      }
      return true;
    }
    return false;
  }
}
