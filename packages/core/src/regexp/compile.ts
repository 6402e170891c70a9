/**
 * Go-compatible regular expressions: Go's own `regexp` package, ported.
 *
 * Every pattern a user supplies (Flux `filterTags.pattern`, routing rules)
 * is compiled here and never handed to `new RegExp`. The pipeline is Go's:
 * `syntax.ts` parses with Go's syntax, limits and error messages;
 * `program.ts` simplifies and compiles to Go's instruction program; the
 * program runs on one of Go's engines, chosen as Go chooses: the one-pass
 * executor for patterns that qualify (`onepass-compile.ts`, run by
 * `onepass.ts`, as a DFA on ASCII input by `onepass-dfa.ts`), the bit-state
 * backtracker for short inputs (`backtrack.ts`), the Pike VM for the rest
 * (`pikevm.ts`). `^prefix(.*)suffix$` needs none of them (`literal-frame.ts`),
 * and a yes/no question (`matchString`) goes to a lazily built DFA when the
 * one-pass engine cannot take it (`match-dfa.ts`).
 * Every engine gives Go's leftmost-first answers, and every one runs in time
 * linear in the input: no pattern can make matching blow up.
 *
 * Unicode classes and case folding use Go 1.19's Unicode 13 tables
 * (`unicode.ts`), not the JavaScript runtime's.
 *
 * Beyond Go 1.19: `(?<name>…)` is a named group (Go 1.22 and later, and Flux).
 * Go checks that a pattern is valid UTF-8 before parsing it; a JavaScript
 * string can carry a lone surrogate, which no Go string can, and it is
 * rejected with Go's `invalid UTF-8` error.
 *
 * Indexes returned here are JavaScript string indexes (UTF-16 code units),
 * not Go's byte offsets; slicing the same string with them gives the same
 * text Go would.
 */
import { type BacktrackMatcher, compileBacktrack } from "./backtrack.js";
import { RegexpError } from "./errors.js";
import { compileLiteralFrame, type LiteralFrameMatcher } from "./literal-frame.js";
import { compileMatchDfa, type MatchDfa } from "./match-dfa.js";
import { compileOnePass, type OnePassMatcher } from "./onepass.js";
import { compileOnePass as analyseOnePass } from "./onepass-compile.js";
import { compilePike, type PikeMatcher } from "./pikevm.js";
import { compileProg, type Prog, progPrefix, simplify, startCond } from "./program.js";
import { parse } from "./syntax.js";
import { capNames, SyntaxError_ } from "./syntax-tree.js";
import { bindTemplate, type ExpandTemplate } from "./template.js";

/** A compiled Go regular expression. Safe to reuse across calls. */
export interface GoRegexp {
  /** The pattern as given to {@link compileRegexp}. */
  readonly source: string;
  /** The number of capturing groups (Go `NumSubexp`). */
  readonly numSubexp: number;
  /**
   * Returns true when the pattern matches anywhere in `s` (Go `MatchString`,
   * an unanchored search). Runs without captures.
   */
  matchString(s: string): boolean;
  /**
   * Returns the leftmost-first match of the pattern in `s` as pairs of
   * indexes into `s` (Go `FindStringSubmatchIndex`): `[start0, end0, start1,
   * end1, …]` with -1 for groups that did not take part; null when there is
   * no match.
   *
   * `options.groups` asks for groups 0 to `groups` only (the others come back
   * as -1), which lets the matcher take a faster path.
   */
  findStringSubmatchIndex(s: string, options?: { groups?: number }): number[] | null;
  /**
   * Like {@link GoRegexp.findStringSubmatchIndex}, writing the positions
   * into `out` (length `2 * (numSubexp + 1)`) instead of allocating; returns
   * whether there was a match. For hot loops over many inputs.
   */
  findStringSubmatchIndexInto(s: string, out: Int32Array): boolean;
  /**
   * Returns the text of the leftmost-first match and of each group (Go
   * `FindStringSubmatch`), `""` for groups that did not take part; null when
   * there is no match.
   */
  findStringSubmatch(s: string): string[] | null;
  /**
   * Returns the successive non-overlapping matches of the pattern in `s`, at
   * most `n` of them when `n >= 0` (Go `FindAllStringSubmatchIndex`, with Go's
   * rule that an empty match right after a previous match is skipped); null
   * when there is none.
   */
  findAllStringSubmatchIndex(s: string, n?: number): number[][] | null;
  /**
   * Returns the names of the groups (Go `SubexpNames`): index 0 and unnamed
   * groups are `""`; a name may repeat.
   */
  subexpNames(): readonly string[];
  /** Returns the index of the leftmost group named `name`, or -1 (Go `SubexpIndex`). */
  subexpIndex(name: string): number;
  /**
   * Returns `template` expanded against `match`, a result of
   * {@link GoRegexp.findStringSubmatchIndex} on `src` (Go `ExpandString`,
   * with the expansion only, not appended to anything).
   */
  expandString(template: string, src: string, match: ArrayLike<number>): string;
  /** Parses `template` once for this regexp's groups; see {@link ExpandTemplate}. */
  compileTemplate(template: string): ExpandTemplate;
}

