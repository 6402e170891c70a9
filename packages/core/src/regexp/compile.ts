/**
 * Go-compatible regular expressions over re2js.
 *
 * Every pattern a user supplies (Flux `filterTags.pattern`, routing rules)
 * is compiled here and never handed to `new RegExp`: re2js implements Go's
 * RE2 parser and matcher, so syntax, error messages and leftmost-first
 * semantics are Go's, and matching runs in time linear in the input.
 *
 * Where re2js and Go part ways we bridge the gap:
 *
 * - Go accepts several groups with the same name; re2js rejects them. A
 *   repeated name is compiled under a fresh name and reported under the
 *   original one by {@link GoRegexp.subexpNames}.
 * - Go checks that a pattern is valid UTF-8 before parsing it. A JavaScript
 *   string can carry a lone surrogate, which no Go string can; it is rejected
 *   with Go's `invalid UTF-8` error.
 * - Go has `Expand`; re2js has JavaScript replacement strings instead. Go's
 *   template language lives in `template.ts`.
 * - re2js misreads a `[` followed by `:]` inside a class (`[[:]]`) as a POSIX
 *   class name; `class-brackets.ts` escapes that `[` first.
 * - Error messages are rebuilt from re2js's reason and fragment in Go's exact
 *   shape (see `toRegexpError`).
 *
 * Matching uses re2js's parser and compiled program throughout. For speed on
 * the many short strings of tag filtering, two of Go's own engines run here
 * over that program with flat tables (`onepass.ts`, `backtrack.ts`): the
 * one-pass executor for patterns that qualify (as a DFA on ASCII input,
 * `onepass-dfa.ts`), the bit-state backtracker for short inputs otherwise;
 * `^prefix(.*)suffix$` needs neither (`literal-frame.ts`); re2js's engines
 * handle the rest. All of them give
 * Go's leftmost-first answers, and tests hold them to re2js's.
 *
 * Indexes returned here are JavaScript string indexes (UTF-16 code units),
 * not Go's byte offsets; slicing the same string with them gives the same
 * text Go would.
 */
import { RE2JS, RE2JSException, RE2JSSyntaxException } from "re2js";
import { type BacktrackMatcher, compileBacktrack } from "./backtrack.js";
import {
  type ClassBracketRewrite,
  escapeClassBrackets,
  restoreClassBrackets,
} from "./class-brackets.js";
import { RegexpError } from "./errors.js";
import { compileLiteralFrame, type LiteralFrameMatcher } from "./literal-frame.js";
import { renameDuplicateGroups } from "./named-groups.js";
import { compileOnePass, type OnePassMatcher } from "./onepass.js";
import { bindTemplate, type ExpandTemplate } from "./template.js";

/** A compiled Go regular expression. Safe to reuse across calls. */
export interface GoRegexp {
  /** The pattern as given to {@link compileRegexp}. */
  readonly source: string;
  /** The number of capturing groups (Go `NumSubexp`). */
  readonly numSubexp: number;
  /**
   * Returns true when the pattern matches anywhere in `s` (Go `MatchString`,
   * an unanchored search). Runs without captures, on re2js's DFA when it can.
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
  const brackets = escapeClassBrackets(pattern);
  let compiled: RE2JS;
  let originals: ReadonlyMap<string, string> | undefined;
  try {
    compiled = RE2JS.compile(brackets.pattern);
  } catch (error) {
    if (!isDuplicateNameError(error)) throw toRegexpError(pattern, error, brackets);
    const renamed = renameDuplicateGroups(brackets.pattern);
    try {
      compiled = RE2JS.compile(renamed.pattern);
    } catch (second) {
      throw toRegexpError(pattern, second, brackets, renamed.originals);
    }
    originals = renamed.originals;
  }
  return new CompiledRegexp(pattern, compiled, originals);
}

function isDuplicateNameError(error: unknown): boolean {
  return (
    error instanceof RE2JSSyntaxException &&
    error.getDescription() === "duplicate capture group name"
  );
}

/**
 * Go reports these errors against the whole pattern (`Expr: s` in Go's
 * `parse`); re2js gives no fragment for them.
 */
const wholePatternReasons: ReadonlySet<string> = new Set([
  "expression nests too deeply",
  "expression too large",
]);

/**
 * Returns Go's error for a pattern re2js rejected.
 *
 * Go always prints the fragment, even an empty one (`trailing backslash at end
 * of expression: ` followed by an empty quoted fragment); re2js leaves an
 * empty one out. A pattern ending in `(?P<` or `(?<` is, for Go, an unknown
 * flag after `(?` (`invalid or unsupported Perl syntax: (?P`), since Go reads
 * a group name only when at least one character follows the `<`; re2js calls
 * it an invalid named capture.
 */
function toRegexpError(
  pattern: string,
  error: unknown,
  brackets: ClassBracketRewrite,
  originals?: ReadonlyMap<string, string>,
): unknown {
  if (!(error instanceof RE2JSException)) return error;
  if (!(error instanceof RE2JSSyntaxException)) {
    const message = error.message.startsWith("error parsing regexp: ")
      ? error.message
      : `error parsing regexp: ${error.message}`;
    return new RegexpError(pattern, message, message, { cause: error });
  }
  let reason = error.getDescription();
  let fragment = error.getPattern() ?? "";
  if (originals) {
    for (const [fresh, original] of originals) fragment = fragment.split(fresh).join(original);
  }
  fragment = restoreClassBrackets(fragment, brackets);
  if (wholePatternReasons.has(reason)) {
    fragment = pattern;
  } else if (reason === "invalid character class range" && fragment === "[:]") {
    fragment = brackets.badName ?? fragment;
  } else if (
    reason === "invalid named capture" &&
    (fragment === "(?P<" || fragment === "(?<") &&
    pattern.endsWith(fragment)
  ) {
    reason = "invalid or unsupported Perl syntax";
    fragment = fragment.slice(0, 3);
  }
  const message = `error parsing regexp: ${reason}: \`${fragment}\``;
  return new RegexpError(pattern, reason, message, { cause: error });
}

/** What the fast engines share: run from the start of `s`, captures into `cap[0..ncap)`. */
type Executor = Pick<OnePassMatcher | BacktrackMatcher | LiteralFrameMatcher, "exec">;

/** re2js's compiled program (its `RE2` class, which the package does not export by name). */
type RE2 = ReturnType<RE2JS["re2"]>;

/** re2js's anchoring flag for an unanchored search (RE2Flags.UNANCHORED). */
const UNANCHORED = 0;

class CompiledRegexp implements GoRegexp {
  readonly source: string;
  readonly numSubexp: number;
  readonly #pattern: RE2JS;
  readonly #re2: RE2;
  readonly #names: readonly string[];
  /** The fastest whole-match executor (literal frame, else one-pass): undefined when none, null until first use. */
  #onepass: Executor | undefined | null = null;
  /** The fast backtracker for short inputs: undefined when unusable, null until first use. */
  #backtrack: BacktrackMatcher | undefined | null = null;
  #scratch: Int32Array | undefined;
  #lastTemplate: ExpandTemplate | undefined;

