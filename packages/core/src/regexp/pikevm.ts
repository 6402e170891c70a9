/**
 * Go's general matcher (`regexp/exec.go`, a Pike VM): runs every thread of
 * the program in lock step over the input, one character at a time, keeping
 * at most one thread per instruction, so the time is linear in the input
 * (times the program size) for every pattern: no input can make it
 * backtrack. Threads are kept in priority order, which gives Go's
 * leftmost-first answers with submatches.
 *
 * The faster engines (`onepass.ts`, `backtrack.ts`, `literal-frame.ts`) take
 * the patterns and inputs they can; this one takes everything else,
 * including searches from a position other than the start (`FindAll`).
 */
import { EmptyOp, emptyOpContext, type Inst, Op, type Prog } from "./program.js";

/** The rune at `pos` of `s` and its width, packed as rune * 4 + width; -4 at the end. */
function step(s: string, pos: number): number {
  if (pos >= s.length) return -4;
  const c = s.charCodeAt(pos);
  if (c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length) {
    const lo = s.charCodeAt(pos + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff)
      return ((c - 0xd800) * 1024 + (lo - 0xdc00) + 0x10000) * 4 + 2;
  }
  return c * 4 + 1;
}

/** The rune that ends just before `pos`, or -1 at the start. */
function runeBefore(s: string, pos: number): number {
  if (pos <= 0) return -1;
  const c = s.charCodeAt(pos - 1);
  if (c >= 0xdc00 && c <= 0xdfff && pos >= 2) {
    const hi = s.charCodeAt(pos - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return (hi - 0xd800) * 1024 + (c - 0xdc00) + 0x10000;
  }
  return c;
}

/** A Pike VM for one program. */
export interface PikeMatcher {
  /**
   * Finds the leftmost-first match in `s` starting at or after `pos` (Go's
   * `doExecute` from `pos`). Returns true on a match; then `cap[0..ncap)`
   * holds the capture positions (-1 where a group did not take part), and
   * `steps()` how many thread steps the call took.
   */
  exec(s: string, pos: number, cap: Int32Array, ncap: number): boolean;
  /** Thread steps taken by the last call (for tests of the linear bound). */
  steps(): number;
}

interface Thread {
  inst: Inst;
  cap: Int32Array;
}

class Queue {
  readonly sparse: Int32Array;
  readonly pc: Int32Array;
  readonly t: (Thread | null)[];
  size = 0;
  constructor(n: number) {
    this.sparse = new Int32Array(n);
    this.pc = new Int32Array(n);
    this.t = new Array<Thread | null>(n).fill(null);
  }
}

/**
 * Returns the Pike VM for `prog`. `cond` is the program's start condition
 * (-1: it cannot match) and `prefix` the literal every match begins with.
 */
export function compilePike(prog: Prog, cond: number, prefix: string): PikeMatcher {
  const insts = prog.inst;
  const n = insts.length;
  let pool: Thread[] = [];
  let ncapNow = 0;
  let matched = false;
  let matchcap = new Int32Array(0);
  let steps = 0;

  const alloc = (inst: Inst): Thread => {
    const t = pool.pop();
    if (t !== undefined) {
      t.inst = inst;
      return t;
    }
    return { inst, cap: new Int32Array(ncapNow) };
  };

  const add = (
    q: Queue,
    pc: number,
    pos: number,
    cap: Int32Array,
    ctx: number,
    t: Thread | null,
  ): Thread | null => {
    for (;;) {
      if (pc === 0) return t;
      const j = q.sparse[pc] as number;
      if (j < q.size && q.pc[j] === pc) return t;
      const d = q.size++;
      q.pc[d] = pc;
      q.t[d] = null;
      q.sparse[pc] = d;
      steps++;
      const i = insts[pc] as Inst;
      switch (i.op) {
        case Op.Fail:
          return t;
        case Op.Alt:
        case Op.AltMatch:
          t = add(q, i.out, pos, cap, ctx, t);
          pc = i.arg;
          continue;
        case Op.EmptyWidth:
          if ((i.arg & ~ctx) === 0) {
            pc = i.out;
            continue;
          }
          return t;
        case Op.Nop:
          pc = i.out;
          continue;
        case Op.Capture:
          if (i.arg < ncapNow) {
            const old = cap[i.arg] as number;
            cap[i.arg] = pos;
            add(q, i.out, pos, cap, ctx, null);
            cap[i.arg] = old;
            return t;
          }
          pc = i.out;
          continue;
        default: {
          // Match and the rune instructions: a thread waits here.
          const th = t ?? alloc(i);
          th.inst = i;
          if (ncapNow > 0 && th.cap !== cap) th.cap.set(cap.subarray(0, ncapNow));
          q.t[d] = th;
          return null;
        }
      }
    }
  };

  const clear = (q: Queue): void => {
    for (let k = 0; k < q.size; k++) {
      const t = q.t[k];
      if (t != null) pool.push(t);
    }
    q.size = 0;
  };

  const stepQueue = (
    runq: Queue,
    nextq: Queue,
    pos: number,
    nextPos: number,
    c: number,
    nextCtx: number,
  ): void => {
    for (let j = 0; j < runq.size; j++) {
      let t = runq.t[j] as Thread | null;
      if (t === null) continue;
      const i = t.inst;
      let take = false;
      switch (i.op) {
        case Op.Match:
          if (ncapNow > 0) {
            t.cap[1] = pos;
            matchcap.set(t.cap);
          }
          // Leftmost-first: the lower-priority threads are dropped.
          for (let k = j + 1; k < runq.size; k++) {
            const rest = runq.t[k];
            if (rest != null) pool.push(rest);
          }
          runq.size = 0;
          matched = true;
          break;
        case Op.Rune:
          take = c >= 0 && i.matchRune(c);
          break;
        case Op.Rune1:
          take = c === i.runes[0];
          break;
        case Op.RuneAny:
          take = c >= 0;
          break;
        case Op.RuneAnyNotNL:
          take = c >= 0 && c !== 10;
          break;
      }
      if (take) t = add(nextq, i.out, nextPos, t.cap, nextCtx, t);
      if (t !== null) pool.push(t);
    }
    runq.size = 0;
  };

  let q0 = new Queue(n);
  let q1 = new Queue(n);

  return {
    steps: () => steps,
    exec(s: string, pos: number, cap: Int32Array, ncap: number): boolean {
      steps = 0;
      for (let k = 0; k < ncap; k++) cap[k] = -1;
      if (cond === -1) return false;
      if (ncap !== ncapNow) {
        ncapNow = ncap;
        pool = [];
        matchcap = new Int32Array(ncap);
      }
      matched = false;
      matchcap.fill(-1);
      let runq = q0;
      let nextq = q1;
      let rw = step(s, pos);
      let r = rw >> 2;
      let w = rw & 3;
      let r1w = r >= 0 ? step(s, pos + w) : -4;
      let ctx = emptyOpContext(runeBefore(s, pos), r);
      for (;;) {
        if (runq.size === 0) {
          if ((cond & EmptyOp.BeginText) !== 0 && pos !== 0) break;
          if (matched) break;
          if (prefix.length > 0) {
            const at = s.indexOf(prefix, pos);
            if (at < 0) break;
            if (at !== pos) {
              pos = at;
              rw = step(s, pos);
              r = rw >> 2;
              w = rw & 3;
              r1w = step(s, pos + w);
              ctx = emptyOpContext(runeBefore(s, pos), r);
            }
          }
        }
        if (!matched) {
          if (ncap > 0) matchcap[0] = pos;
          add(runq, prog.start, pos, matchcap, ctx, null);
        }
        const r1 = r >= 0 ? r1w >> 2 : -1;
        const nextCtx = emptyOpContext(r, r1);
        stepQueue(runq, nextq, pos, pos + w, r, nextCtx);
        if (w === 0) break;
        if (ncap === 0 && matched) break;
        pos += w;
        r = r1;
        w = r >= 0 ? r1w & 3 : 0;
        if (r >= 0) r1w = step(s, pos + w);
        ctx = nextCtx;
        const swap = runq;
        runq = nextq;
        nextq = swap;
      }
      clear(nextq);
      clear(runq);
      q0 = runq;
      q1 = nextq;
      if (matched) for (let k = 0; k < ncap; k++) cap[k] = matchcap[k] as number;
      return matched;
    },
  };
}