/** A lone UTF-16 surrogate: text no Go string can hold. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Returns the Go regular expression `pattern` compiled (Go `regexp.Compile`:
 * Perl-flavoured RE2 syntax, leftmost-first matching).
 *
 * Throws a {@link RegexpError} with code `COMPILE_ERROR` and Go's message
 * when Go would reject the pattern (backreferences, lookaround, possessive
 * quantifiers, repeat counts above 1000, …).
 *
 * @example
 * ```ts
 * import { compileRegexp } from "@kubeimg/core/regexp";
 *
 * const re = compileRegexp("^RELEASE\\.(?P<timestamp>.*)Z$");
 * const m = re.findStringSubmatchIndex("RELEASE.2024-01-01T00-00-00Z");
 * m && re.expandString("$timestamp", "RELEASE.2024-01-01T00-00-00Z", m); // "2024-01-01T00-00-00"
 * ```
 */
export function compileRegexp(pattern: string): GoRegexp {
  if (typeof pattern !== "string") {
    throw new TypeError(`compileRegexp: pattern must be a string, got ${typeof pattern}`);
  }
  const bad = loneSurrogate.exec(pattern);
  if (bad !== null) {
    const reason = "invalid UTF-8";
    const fragment = pattern.slice(bad.index);
    throw new RegexpError(pattern, reason, `error parsing regexp: ${reason}: \`${fragment}\``);
  }
  let tree: ReturnType<typeof parse>;
  try {
    tree = parse(pattern);
  } catch (error) {
    if (!(error instanceof SyntaxError_)) throw error;
    const message = `error parsing regexp: ${error.code}: \`${error.expr}\``;
    throw new RegexpError(pattern, error.code, message);
  }
  const names = capNames(tree);
  return new CompiledRegexp(pattern, compileProg(simplify(tree)), names);
}

/** What the fast engines share: run from the start of `s`, captures into `cap[0..ncap)`. */
type Executor = Pick<OnePassMatcher | BacktrackMatcher | LiteralFrameMatcher, "exec">;

class CompiledRegexp implements GoRegexp {
  readonly source: string;
  readonly numSubexp: number;
  readonly #prog: Prog;
  readonly #names: readonly string[];
  readonly #cond: number;
  readonly #prefix: string;
  /** The fastest whole-match executor (literal frame, else one-pass): undefined when none, null until first use. */
  #onepass: Executor | undefined | null = null;
  /** The fast backtracker for short inputs: undefined when unusable, null until first use. */
  #backtrack: BacktrackMatcher | undefined | null = null;
  #pike: PikeMatcher | undefined;
  /** The match-only DFA: undefined when the program has assertions it does not take, null until first use. */
  #dfa: MatchDfa | undefined | null = null;
  #scratch: Int32Array | undefined;
  #lastTemplate: ExpandTemplate | undefined;

  constructor(source: string, prog: Prog, names: string[]) {
    this.source = source;
    this.#prog = prog;
    this.numSubexp = names.length - 1;
    this.#names = Object.freeze(names);
    this.#cond = startCond(prog);
    this.#prefix = progPrefix(prog)[0];
  }