  constructor(source: string, pattern: RE2JS, originals: ReadonlyMap<string, string> | undefined) {
    this.source = source;
    this.#pattern = pattern;
    this.#re2 = pattern.re2();
    this.numSubexp = pattern.groupCount();
    const names: string[] = new Array<string>(this.numSubexp + 1).fill("");
    for (const [name, index] of Object.entries(pattern.namedGroups())) {
      names[index] = originals?.get(name) ?? name;
    }
    this.#names = Object.freeze(names);
  }

  #fast(): Executor | undefined {
    if (this.#onepass === null) {
      this.#onepass = compileLiteralFrame(this.source) ?? compileOnePass(this.#re2);
    }
    return this.#onepass;
  }

  /** The fast capturing engine for `s`, when one applies (one-pass, or backtracking a short input). */
  #capturing(s: string): Executor | undefined {
    const fast = this.#fast();
    if (fast !== undefined) return fast;
    if (this.#backtrack === null) this.#backtrack = compileBacktrack(this.#re2);
    const bt = this.#backtrack;
    return bt !== undefined && s.length <= bt.maxLength ? bt : undefined;
  }

  matchString(s: string): boolean {
    const fast = this.#fast();
    if (fast !== undefined) {
      this.#scratch ??= new Int32Array(2 * (this.numSubexp + 1));
      return fast.exec(s, this.#scratch, 0);
    }
    return this.#pattern.test(s);
  }

  findStringSubmatchIndex(s: string, options?: { groups?: number }): number[] | null {
    const groups = Math.min(options?.groups ?? this.numSubexp, this.numSubexp);
    const size = 2 * (this.numSubexp + 1);
    const fast = this.#capturing(s);
    if (fast !== undefined) {
      const cap = new Int32Array(size).fill(-1);
      if (!fast.exec(s, cap, 2 * (Math.max(groups, 0) + 1))) return null;
      const out = new Array<number>(size);
      for (let i = 0; i < size; i++) out[i] = cap[i] as number;
      return out;
    }
    // re2js's capturing engine for long inputs is its NFA; its DFA answers
    // "no match" far faster, so ask it first.
    if (!this.#pattern.test(s)) return null;
    if (groups === this.numSubexp) {
      return this.#re2.findSubmatchIndex(s) as number[] | null;
    }
    const [matched, found] = this.#re2.matchWithGroup(
      s,
      0,
      s.length,
      UNANCHORED,
      Math.max(groups, 0) + 1,
    ) as [boolean, number[] | null];
    if (!matched || found === null) return null;
    const out = new Array<number>(size).fill(-1);
    for (let i = 0; i < found.length && i < out.length; i++) out[i] = found[i] as number;
    return out;
  }

  findStringSubmatchIndexInto(s: string, out: Int32Array): boolean {
    const fast = this.#capturing(s);
    if (fast !== undefined)
      return fast.exec(s, out, Math.min(out.length, 2 * (this.numSubexp + 1)));
    if (!this.#pattern.test(s)) return false;
    const found = this.#re2.findSubmatchIndex(s) as number[] | null;
    if (found === null) return false;
    for (let i = 0; i < out.length; i++) out[i] = i < found.length ? (found[i] as number) : -1;
    return true;
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
    if (n === 0) return null;
    return this.#re2.findAllSubmatchIndex(s, n) as number[][] | null;
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
