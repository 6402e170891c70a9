/**
 * A lazily built DFA that answers "is there a match?" (Go's `MatchString`)
 * without captures, for patterns no faster engine takes: an unanchored
 * `.*-rc.*`, a routing rule's `(nginx|pause):[0-9]`, `(?i)alpine`.
 *
 * Go answers these with its backtracker or Pike VM, which keep a thread per
 * instruction at every character. Whether a match exists does not depend on
 * thread priority, so the set of live instructions is all that matters, and
 * each set seen becomes one DFA state, built on first use and cached with its
 * transitions (ASCII in a table, other characters in a map). Each character
 * then costs one lookup. The answer is the Pike VM's, and the time stays
 * linear: a state is built at most once per character of the input.
 *
 * Only `\A`/`^` at the start and `\z`/`$` at the end of the text are
 * understood; a pattern with another assertion (`(?m)`, `\b`) or one whose
 * states grow past a bound is declined, and the caller uses its other
 * engines.
 */
import { EmptyOp, type Inst, Op, type Prog } from "./program.js";

/** States kept before the DFA gives up (each holds a 128-entry ASCII table). */
const maxStates = 2000;

interface State {
  /** Instructions waiting for a character. */
  readonly runes: readonly number[];
  /** `$`/`\z` instructions waiting for the end of the text. */
  readonly ends: readonly number[];
  /** A match ends here. */
  readonly match: boolean;
  /** Next state per non-ASCII character. */
  readonly other: Map<number, number>;
}

/** A state's {@link flags}: a match ends here, or (anchored) nothing can match any more. */
const matchFlag = 1;
const deadFlag = 2;

class Unsupported extends Error {}

/** A match-only DFA for one program. */
export interface MatchDfa {
  /** Whether the program matches anywhere in `s`; undefined when the DFA grew too large. */
  test(s: string): boolean | undefined;
  /** Characters read and instructions visited building states in the last call (for tests of the linear bound). */
  steps(): number;
}

/** Returns the DFA for `prog`, or undefined when the program has assertions it does not handle. */
export function compileMatchDfa(prog: Prog, cond: number): MatchDfa | undefined {
  const insts = prog.inst;
  if (cond === -1) return { test: () => false, steps: () => 0 };
  for (const inst of insts) {
    if (inst.op === Op.EmptyWidth && (inst.arg & ~(EmptyOp.BeginText | EmptyOp.EndText)) !== 0) {
      return undefined;
    }
  }
  const anchored = (cond & EmptyOp.BeginText) !== 0;
  const states: State[] = [];
  const index = new Map<string, number>();
  /** Next state per state and ASCII character, at state * 128 + character (-1: not built yet). */
  let ascii = new Int32Array(128 * 16).fill(-1);
  let flags = new Uint8Array(16);
  const mark = new Int32Array(insts.length);
  let generation = 0;
  let steps = 0;

  /** The state of the instructions reachable from `seeds` without reading a character. */
  const closure = (seeds: readonly number[], atStart: boolean, atEnd: boolean) => {
    generation++;
    const runes: number[] = [];
    const ends: number[] = [];
    let match = false;
    const stack = seeds.slice().reverse();
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (pc === 0 || mark[pc] === generation) continue;
      mark[pc] = generation;
      steps++;
      const i = insts[pc] as Inst;
      switch (i.op) {
        case Op.Alt:
        case Op.AltMatch:
          stack.push(i.arg, i.out);
          break;
        case Op.Nop:
        case Op.Capture:
          stack.push(i.out);
          break;
        case Op.EmptyWidth:
          if ((i.arg & EmptyOp.BeginText) !== 0 && !atStart) break;
          if ((i.arg & EmptyOp.EndText) !== 0 && !atEnd) ends.push(pc);
          else stack.push(i.out);
          break;
        case Op.Match:
          match = true;
          break;
        case Op.Fail:
          break;
        default:
          runes.push(pc);
      }
    }
    return { runes, ends, match };
  };

  const intern = (c: { runes: number[]; ends: number[]; match: boolean }): number => {
    const key = `${c.runes.join(",")}|${c.ends.join(",")}|${c.match ? 1 : 0}`;
    const known = index.get(key);
    if (known !== undefined) return known;
    if (states.length >= maxStates) throw new Unsupported();
    const id = states.length;
    states.push({ ...c, other: new Map() });
    index.set(key, id);
    if (flags.length <= id) {
      const grownFlags = new Uint8Array(flags.length * 2);
      grownFlags.set(flags);
      flags = grownFlags;
      const grown = new Int32Array(ascii.length * 2).fill(-1);
      grown.set(ascii);
      ascii = grown;
    }
    flags[id] = c.match
      ? matchFlag
      : anchored && c.runes.length === 0 && c.ends.length === 0
        ? deadFlag
        : 0;
    return id;
  };

  const matches = (i: Inst, r: number): boolean => {
    switch (i.op) {
      case Op.Rune1:
        return r === i.runes[0];
      case Op.RuneAny:
        return true;
      case Op.RuneAnyNotNL:
        return r !== 10;
      default:
        return i.matchRune(r);
    }
  };

  const step = (from: number, r: number): number => {
    const st = states[from] as State;
    const seeds: number[] = [];
    for (const pc of st.runes) {
      const i = insts[pc] as Inst;
      if (matches(i, r)) seeds.push(i.out);
    }
    if (!anchored) seeds.push(prog.start);
    const next = intern(closure(seeds, false, false));
    if (r < 128) ascii[from * 128 + r] = next;
    else st.other.set(r, next);
    return next;
  };

  /** True when a `$` waiting in `st` holds at the end of the text. */
  const endMatches = (st: State, atStart: boolean): boolean => {
    if (st.match) return true;
    if (st.ends.length === 0) return false;
    const seeds = st.ends.map((pc) => (insts[pc] as Inst).out);
    return closure(seeds, atStart, true).match;
  };

  let start = -1;
  let broken = false;
  return {
    steps: () => steps,
    test(s: string): boolean | undefined {
      steps = 0;
      if (broken) return undefined;
      try {
        if (start < 0) start = intern(closure([prog.start], true, false));
        let cur = start;
        const n = s.length;
        for (let pos = 0; pos < n; ) {
          const f = flags[cur] as number;
          // A match, or (anchored) no thread left that any character could revive.
          if (f !== 0) {
            steps += pos;
            return f === matchFlag;
          }
          let r = s.charCodeAt(pos++);
          if (r < 128) {
            const next = ascii[cur * 128 + r] as number;
            cur = next >= 0 ? next : step(cur, r);
            continue;
          }
          if (r >= 0xd800 && r <= 0xdbff && pos < n) {
            const lo = s.charCodeAt(pos);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
              r = (r - 0xd800) * 1024 + (lo - 0xdc00) + 0x10000;
              pos++;
            }
          }
          cur = (states[cur] as State).other.get(r) ?? step(cur, r);
        }
        steps += n;
        return endMatches(states[cur] as State, n === 0);
      } catch (e) {
        if (!(e instanceof Unsupported)) throw e;
        broken = true;
        states.length = 0;
        index.clear();
        ascii = new Int32Array(0);
        return undefined;
      }
    },
  };
}
