/**
 * Go's bit-state backtracker, for short inputs.
 *
 * For a pattern that is not one-pass, Go finds the leftmost-first match of a
 * short input with a backtracker that remembers every (instruction,
 * position) pair it has visited, so it never does the same work twice and
 * stays linear: `backtrack.go`. This module runs the same algorithm over
 * flat tables and typed arrays reused from call to call. Tests hold it to
 * the Pike VM.
 *
 * Like Go, it only takes programs of at most 500 instructions and inputs of
 * at most 256 Ki bits of visited state; the caller uses the Pike VM beyond
 * that.
 */

import { EmptyOp, emptyOpContext, type Inst, Op, type Prog } from "./program.js";

/** Go's `maxBacktrackProg` and `maxBacktrackVector`. */
const maxBacktrackProg = 500;
const maxBacktrackVector = 256 * 1024;

/** The empty-width context at `pos` of `s` (Go's `inputString.context`). */
function contextAt(s: string, pos: number): number {
  const r1 = pos > 0 && pos <= s.length ? s.charCodeAt(pos - 1) : -1;
  const r2 = pos < s.length ? s.charCodeAt(pos) : -1;
  return emptyOpContext(r1, r2);
}

/** A backtracker compiled to flat tables. */
export interface BacktrackMatcher {
  /** The longest input (in UTF-16 units) this matcher takes; longer ones go to the Pike VM. */
  readonly maxLength: number;
  /**
   * Finds the leftmost-first match in `s`. Returns true on a match; then
   * `cap[0..ncap)` holds the capture positions (-1 where a group did not take
   * part). `cap` must have room for `ncap` entries.
   */
  exec(s: string, cap: Int32Array, ncap: number): boolean;
}

/**
 * Returns a backtracker for `prog`, or undefined when the program is too
 * large. `cond` is the program's start condition (-1: it cannot match),
 * `prefix` the literal every match begins with.
 */
