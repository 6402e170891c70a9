/**
 * The compiled form every executor runs (Go's `regexp/syntax` `Prog`): the
 * simplifier and compiler from a syntax tree (`syntax.ts`), the instruction
 * set, and the facts Go reads off a program before matching (the literal
 * prefix, the start condition). Internal to the regexp concept.
 */
import { Flag, type Node, SOp } from "./syntax-tree.js";
import { simpleFold } from "./unicode.js";

/**
 * Instruction opcodes (`Inst`): Go's `syntax.InstOp`, numbered from one. An enum
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

/**
 * One instruction of a compiled program (Go's `syntax.Inst`, with the
 * one-pass engine's `Next` table). Opcodes are {@link Op}'s.
 */
export class Inst {
  op: number;
  out = 0;
  arg = 0;
  /** The rune ranges (`Op.Rune`), or the single rune (`Op.Rune1`, a fold-case `Op.Rune`). */
  runes: Int32Array = new Int32Array(0);
  /** For the one-pass program: per range of `runes`, the next instruction. */
  next: number[] | null = null;

  constructor(op: number) {
    this.op = op;
  }

  /** Go's `Inst.MatchRunePos`: the index of the range holding `r`, or -1. */
  matchRunePos(r: number): number {
    const rune = this.runes;
    switch (rune.length) {
      case 0:
        return -1;
      case 1: {
        const r0 = rune[0] as number;
        if (r === r0) return 0;
        if (this.arg & foldCaseFlag) {
          for (let r1 = simpleFold(r0); r1 !== r0; r1 = simpleFold(r1)) if (r === r1) return 0;
        }
        return -1;
      }
      case 2:
        return r >= (rune[0] as number) && r <= (rune[1] as number) ? 0 : -1;
      case 4:
      case 6:
      case 8:
        for (let j = 0; j < rune.length; j += 2) {
          if (r < (rune[j] as number)) return -1;
          if (r <= (rune[j + 1] as number)) return j / 2;
        }
        return -1;
    }
    let lo = 0;
    let hi = rune.length / 2;
    while (lo < hi) {
      const m = lo + ((hi - lo) >> 1);
      const c = rune[2 * m] as number;
      if (c <= r) {
        if (r <= (rune[2 * m + 1] as number)) return m;
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    return -1;
  }

  /** Go's `Inst.MatchRune`. */
  matchRune(r: number): boolean {
    return this.matchRunePos(r) !== -1;
  }
}

/** The fold-case bit of an `Op.Rune`'s `arg` (Go's `syntax.FoldCase`). */
const foldCaseFlag = Flag.FoldCase;

/** A compiled program (Go's `syntax.Prog`). */
export interface Prog {
  readonly inst: Inst[];
  readonly start: number;
  /** The number of capture slots, 2 * (groups + 1). */
  readonly numCap: number;
}

/** Go's `Regexp.Simplify`: counted repetitions written out, `x{0}` emptied. */
export function simplify(re: Node): Node {
  switch (re.op) {
    case SOp.Capture:
    case SOp.Concat:
    case SOp.Alternate: {
      let nre = re;
      for (let i = 0; i < re.sub.length; i++) {
        const sub = re.sub[i] as Node;
        const nsub = simplify(sub);
        if (nre === re && nsub !== sub) {
          nre = { ...re, runes: [], sub: re.sub.slice(0, i) };
        }
        if (nre !== re) nre.sub.push(nsub);
      }
      return nre;
    }
    case SOp.Star:
    case SOp.Plus:
    case SOp.Quest:
      return simplify1(re.op, re.flags, simplify(re.sub[0] as Node), re);
    case SOp.Repeat: {
      if (re.min === 0 && re.max === 0) return node(SOp.EmptyMatch, 0, []);
      const sub = simplify(re.sub[0] as Node);
      if (re.max === -1) {
        if (re.min === 0) return simplify1(SOp.Star, re.flags, sub, null);
        if (re.min === 1) return simplify1(SOp.Plus, re.flags, sub, null);
        const subs: Node[] = [];
        for (let i = 0; i < re.min - 1; i++) subs.push(sub);
        subs.push(simplify1(SOp.Plus, re.flags, sub, null));
        return node(SOp.Concat, 0, subs);
      }
      if (re.min === 1 && re.max === 1) return sub;
      let prefix: Node | null = null;
      if (re.min > 0) {
        const subs: Node[] = [];
        for (let i = 0; i < re.min; i++) subs.push(sub);
        prefix = node(SOp.Concat, 0, subs);
      }
      if (re.max > re.min) {
        let suffix = simplify1(SOp.Quest, re.flags, sub, null);
        for (let i = re.min + 1; i < re.max; i++) {
          suffix = simplify1(SOp.Quest, re.flags, node(SOp.Concat, 0, [sub, suffix]), null);
        }
        if (prefix === null) return suffix;
        prefix.sub.push(suffix);
      }
      if (prefix !== null) return prefix;
      return node(SOp.NoMatch, 0, []);
    }
    default:
      return re;
  }
}

function node(op: SOp, flags: number, sub: Node[]): Node {
  return { op, flags, sub, runes: [], min: 0, max: 0, cap: 0, name: "" };
}

function simplify1(op: SOp, flags: number, sub: Node, re: Node | null): Node {
  if (sub.op === SOp.EmptyMatch) return sub;
  if (op === sub.op && (flags & Flag.NonGreedy) === (sub.flags & Flag.NonGreedy)) return sub;
  if (
    re !== null &&
    re.op === op &&
    (re.flags & Flag.NonGreedy) === (flags & Flag.NonGreedy) &&
    sub === re.sub[0]
  ) {
    return re;
  }
  return node(op, flags, [sub]);
}

/** A program fragment: first instruction, the dangling exits (encoded as pc << 1 | isArg), nullable. */
interface Frag {
  i: number;
  out: number[];
  nullable: boolean;
}

const anyRuneNotNL = new Int32Array([0, 9, 11, 0x10ffff]);
const anyRune = new Int32Array([0, 0x10ffff]);

/** Go's `syntax.Compile`: the instruction numbering is Go's, instruction for instruction. */
export function compileProg(re: Node): Prog {
  const inst: Inst[] = [new Inst(Op.Fail)];
  let numCap = 2;
  const emit = (op: number): Frag => {
    inst.push(new Inst(op));
    return { i: inst.length - 1, out: [], nullable: true };
  };
  const patch = (l: number[], val: number): void => {
    for (const e of l) {
      const target = inst[e >> 1] as Inst;
      if (e & 1) target.arg = val;
      else target.out = val;
    }
  };
  const fail = (): Frag => ({ i: 0, out: [], nullable: false });
  const nop = (): Frag => {
    const f = emit(Op.Nop);
    f.out = [f.i << 1];
    return f;
  };
  const cat = (f1: Frag, f2: Frag): Frag => {
    if (f1.i === 0 || f2.i === 0) return fail();
    patch(f1.out, f2.i);
    return { i: f1.i, out: f2.out, nullable: f1.nullable && f2.nullable };
  };
  const alt = (f1: Frag, f2: Frag): Frag => {
    if (f1.i === 0) return f2;
    if (f2.i === 0) return f1;
    const f = emit(Op.Alt);
    const i = inst[f.i] as Inst;
    i.out = f1.i;
    i.arg = f2.i;
    f.out = f1.out.concat(f2.out);
    f.nullable = f1.nullable || f2.nullable;
    return f;
  };
  const quest = (f1: Frag, nongreedy: boolean): Frag => {
    const f = emit(Op.Alt);
    const i = inst[f.i] as Inst;
    if (nongreedy) {
      i.arg = f1.i;
      f.out = [f.i << 1];
    } else {
      i.out = f1.i;
      f.out = [(f.i << 1) | 1];
    }
    f.out = f.out.concat(f1.out);
    return f;
  };
  const loop = (f1: Frag, nongreedy: boolean): Frag => {
    const f = emit(Op.Alt);
    const i = inst[f.i] as Inst;
    if (nongreedy) {
      i.arg = f1.i;
      f.out = [f.i << 1];
    } else {
      i.out = f1.i;
      f.out = [(f.i << 1) | 1];
    }
    patch(f1.out, f.i);
    return f;
  };
  const plus = (f1: Frag, nongreedy: boolean): Frag => ({
    i: f1.i,
    out: loop(f1, nongreedy).out,
    nullable: f1.nullable,
  });
  const star = (f1: Frag, nongreedy: boolean): Frag =>
    f1.nullable ? quest(plus(f1, nongreedy), nongreedy) : loop(f1, nongreedy);
  const empty = (op: number): Frag => {
    const f = emit(Op.EmptyWidth);
    (inst[f.i] as Inst).arg = op;
    f.out = [f.i << 1];
    return f;
  };
  const capture = (arg: number): Frag => {
    const f = emit(Op.Capture);
    f.out = [f.i << 1];
    (inst[f.i] as Inst).arg = arg;
    if (numCap < arg + 1) numCap = arg + 1;
    return f;
  };
  const rune = (r: Int32Array, flags: number): Frag => {
    const f = emit(Op.Rune);
    f.nullable = false;
    const i = inst[f.i] as Inst;
    i.runes = r;
    flags &= Flag.FoldCase;
    if (r.length !== 1 || simpleFold(r[0] as number) === r[0]) flags &= ~Flag.FoldCase;
    i.arg = flags;
    f.out = [f.i << 1];
    if ((flags & Flag.FoldCase) === 0 && (r.length === 1 || (r.length === 2 && r[0] === r[1]))) {
      i.op = Op.Rune1;
    } else if (r.length === 2 && r[0] === 0 && r[1] === 0x10ffff) {
      i.op = Op.RuneAny;
    } else if (r.length === 4 && r[0] === 0 && r[1] === 9 && r[2] === 11 && r[3] === 0x10ffff) {
      i.op = Op.RuneAnyNotNL;
    }
    return f;
  };
  const compile = (re: Node): Frag => {
    switch (re.op) {
      case SOp.NoMatch:
        return fail();
      case SOp.EmptyMatch:
        return nop();
      case SOp.Literal: {
        if (re.runes.length === 0) return nop();
        let f: Frag | undefined;
        for (const r of re.runes) {
          const f1 = rune(new Int32Array([r]), re.flags);
          f = f === undefined ? f1 : cat(f, f1);
        }
        return f as Frag;
      }
      case SOp.CharClass:
        return rune(Int32Array.from(re.runes), re.flags);
      case SOp.AnyCharNotNL:
        return rune(anyRuneNotNL, 0);
      case SOp.AnyChar:
        return rune(anyRune, 0);
      case SOp.BeginLine:
        return empty(EmptyOp.BeginLine);
      case SOp.EndLine:
        return empty(EmptyOp.EndLine);
      case SOp.BeginText:
        return empty(EmptyOp.BeginText);
      case SOp.EndText:
        return empty(EmptyOp.EndText);
      case SOp.WordBoundary:
        return empty(EmptyOp.WordBoundary);
      case SOp.NoWordBoundary:
        return empty(EmptyOp.NoWordBoundary);
      case SOp.Capture: {
        const bra = capture(re.cap << 1);
        const sub = compile(re.sub[0] as Node);
        const ket = capture((re.cap << 1) | 1);
        return cat(cat(bra, sub), ket);
      }
      case SOp.Star:
        return star(compile(re.sub[0] as Node), (re.flags & Flag.NonGreedy) !== 0);
      case SOp.Plus:
        return plus(compile(re.sub[0] as Node), (re.flags & Flag.NonGreedy) !== 0);
      case SOp.Quest:
        return quest(compile(re.sub[0] as Node), (re.flags & Flag.NonGreedy) !== 0);
      case SOp.Concat: {
        if (re.sub.length === 0) return nop();
        let f: Frag | undefined;
        for (const sub of re.sub) f = f === undefined ? compile(sub) : cat(f, compile(sub));
        return f as Frag;
      }
      case SOp.Alternate: {
        let f = fail();
        for (const sub of re.sub) f = alt(f, compile(sub));
        return f;
      }
      default:
        throw new Error(`regexp: unhandled op ${re.op}`);
    }
  };
  const f = compile(re);
  patch(f.out, emit(Op.Match).i);
  return { inst, start: f.i, numCap };
}

function skipNop(p: Prog, pc: number): Inst {
  let i = p.inst[pc] as Inst;
  while (i.op === Op.Nop || i.op === Op.Capture) i = p.inst[i.out] as Inst;
  return i;
}

const isRuneOp = (op: number): boolean => op >= Op.Rune;

/** Go's `Prog.Prefix`: the literal every match starts with, and whether it is the whole match. */
export function progPrefix(p: Prog): [string, boolean] {
  let i = skipNop(p, p.start);
  if (!isRuneOp(i.op) || i.runes.length !== 1) return ["", i.op === Op.Match];
  let out = "";
  while (
    isRuneOp(i.op) &&
    i.runes.length === 1 &&
    (i.arg & Flag.FoldCase) === 0 &&
    i.runes[0] !== 0xfffd
  ) {
    out += String.fromCodePoint(i.runes[0] as number);
    i = skipNop(p, i.out);
  }
  return [out, i.op === Op.Match];
}

/** Go's `Prog.StartCond`: the assertions every match starts with; -1 when none can match. */
export function startCond(p: Prog): number {
  let flag = 0;
  let i = p.inst[p.start] as Inst;
  for (;;) {
    if (i.op === Op.EmptyWidth) flag |= i.arg;
    else if (i.op === Op.Fail) return -1;
    else if (i.op !== Op.Capture && i.op !== Op.Nop) break;
    i = p.inst[i.out] as Inst;
  }
  return flag;
}
