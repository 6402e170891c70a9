/**
 * The literal text every match of a pattern must start with, read from the
 * pattern's text alone. Filters use it to refuse most strings with one
 * `startsWith` before any engine runs: routing checks every list entry
 * against every mirror CR, and a tag filter such as `^main-…` refuses most
 * of a repository's tags on their first character.
 */

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
 * with (the same holds for `^pattern` when `pattern` compiles), or "" when
 * none is certain. Conservative: stops at the first
 * metacharacter, escape class, non-ASCII character or quantified character,
 * and gives up on top-level alternation. Used to reject most strings without
 * running the regex (routing checks every candidate against every mirror CR).
 *
 * @example
 * ```ts
 * import { requiredLiteralPrefix } from "@kubeimg/core/regexp";
 *
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
