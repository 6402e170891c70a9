/**
 * kuik's anchored patterns (`^(P)$`), compiled once per process and only
 * when a string reaches them.
 *
 * A cluster's routing CRs repeat the same few filters, and a controller
 * recompiles its routing whenever any CR changes; most patterns are never
 * run at all, because their literal prefix already refuses the image. So a
 * pattern is kept by its text in one bounded table shared by every CR and
 * every generation, and its program is built on first use. What cannot wait
 * is knowing whether Go would refuse it (kuik skips the whole CR, or drops
 * the upstream, when it does): {@link knownValid} recognises a plain subset
 * of the syntax that Go always accepts, and anything outside it is compiled
 * at once to find out.
 */
import { compileRegexp, type GoRegexp, type RegexpError } from "@kubeimg/core/regexp";

/** One pattern `P` as kuik compiles it, `^(P)$`. */
export interface AnchoredPattern {
  /** `P` as written. */
  readonly source: string;
  /** Literal text every matching string starts with ("" when none is certain). */
  readonly prefix: string;
  /** Go's refusal of `^(P)$`, when it refuses it. */
  readonly error: RegexpError | undefined;
  /** True when all of `s` matches `^(P)$`. Only for patterns without `error`. */
  match(s: string): boolean;
}

/** Characters with a meaning in RE2 syntax. */
const metacharacters = new Set(".[](){}*+?|^$\\");
/** Punctuation that a backslash turns into itself. */
const escapedLiterals = new Set(".-/:+*?()[]{}|^$\\");
/** Quantifiers that make the preceding character optional or repeatable zero times. */
const optionalQuantifiers = new Set("*?{");

/**
 * True when `pattern` has a `|` outside every group and class, or closes a
 * group it did not open (`a)|(b` ends kuik's wrapping group early, so
 * `^(a)|(b)$` matches strings that do not start with `a`).
 */
function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") {
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++; // a leading ] is literal in a class
      while (i < pattern.length && pattern[i] !== "]") {
        if (pattern[i] === "\\") i++;
        else if (pattern[i] === "[" && pattern[i + 1] === ":") {
          const end = pattern.indexOf(":]", i + 2); // a POSIX class such as [:alpha:]
          if (end !== -1) i = end + 1;
        }
        i++;
      }
    } else if (c === "(") depth++;
    else if (c === ")") {
      if (--depth < 0) return true;
    } else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/**
 * Returns literal text every string matched by `^(pattern)$` must start
 * with, or "" when none is certain. Conservative: stops at the first
 * metacharacter, escape class, non-ASCII character or quantified character,
 * and gives up on top-level alternation. Used to reject most strings without
 * running the regex (routing checks every candidate against every mirror CR).
 *
 * @example
 * ```ts
 * requiredLiteralPrefix("registry\\.example\\.com/.+") // "registry.example.com/"
 * requiredLiteralPrefix("a|b") // ""
 * ```
 */
export function requiredLiteralPrefix(pattern: string): string {
  if (hasTopLevelAlternation(pattern)) return "";
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    let literal: string;
    let width: number;
    if (c.charCodeAt(0) > 0x7e || c.charCodeAt(0) < 0x20) break;
    if (!metacharacters.has(c)) {
      literal = c;
      width = 1;
    } else if (c === "\\" && escapedLiterals.has(pattern[i + 1] ?? "")) {
      literal = pattern[i + 1] as string;
      width = 2;
    } else {
      break;
    }
    const next = pattern[i + width] ?? "";
    if (optionalQuantifiers.has(next)) break;
    out += literal;
    if (next === "+") break;
    i += width;
  }
  return out;
}

const isAlphanumeric = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const printable = (c: number): boolean => c >= 0x20 && c <= 0x7e;
/** Perl classes Go accepts after a backslash. */
const perlClasses = new Set("dDsSwW");
/** A character that stands for itself in a class of the plain subset. */
const classLiteral = (c: number): boolean =>
  printable(c) && c !== 0x5c && c !== 0x5b && c !== 0x5d && c !== 0x2d;