  #fast(): Executor | undefined {
    if (this.#onepass === null) {
      const frame = compileLiteralFrame(this.source);
      this.#onepass = frame ?? compileOnePass(analyseOnePass(this.#prog));
    }
    return this.#onepass;
  }

  /** The fast capturing engine for `s`, when one applies (one-pass, or backtracking a short input). */
  #capturing(s: string): Executor | undefined {
    const fast = this.#fast();
    if (fast !== undefined) return fast;
    if (this.#backtrack === null) {
      this.#backtrack = compileBacktrack(this.#prog, this.#cond, this.#prefix);
    }
    const bt = this.#backtrack;
    return bt !== undefined && s.length <= bt.maxLength ? bt : undefined;
  }

  #pikeVm(): PikeMatcher {
    this.#pike ??= compilePike(this.#prog, this.#cond, this.#prefix);
    return this.#pike;
  }

  /** Go's `doExecute` from the start of `s`. */
  #exec(s: string, cap: Int32Array, ncap: number): boolean {
    const fast = this.#capturing(s);
    if (fast !== undefined) return fast.exec(s, cap, ncap);
    return this.#pikeVm().exec(s, 0, cap, ncap);
  }

  matchString(s: string): boolean {
    this.#scratch ??= new Int32Array(2 * (this.numSubexp + 1));
    const fast = this.#fast();
    if (fast !== undefined) return fast.exec(s, this.#scratch, 0);
    if (this.#dfa === null) this.#dfa = compileMatchDfa(this.#prog, this.#cond);
    const answer = this.#dfa?.test(s);
    if (answer !== undefined) return answer;
    return this.#exec(s, this.#scratch, 0);
  }

  findStringSubmatchIndex(s: string, options?: { groups?: number }): number[] | null {
    const groups = Math.min(options?.groups ?? this.numSubexp, this.numSubexp);
    const size = 2 * (this.numSubexp + 1);
    const cap = new Int32Array(size).fill(-1);
    if (!this.#exec(s, cap, 2 * (Math.max(groups, 0) + 1))) return null;
    const out = new Array<number>(size);
    for (let i = 0; i < size; i++) out[i] = cap[i] as number;
    return out;
  }

  findStringSubmatchIndexInto(s: string, out: Int32Array): boolean {
    const ncap = Math.min(out.length, 2 * (this.numSubexp + 1));
    const fast = this.#capturing(s);
    const hit = fast !== undefined ? fast.exec(s, out, ncap) : this.#pikeVm().exec(s, 0, out, ncap);
    if (hit && ncap < out.length) out.fill(-1, ncap);
    return hit;
  }

  findStringSubmatch(s: string): string[] | null {
    const match = this.findStringSubmatchIndex(s);
    if (match === null) return null;
    const out: string[] = [];
    for (let i = 0; i < match.length; i += 2) {
      const start = match[i] as number;
      out.push(start < 0 ? "" : s.slice(start, match[i + 1]));
    }
    return out;
  }

  findAllStringSubmatchIndex(s: string, n = -1): number[][] | null {
    if (n < 0) n = s.length + 1;
    const size = 2 * (this.numSubexp + 1);
    const out: number[][] = [];
    const end = s.length;
    let prevMatchEnd = -1;
    for (let pos = 0; out.length < n && pos <= end; ) {
      const cap = new Int32Array(size);
      const hit = pos === 0 ? this.#exec(s, cap, size) : this.#pikeVm().exec(s, pos, cap, size);
      if (!hit) break;
      let accept = true;
      const matchEnd = cap[1] as number;
      if (matchEnd === pos) {
        // An empty match: skipped right after a previous match, and the search moves on one character.
        if (cap[0] === prevMatchEnd) accept = false;
        if (pos < end) {
          const c = s.charCodeAt(pos);
          const pair =
            c >= 0xd800 &&
            c <= 0xdbff &&
            pos + 1 < end &&
            (s.charCodeAt(pos + 1) & 0xfc00) === 0xdc00;
          pos += pair ? 2 : 1;
        } else {
          pos = end + 1;
        }
      } else {
        pos = matchEnd;
      }
      prevMatchEnd = matchEnd;
      if (accept) out.push(Array.from(cap));
    }
    return out.length === 0 ? null : out;
  }

  subexpNames(): readonly string[] {
    return this.#names;
  }

  subexpIndex(name: string): number {
    return name === "" ? -1 : this.#names.indexOf(name);
  }

  expandString(template: string, src: string, match: ArrayLike<number>): string {
    let bound = this.#lastTemplate;
    if (bound === undefined || bound.template !== template) {
      bound = this.compileTemplate(template);
      this.#lastTemplate = bound;
    }
    return bound.expand(src, match);
  }

  compileTemplate(template: string): ExpandTemplate {
    return bindTemplate(template, this.#names);
  }
}
