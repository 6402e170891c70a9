/**
 * Go's one-pass analysis (`regexp/onepass.go`): decides whether a program
 * anchored at the start can be run choosing every branch by the next
 * character alone, and if so builds that program, where each alternation
 * carries, per range of characters, the instruction to go to. `onepass.ts`
 * runs it. Which patterns qualify is Go's choice exactly, so the one-pass
 * engine answers wherever Go's would.
 */
import { EmptyOp, Inst, Op, type Prog } from "./program.js";
import { Flag } from "./syntax.js";
import { simpleFold } from "./unicode.js";

/** A one-pass program: Go's `onePassProg`. */
export interface OnePassProg {
  readonly start: number;
  readonly inst: readonly Inst[];
}

const mergeFailed = -1;

function copyInst(i: Inst): Inst {
  const c = new Inst(i.op);
  c.out = i.out;
  c.arg = i.arg;
  c.runes = i.runes;
  return c;
}

/** Go's `mergeRuneSets`: undefined when the two sets overlap. */
function mergeRuneSets(
  left: readonly number[],
  right: readonly number[],
  leftPC: number,
  rightPC: number,
): [number[], number[]] | undefined {
  let lx = 0;
  let rx = 0;
  const merged: number[] = [];
  const next: number[] = [];
  let ix = -1;
  const extend = (arr: readonly number[], low: number, pc: number): boolean => {
    if (ix > 0 && (arr[low] as number) <= (merged[ix] as number)) return false;
    merged.push(arr[low] as number, arr[low + 1] as number);
    ix += 2;
    next.push(pc);
    return true;
  };
  while (lx < left.length || rx < right.length) {
    let ok: boolean;
    if (rx >= right.length) {
      ok = extend(left, lx, leftPC);
      lx += 2;
    } else if (lx >= left.length) {
      ok = extend(right, rx, rightPC);
      rx += 2;
    } else if ((right[rx] as number) < (left[lx] as number)) {
      ok = extend(right, rx, rightPC);
      rx += 2;
    } else {
      ok = extend(left, lx, leftPC);
      lx += 2;
    }
    if (!ok) return undefined;
  }
  return [merged, next];
}

/** Go's `onePassCopy`: rewrites alternations of alternations so the analysis can see through them. */
function onePassCopy(prog: Prog): Inst[] {
  const p = prog.inst.map(copyInst);
  const isAlt = (i: Inst): boolean => i.op === Op.Alt || i.op === Op.AltMatch;
  for (let pc = 0; pc < p.length; pc++) {
    const a = p[pc] as Inst;
    if (!isAlt(a)) continue;
    // Field names: "out" or "arg" of instruction A (this one) and B (its alt target).
    let aAlt: "out" | "arg" = "arg";
    let aOther: "out" | "arg" = "out";
    let instAlt = p[a[aAlt]] as Inst;
    if (!isAlt(instAlt)) {
      [aAlt, aOther] = [aOther, aAlt];
      instAlt = p[a[aAlt]] as Inst;
      if (!isAlt(instAlt)) continue;
    }
    const instOther = p[a[aOther]] as Inst;
    if (isAlt(instOther)) continue;
    const b = instAlt;
    let bAlt: "out" | "arg" = "out";
    let bOther: "out" | "arg" = "arg";
    let patch = false;
    if (b.out === pc) {
      patch = true;
    } else if (b.arg === pc) {
      patch = true;
      [bAlt, bOther] = [bOther, bAlt];
    }
    if (patch) b[bAlt] = a[aOther];
    if (a[aOther] === b[bAlt]) a[aAlt] = b[bOther];
  }
  return p;
}

function foldRunes(r0: number): number[] {
  const runes = [r0];
  for (let r1 = simpleFold(r0); r1 !== r0; r1 = simpleFold(r1)) runes.push(r1);
  runes.sort((x, y) => x - y);
  const out: number[] = [];
  for (const r of runes) out.push(r, r);
  return out;
}