/**
 * Returns true when `pattern` lies in a plain subset of RE2 syntax for which
 * Go's `regexp.Compile("^(" + pattern + ")$")` always succeeds: printable
 * ASCII; literals; a backslash before punctuation or one of `dDsSwW`; `.`,
 * `^`, `$`; classes of literals and ascending ranges (no backslash, `[`, `-`
 * or `]` inside); groups `( … )` with `|`; one `*`, `+` or `?` after an atom.
 * False means "not known", not "invalid": such patterns are compiled at once.
 *
 * @example
 * ```ts
 * knownValid("docker\\.io/library/(nginx|redis):.+") // true
 * knownValid("a{2}") // false (compiled to find out)
 * ```
 */
export function knownValid(pattern: string): boolean {
  if (pattern.length > 1024) return false;
  let depth = 0;
  /** Whether the previous item can take a quantifier. */
  let quantifiable = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (!printable(c)) return false;
    switch (c) {
      case 0x2a /* * */:
      case 0x2b /* + */:
      case 0x3f /* ? */:
        if (!quantifiable) return false;
        quantifiable = false;
        break;
      case 0x28 /* ( */:
        if (pattern.charCodeAt(i + 1) === 0x3f /* (? */ || ++depth > 100) return false;
        quantifiable = false;
        break;
      case 0x29 /* ) */:
        if (--depth < 0) return false;
        quantifiable = true;
        break;
      case 0x7c /* | */:
        quantifiable = false;
        break;
      case 0x5e /* ^ */:
      case 0x24 /* $ */:
        quantifiable = false;
        break;
      case 0x7b /* { */:
      case 0x7d /* } */:
      case 0x5d /* ] */:
        return false;
      case 0x5c /* \ */:
        {
          const next = pattern.charCodeAt(++i);
          if (!printable(next)) return false;
          if (isAlphanumeric(next) && !perlClasses.has(pattern[i] as string)) return false;
          quantifiable = true;
          break;
        }
      case 0x5b /* [ */:
        {
          i++;
          if (pattern.charCodeAt(i) === 0x5e /* ^ */) i++;
          let items = 0;
          while (i < pattern.length && pattern.charCodeAt(i) !== 0x5d /* ] */) {
            const lo = pattern.charCodeAt(i);
            if (!classLiteral(lo)) return false;
            if (pattern.charCodeAt(i + 1) === 0x2d /* - */) {
              const hi = pattern.charCodeAt(i + 2);
              if (!classLiteral(hi) || hi < lo) return false;
              i += 3;
            } else i++;
            items++;
          }
          if (i >= pattern.length || items === 0) return false;
          quantifiable = true;
          break;
        }
      default:
        quantifiable = true;
    }
  }
  return depth === 0;
}

class Pattern implements AnchoredPattern {
  readonly source: string;
  readonly prefix: string;
  readonly error: RegexpError | undefined;
  /** Set for `.*` and `.+`, which Go reads as "any run of non-newline characters". */
  readonly #anyLine: "any" | "nonEmpty" | undefined;
  #regexp: GoRegexp | undefined;

  constructor(source: string) {
    this.source = source;
    this.prefix = requiredLiteralPrefix(source);
    this.#anyLine = source === ".*" ? "any" : source === ".+" ? "nonEmpty" : undefined;
    if (this.#anyLine === undefined && !knownValid(source)) {
      try {
        this.#regexp = compileRegexp(`^(${source})$`);
      } catch (e) {
        this.error = e as RegexpError;
      }
    }
  }

  match(s: string): boolean {
    if (this.#anyLine !== undefined) {
      return !s.includes("\n") && (this.#anyLine === "any" || s !== "");
    }
    if (!s.startsWith(this.prefix)) return false;
    this.#regexp ??= compileRegexp(`^(${this.source})$`);
    return this.#regexp.matchString(s);
  }
}

/** How many distinct patterns are kept before the table starts over. */
const PATTERN_CAPACITY = 8192;
const patterns = new Map<string, Pattern>();

/**
 * Returns the shared anchored pattern for `source`: its literal prefix now,
 * its validity now, its program on first use.
 *
 * @example
 * ```ts
 * const p = anchoredPattern("quay\\.io/.+");
 * p.error === undefined && p.match("quay.io/team/app:1") // true
 * ```
 */
export function anchoredPattern(source: string): AnchoredPattern {
  let pattern = patterns.get(source);
  if (pattern === undefined) {
    pattern = new Pattern(source);
    if (patterns.size >= PATTERN_CAPACITY) patterns.clear();
    patterns.set(source, pattern);
  }
  return pattern;
}
