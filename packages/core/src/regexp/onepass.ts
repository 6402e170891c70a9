/**
 * The executor for one-pass regular expressions.
 *
 * Go compiles a pattern that is anchored at the start and never needs to
 * look ahead to choose a branch (`^v?(\d+)\.(\d+)$`, most tag filters) into
 * a "one-pass" program (`onepass-compile.ts`), and runs it with `doOnePass`:
 * one step per input character, captures recorded on the way, no
 * backtracking. This module runs that program with the same steps over flat
 * tables: per instruction a 128-entry table for ASCII characters, the general
 * rune test only for other characters. The answers are those of Go's
 * `doOnePass`; tests hold it to the Pike VM.
 */

import type { OnePassProg } from "./onepass-compile.js";
import { buildDfa, runDfa } from "./onepass-dfa.js";
import { emptyOpContext, type Inst, Op } from "./program.js";

/** A one-pass program compiled to flat tables. */
export interface OnePassMatcher {
  /**
   * Runs the program on `s` from its start. Returns true on a match; then
   * `cap[0..ncap)` holds the capture positions (-1 where a group did not take
   * part). `cap` must have room for `ncap` entries. ASCII input runs on the
   * DFA when the program has one, other input on the instruction walk.
   */
  exec(s: string, cap: Int32Array, ncap: number): boolean;
  /** The instruction walk alone (the plain twin the DFA is tested against). */
  execSteps(s: string, cap: Int32Array, ncap: number): boolean;
  /** True when ASCII input runs on a DFA. */
  readonly hasDfa: boolean;
}

/**
 * Returns a fast executor for the one-pass program `prog` (from
 * `onepass-compile.ts`), or undefined when there is none (the pattern is not
 * one-pass).
 */
export function compileOnePass(prog: OnePassProg | undefined): OnePassMatcher | undefined {
  if (prog === undefined) return undefined;
  const insts = prog.inst;
  const n = insts.length;
  const ops = new Int8Array(n);
  const out = new Int32Array(n);
  const arg = new Int32Array(n);
  // For consuming instructions: 1 when the ASCII character matches.
  const accept = new Uint8Array(n * 128);
  // For Op.Alt / Op.AltMatch: the next instruction for each ASCII character.
  const next = new Int32Array(n * 128);
  for (let pc = 0; pc < n; pc++) {
    const inst = insts[pc] as Inst;
    const op = inst.op;
    if (op < Op.Alt || op > Op.RuneAnyNotNL) return undefined;
    ops[pc] = op;
    out[pc] = inst.out;
    arg[pc] = inst.arg;
    const base = pc * 128;
    if (op === Op.Rune) {
      for (let c = 0; c < 128; c++) accept[base + c] = inst.matchRune(c) ? 1 : 0;
    } else if (op === Op.Rune1) {
      for (let c = 0; c < 128; c++) accept[base + c] = c === inst.runes[0] ? 1 : 0;
    } else if (op === Op.Alt || op === Op.AltMatch) {
      if (inst.next === null) return undefined;
      for (let c = 0; c < 128; c++) next[base + c] = onePassNext(inst, c);
    }
  }

  function onePassNext(inst: Inst, r: number): number {
    const i = inst.matchRunePos(r);
    if (i >= 0) return (inst.next as readonly number[])[i] as number;
    return inst.op === Op.AltMatch ? inst.out : 0;
  }

  const start = prog.start;
  const execSteps = (s: string, cap: Int32Array, ncap: number): boolean => {
    for (let i = 0; i < ncap; i++) cap[i] = -1;
    const end = s.length;
    let pos = 0;
    // The rune before pos (-1 at the start) and the rune at pos (-1 at the
    // end), with its width in UTF-16 units. The empty-width context between
    // them is computed only when an assertion asks for it; Go computes
    // it after every step, to the same effect.
    let prev = -1;
    let rune = -1;
    let width = 0;
    if (end > 0) {
      rune = s.charCodeAt(0);
      width = 1;
      if (rune >= 0xd800 && rune <= 0xdbff && end > 1) {
        const lo = s.charCodeAt(1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          rune = (rune - 0xd800) * 1024 + (lo - 0xdc00) + 0x10000;
          width = 2;
        }
      }
    }
    let pc = start;
    for (;;) {
      const op = ops[pc] as number;
      switch (op) {
        case Op.Rune:
        case Op.Rune1:
          if (rune < 0) return false;
          if (rune < 128) {
            if (accept[pc * 128 + rune] === 0) return false;
          } else if (
            op === Op.Rune
              ? !(insts[pc] as Inst).matchRune(rune)
              : rune !== (insts[pc] as Inst).runes[0]
          ) {
            return false;
          }
          break;
        case Op.Alt:
        case Op.AltMatch:
          pc =
            rune >= 0 && rune < 128
              ? (next[pc * 128 + rune] as number)
              : onePassNext(insts[pc] as Inst, rune);
          continue;
        case Op.Capture: {
          const slot = arg[pc] as number;
          if (slot < ncap) cap[slot] = pos;
          pc = out[pc] as number;
          continue;
        }
        case Op.EmptyWidth:
          if (((arg[pc] as number) & ~emptyOpContext(prev, rune)) !== 0) return false;
          pc = out[pc] as number;
          continue;
        case Op.Nop:
          pc = out[pc] as number;
          continue;
        case Op.Match:
          if (ncap > 0) {
            cap[0] = 0;
            if (ncap > 1) cap[1] = pos;
          }
          return true;
        case Op.RuneAny:
          break;
        case Op.RuneAnyNotNL:
          if (rune === 10) return false;
          break;
        default:
          // Op.Fail, or an opcode this executor does not know.
          return false;
      }
      // A rune was consumed.
      if (width === 0) return false;
      pc = out[pc] as number;
      prev = rune;
      pos += width;
      if (pos < end) {
        rune = s.charCodeAt(pos);
        width = 1;
        if (rune >= 0xd800 && rune <= 0xdbff && pos + 1 < end) {
          const lo = s.charCodeAt(pos + 1);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            rune = (rune - 0xd800) * 1024 + (lo - 0xdc00) + 0x10000;
            width = 2;
          }
        }
      } else {
        rune = -1;
        width = 0;
      }
    }
  };
  const dfa = buildDfa({
    ops,
    out,
    arg,
    accept,
    next,
    start,
    step: (pc, r) => onePassNext(insts[pc] as Inst, r),
  });
  if (dfa === undefined) return { exec: execSteps, execSteps, hasDfa: false };
  return {
    exec: (s, cap, ncap) => {
      const hit = runDfa(dfa, s, cap, ncap);
      return hit === undefined ? execSteps(s, cap, ncap) : hit;
    },
    execSteps,
    hasDfa: true,
  };
}