export function compileBacktrack(
  prog: Prog,
  cond: number,
  prefix: string,
): BacktrackMatcher | undefined {
  const insts = prog.inst;
  const n = insts.length;
  if (n === 0 || n > maxBacktrackProg) return undefined;
  const ops = new Int8Array(n);
  const out = new Int32Array(n);
  const arg = new Int32Array(n);
  const accept = new Uint8Array(n * 128);
  for (let pc = 0; pc < n; pc++) {
    const inst = insts[pc] as Inst;
    if (inst.op < Op.Alt || inst.op > Op.RuneAnyNotNL) return undefined;
    ops[pc] = inst.op;
    out[pc] = inst.out;
    arg[pc] = inst.arg;
    if (inst.op === Op.Rune) {
      for (let c = 0; c < 128; c++) accept[pc * 128 + c] = inst.matchRune(c) ? 1 : 0;
    } else if (inst.op === Op.Rune1) {
      for (let c = 0; c < 128; c++) accept[pc * 128 + c] = c === inst.runes[0] ? 1 : 0;
    }
  }
  const startCond = cond;
  const start = prog.start;
  const maxLength = Math.floor(maxBacktrackVector / n);

  // Reused between calls: visited bits, the job stack, the capture registers.
  let visited = new Uint32Array(0);
  let jobPc = new Int32Array(64);
  let jobPos = new Int32Array(64);
  let jobArg = new Uint8Array(64);
  let jobs = 0;
  let regs = new Int32Array(2);
  let end = 0;
  let text = "";

  function shouldVisit(pc: number, pos: number): boolean {
    const k = pc * (end + 1) + pos;
    const word = k >>> 5;
    const bit = 1 << (k & 31);
    const v = visited[word] as number;
    if ((v & bit) !== 0) return false;
    visited[word] = v | bit;
    return true;
  }

  function push(pc: number, pos: number, isArg: boolean): void {
    if (ops[pc] === Op.Fail || (!isArg && !shouldVisit(pc, pos))) return;
    if (jobs === jobPc.length) {
      const grownPc = new Int32Array(jobs * 2);
      grownPc.set(jobPc);
      jobPc = grownPc;
      const grownPos = new Int32Array(jobs * 2);
      grownPos.set(jobPos);
      jobPos = grownPos;
      const grownArg = new Uint8Array(jobs * 2);
      grownArg.set(jobArg);
      jobArg = grownArg;
    }
    jobPc[jobs] = pc;
    jobPos[jobs] = pos;
    jobArg[jobs] = isArg ? 1 : 0;
    jobs++;
  }

  /** The rune at `pos` (-1 at the end) and its width, packed as rune * 4 + width. */
  function step(pos: number): number {
    if (pos >= end) return -4;
    const c = text.charCodeAt(pos);
    if (c >= 0xd800 && c <= 0xdbff && pos + 1 < end) {
      const lo = text.charCodeAt(pos + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff)
        return ((c - 0xd800) * 1024 + (lo - 0xdc00) + 0x10000) * 4 + 2;
    }
    return c * 4 + 1;
  }

  /** Go's `tryBacktrack` for one start position; fills `outCap` on a match. */
  function tryBacktrack(
    startPc: number,
    startPos: number,
    outCap: Int32Array,
    ncap: number,
  ): boolean {
    // Hot loop: closure state copied into locals, the BMP case of `step` and
    // the visited check written out inline.
    const s = text;
    const len = end;
    const stride = len + 1;
    const seen = visited;
    push(startPc, startPos, false);
    while (jobs > 0) {
      jobs--;
      let pc = jobPc[jobs] as number;
      let pos = jobPos[jobs] as number;
      let isArg = jobArg[jobs] === 1;
      let check = false;
      for (;;) {
        if (check) {
          const k = pc * stride + pos;
          const word = k >>> 5;
          const bit = 1 << (k & 31);
          const v = seen[word] as number;
          if ((v & bit) !== 0) break;
          seen[word] = v | bit;
        }
        check = true;
        const op = ops[pc] as number;
        if (op >= Op.Rune) {
          // Op.Rune, Op.Rune1, Op.RuneAny, Op.RuneAnyNotNL: consume one rune.
          if (pos >= len) break;
          let rune = s.charCodeAt(pos);
          let width = 1;
          if (rune >= 0xd800 && rune <= 0xdbff && pos + 1 < len) {
            const lo = s.charCodeAt(pos + 1);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
              rune = (rune - 0xd800) * 1024 + (lo - 0xdc00) + 0x10000;
              width = 2;
            }
          }
          if (op === Op.Rune || op === Op.Rune1) {
            if (rune < 128) {
              if (accept[pc * 128 + rune] === 0) break;
            } else if (
              op === Op.Rune
                ? !(insts[pc] as Inst).matchRune(rune)
                : rune !== (insts[pc] as Inst).runes[0]
            ) {
              break;
            }
          } else if (op === Op.RuneAnyNotNL && rune === 10) {
            break;
          }
          pos += width;
          pc = out[pc] as number;
          continue;
        }
        if (op === Op.Alt) {
          if (isArg) {
            isArg = false;
            pc = arg[pc] as number;
          } else {
            push(pc, pos, true);
            pc = out[pc] as number;
          }
          continue;
        }
        if (op === Op.Capture) {
          const slot = arg[pc] as number;
          if (isArg) {
            regs[slot] = pos;
            break;
          }
          if (slot < ncap) {
            push(pc, regs[slot] as number, true);
            regs[slot] = pos;
          }
          pc = out[pc] as number;
          continue;
        }
        if (op === Op.EmptyWidth) {
          if (((arg[pc] as number) & ~contextAt(s, pos)) !== 0) break;
          pc = out[pc] as number;
          continue;
        }
        if (op === Op.Nop) {
          pc = out[pc] as number;
          continue;
        }
        if (op === Op.AltMatch) {
          const o = ops[out[pc] as number] as number;
          if (o >= Op.Rune) {
            push(arg[pc] as number, pos, false);
            pc = arg[pc] as number;
            pos = len;
            continue;
          }
          push(out[pc] as number, len, false);
          pc = out[pc] as number;
          continue;
        }
        if (op === Op.Match) {
          if (ncap === 0) return true;
          if (ncap > 1) regs[1] = pos;
          for (let i = 0; i < ncap; i++) outCap[i] = regs[i] as number;
          return true;
        }
        // Op.Fail
        break;
      }
    }
    return false;
  }

  return {
    maxLength,
    exec(s: string, cap: Int32Array, ncap: number): boolean {
      for (let i = 0; i < ncap; i++) cap[i] = -1;
      if (startCond === -1) return false;
      let pos = 0;
      text = s;
      end = s.length;
      const words = ((n * (end + 1)) >>> 5) + 1;
      if (visited.length < words) visited = new Uint32Array(Math.max(words, visited.length * 2));
      else visited.fill(0, 0, words);
      if (regs.length < ncap) regs = new Int32Array(ncap);
      regs.fill(-1, 0, ncap);
      jobs = 0;
      try {
        if ((startCond & EmptyOp.BeginText) !== 0) {
          if (ncap > 0) regs[0] = pos;
          return tryBacktrack(start, pos, cap, ncap);
        }
        let width = -1;
        for (; pos <= end && width !== 0; pos += width) {
          if (prefix.length > 0) {
            const at = s.indexOf(prefix, pos);
            if (at < 0) return false;
            pos = at;
          }
          if (ncap > 0) regs[0] = pos;
          if (tryBacktrack(start, pos, cap, ncap)) return true;
          width = pos < end ? step(pos) & 3 : 0;
        }
        return false;
      } finally {
        text = "";
      }
    },
  };
}