/** Go's `makeOnePass`. */
function makeOnePass(p: Inst[], start: number): Inst[] | undefined {
  const n = p.length;
  if (n >= 1000) return undefined;
  const instQueue = new Queue(n);
  const visitQueue = new Queue(n);
  const onePassRunes: number[][] = new Array(n).fill(null).map(() => []);
  const m = new Array<boolean>(n).fill(false);
  const fill = (pc: number, out: number): void => {
    const inst = p[pc] as Inst;
    inst.next = new Array<number>((onePassRunes[pc] as number[]).length / 2 + 1).fill(out);
  };
  const check = (pc: number): boolean => {
    let ok = true;
    const inst = p[pc] as Inst;
    if (visitQueue.contains(pc)) return true;
    visitQueue.insert(pc);
    switch (inst.op) {
      case Op.Alt:
      case Op.AltMatch: {
        ok = check(inst.out) && check(inst.arg);
        let matchOut = m[inst.out] as boolean;
        let matchArg = m[inst.arg] as boolean;
        if (matchOut && matchArg) {
          ok = false;
          break;
        }
        if (matchArg) {
          [inst.out, inst.arg] = [inst.arg, inst.out];
          [matchOut, matchArg] = [matchArg, matchOut];
        }
        if (matchOut) {
          m[pc] = true;
          inst.op = Op.AltMatch;
        }
        const merged = mergeRuneSets(
          onePassRunes[inst.out] as number[],
          onePassRunes[inst.arg] as number[],
          inst.out,
          inst.arg,
        );
        if (merged === undefined) {
          onePassRunes[pc] = [];
          inst.next = [mergeFailed];
          ok = false;
          break;
        }
        [onePassRunes[pc], inst.next] = merged;
        break;
      }
      case Op.Capture:
      case Op.Nop:
      case Op.EmptyWidth:
        ok = check(inst.out);
        m[pc] = m[inst.out] as boolean;
        onePassRunes[pc] = (onePassRunes[inst.out] as number[]).slice();
        fill(pc, inst.out);
        break;
      case Op.Match:
      case Op.Fail:
        m[pc] = inst.op === Op.Match;
        break;
      case Op.Rune:
        m[pc] = false;
        if (inst.next !== null && inst.next.length > 0) break;
        instQueue.insert(inst.out);
        if (inst.runes.length === 0) {
          onePassRunes[pc] = [];
          inst.next = [inst.out];
          break;
        }
        onePassRunes[pc] =
          inst.runes.length === 1 && inst.arg & Flag.FoldCase
            ? foldRunes(inst.runes[0] as number)
            : Array.from(inst.runes);
        fill(pc, inst.out);
        inst.op = Op.Rune;
        break;
      case Op.Rune1:
        m[pc] = false;
        if (inst.next !== null && inst.next.length > 0) break;
        instQueue.insert(inst.out);
        onePassRunes[pc] =
          inst.arg & Flag.FoldCase
            ? foldRunes(inst.runes[0] as number)
            : [inst.runes[0] as number, inst.runes[0] as number];
        fill(pc, inst.out);
        inst.op = Op.Rune;
        break;
      case Op.RuneAny:
        m[pc] = false;
        if (inst.next !== null && inst.next.length > 0) break;
        instQueue.insert(inst.out);
        onePassRunes[pc] = [0, 0x10ffff];
        inst.next = [inst.out];
        break;
      case Op.RuneAnyNotNL:
        m[pc] = false;
        if (inst.next !== null && inst.next.length > 0) break;
        instQueue.insert(inst.out);
        onePassRunes[pc] = [0, 9, 11, 0x10ffff];
        fill(pc, inst.out);
        break;
    }
    return ok;
  };
  instQueue.insert(start);
  while (!instQueue.empty()) {
    visitQueue.clear();
    const pc = instQueue.next();
    if (!check(pc)) return undefined;
  }
  for (let i = 0; i < n; i++) (p[i] as Inst).runes = Int32Array.from(onePassRunes[i] as number[]);
  return p;
}

/** Go's `queueOnePass`: a sparse set with insertion order. */
class Queue {
  readonly sparse: Int32Array;
  readonly dense: Int32Array;
  size = 0;
  nextIndex = 0;
  constructor(n: number) {
    this.sparse = new Int32Array(n);
    this.dense = new Int32Array(n);
  }
  empty(): boolean {
    return this.nextIndex >= this.size;
  }
  next(): number {
    return this.dense[this.nextIndex++] as number;
  }
  clear(): void {
    this.size = 0;
    this.nextIndex = 0;
  }
  contains(u: number): boolean {
    if (u >= this.sparse.length) return false;
    const s = this.sparse[u] as number;
    return s < this.size && this.dense[s] === u;
  }
  insert(u: number): void {
    if (this.contains(u) || u >= this.sparse.length) return;
    this.sparse[u] = this.size;
    this.dense[this.size++] = u;
  }
}

/**
 * Go's `compileOnePass`: the one-pass program of `prog`, or undefined when
 * the pattern is not anchored at the start or some branch needs look-ahead.
 */
export function compileOnePass(prog: Prog): OnePassProg | undefined {
  if (prog.start === 0) return undefined;
  const first = prog.inst[prog.start] as Inst;
  if (first.op !== Op.EmptyWidth || (first.arg & EmptyOp.BeginText) !== EmptyOp.BeginText) {
    return undefined;
  }
  for (const inst of prog.inst) {
    const opOut = (prog.inst[inst.out] as Inst).op;
    switch (inst.op) {
      case Op.Alt:
      case Op.AltMatch:
        if (opOut === Op.Match || (prog.inst[inst.arg] as Inst).op === Op.Match) return undefined;
        break;
      case Op.EmptyWidth:
        if (opOut === Op.Match) {
          if ((inst.arg & EmptyOp.EndText) === EmptyOp.EndText) continue;
          return undefined;
        }
        break;
      default:
        if (opOut === Op.Match) return undefined;
    }
  }
  const p = makeOnePass(onePassCopy(prog), prog.start);
  if (p === undefined) return undefined;
  // Go's cleanupOnePass: the single-rune and any-rune instructions go back to their own form.
  prog.inst.forEach((original, ix) => {
    switch (original.op) {
      case Op.Alt:
      case Op.AltMatch:
      case Op.Rune:
        break;
      case Op.Capture:
      case Op.EmptyWidth:
      case Op.Nop:
      case Op.Match:
      case Op.Fail:
        (p[ix] as Inst).next = null;
        break;
      default:
        p[ix] = copyInst(original);
    }
  });
  return { start: prog.start, inst: p };
}
