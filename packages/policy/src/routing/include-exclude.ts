/**
 * kuik's include/exclude regex filter (`internal/filter/include_exclude.go`):
 * each pattern P is compiled as Go RE2 `^(P)$`, so it must match the whole
 * string; a string passes when some include matches and no exclude does; an
 * exclude-only filter includes `.*`; a filter with no patterns at all matches
 * nothing.
 */
import { compileRegexp, type GoRegexp } from "@kubeimg/core/regexp";

/** A compiled include/exclude filter. */
export interface IncludeExcludeFilter {
  /** The include patterns as written (after kuik's `.*` defaulting). */
  readonly include: readonly string[];
  /** The exclude patterns as written. */
  readonly exclude: readonly string[];
  /** For each include pattern, literal text a match must start with ("" when none is certain). */
  readonly includePrefixes: readonly string[];
  /** True when some include pattern and no exclude pattern matches all of `s`. */
  match(s: string): boolean;
}

/** Characters with a meaning in RE2 syntax. */
const metacharacters = new Set(".[](){}*+?|^$\\");
/** Punctuation that a backslash turns into itself. */
const escapedLiterals = new Set(".-/:+*?()[]{}|^$\\");
/** Quantifiers that make the preceding character optional or repeatable zero times. */
const optionalQuantifiers = new Set("*?{");

/** True when `pattern` has a `|` outside every group and class. */
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
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
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

interface CompiledPattern {
  readonly prefix: string;
  readonly regexp: GoRegexp;
  /** Set for `.*` and `.+`, which Go reads as "any run of non-newline characters". */
  readonly anyLine: "any" | "nonEmpty" | undefined;
}

function anchored(pattern: string): CompiledPattern {
  return {
    prefix: requiredLiteralPrefix(pattern),
    regexp: compileRegexp(`^(${pattern})$`),
    anyLine: pattern === ".*" ? "any" : pattern === ".+" ? "nonEmpty" : undefined,
  };
}

function matches(p: CompiledPattern, s: string): boolean {
  if (p.anyLine !== undefined) return !s.includes("\n") && (p.anyLine === "any" || s !== "");
  return s.startsWith(p.prefix) && p.regexp.matchString(s);
}

/**
 * Returns the compiled filter. Mirrors `CompileIncludeExcludeFilter`; throws
 * the `RegexpError` of the first pattern Go's `regexp.Compile` would refuse.
 * Each pattern's literal prefix is checked first, so most strings are
 * refused without running the regex.
 *
 * @example
 * ```ts
 * const f = compileIncludeExcludeFilter(["docker\\.io/.+"], [".*:latest"]);
 * f.match("docker.io/library/nginx:1.25") // true
 * ```
 */
export function compileIncludeExcludeFilter(
  include: readonly string[],
  exclude: readonly string[],
): IncludeExcludeFilter {
  const includePatterns = include.length === 0 && exclude.length > 0 ? [".*"] : [...include];
  const includeRegexps = includePatterns.map(anchored);
  const excludeRegexps = exclude.map(anchored);
  return Object.freeze({
    include: Object.freeze(includePatterns),
    exclude: Object.freeze([...exclude]),
    includePrefixes: Object.freeze(includeRegexps.map((r) => r.prefix)),
    match: (s: string): boolean =>
      includeRegexps.some((r) => matches(r, s)) && !excludeRegexps.some((r) => matches(r, s)),
  });
}
