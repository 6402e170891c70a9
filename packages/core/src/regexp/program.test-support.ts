/**
 * Test helpers for the engines: a pattern compiled to its program (as
 * `compile.ts` does) and the Pike VM's answer, the reference the faster
 * engines are held to. The Pike VM itself is held to Go's own answers by
 * `go-oracle.test.ts`.
 */
import { compileOnePass as analyseOnePass, type OnePassProg } from "./onepass-compile.js";
import { compilePike } from "./pikevm.js";
import { compileProg, type Prog, progPrefix, simplify, startCond } from "./program.js";
import { maxCap, parse } from "./syntax.js";

export interface Compiled {
  readonly prog: Prog;
  readonly cond: number;
  readonly prefix: string;
  /** 2 * (groups + 1). */
  readonly ncap: number;
  readonly onepass: OnePassProg | undefined;
}

/** Returns `pattern` compiled, or undefined when Go rejects it. */
export function compiled(pattern: string): Compiled | undefined {
  let tree: ReturnType<typeof parse>;
  try {
    tree = parse(pattern);
  } catch {
    return undefined;
  }
  const prog = compileProg(simplify(tree));
  return {
    prog,
    cond: startCond(prog),
    prefix: progPrefix(prog)[0],
    ncap: 2 * (maxCap(tree) + 1),
    onepass: analyseOnePass(prog),
  };
}

/** Returns `pattern` compiled; throws when Go rejects it. */
export function mustCompile(pattern: string): Compiled {
  const c = compiled(pattern);
  if (c === undefined) throw new Error(`${pattern} does not compile`);
  return c;
}

/** The Pike VM's leftmost-first match of `c` in `input` (captures 0..ncap), or null. */
export function reference(c: Compiled, input: string, ncap = c.ncap): number[] | null {
  const cap = new Int32Array(ncap);
  return compilePike(c.prog, c.cond, c.prefix).exec(input, 0, cap, ncap) ? [...cap] : null;
}
