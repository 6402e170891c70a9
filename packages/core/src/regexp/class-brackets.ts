/**
 * Bridges one place where re2js's parser reads a character class differently
 * from Go's: a `[` inside a class followed by `:]`, as in `[[:]]`.
 *
 * Inside a class, Go's `parseNamedClass` (regexp/syntax parse.go) treats
 * `[:` as the start of a POSIX class such as `[:alpha:]` only when a `:]`
 * follows it, searching from just after the `[:`. re2js searches from the `:`
 * itself, so in `[:]` it finds the `:]` that shares the colon, reads the name
 * `[:]` and rejects the pattern with `invalid character class range`. Go reads
 * the same text as the literal `[`, then `:`, then the `]` that closes the
 * class: `[[:]]` is the class `[[:]` followed by a literal `]`.
 *
 * We find those brackets the way Go's parser walks the pattern and escape them
 * (`\[` means exactly the literal `[` there), and map re2js's error fragments
 * back to the text as given.
 */
import { skipQuotedText } from "./quoted-text.js";

/** The pattern handed to re2js, and what is needed to map its errors back. */
export interface ClassBracketRewrite {
  /** The pattern with each affected `[` written as `\[`. */
  readonly pattern: string;
  /** Indexes, in the original pattern, of the `[`s that gained a backslash. */
  readonly escaped: readonly number[];
  /**
   * Go's error fragment for the first `[:]` that Go does read as a POSIX class
   * name (because a later `:]` ends it, as in `[[:]:]]`), when there is one.
   * re2js reports such a name as just `[:]`.
   */
  readonly badName: string | undefined;
}

/** Escapes that stand for a whole class inside `[…]` and so cannot start a range. */
const classEscapes: ReadonlySet<string> = new Set(["p", "P", "d", "D", "s", "S", "w", "W"]);

/**
 * Returns the index just past the escape at `i`, as far as Go's parser reads
 * it: `\p{…}` and `\x{…}` to the brace, `\pL` one letter, `\xHH` two
 * characters (whatever they are), anything else one character.
 */
function skipEscape(pattern: string, i: number): number {
  const kind = pattern[i + 1];
  const wide = kind === "p" || kind === "P" || kind === "x";
  if (wide && pattern[i + 2] === "{") {
    const close = pattern.indexOf("}", i + 3);
    return close < 0 ? pattern.length : close + 1;
  }
  if (kind === "x") return i + 4;
  return wide ? i + 3 : i + 2;
}

/**
 * Returns `pattern` with every `[` that Go reads as a literal but re2js would
 * read as the start of the POSIX class name `[:]` escaped.
 *
 * @example
 * ```ts
 * escapeClassBrackets("[[:]]").pattern; // "[\\[:]]"
 * escapeClassBrackets("[[:alpha:]]").pattern; // unchanged
 * ```
 */
export function escapeClassBrackets(pattern: string): ClassBracketRewrite {
  // Fast path: the quirk needs the text `[:]`.
  if (!pattern.includes("[:]")) return { pattern, escaped: [], badName: undefined };
  const n = pattern.length;
  const escaped: number[] = [];
  let badName: string | undefined;
  let i = 0;
  while (i < n) {
    const c = pattern[i];
    if (c === "\\") {
      if (pattern[i + 1] === "Q") {
        i = skipQuotedText(pattern, i);
      } else {
        i = skipEscape(pattern, i);
      }
    } else if (c === "(" && (pattern.startsWith("(?P<", i) || pattern.startsWith("(?<", i))) {
      // A group name runs to the first `>`; it is never class text.
      const close = pattern.indexOf(">", i);
      i = close < 0 ? n : close + 1;
    } else if (c === "[") {
      i = i + 1;
      if (pattern[i] === "^") i++;
      let first = true;
      while (i < n && (pattern[i] !== "]" || first)) {
        first = false;
        if (pattern.startsWith("[:", i)) {
          const close = pattern.indexOf(":]", i + 2);
          if (close >= 0) {
            if (badName === undefined && pattern[i + 2] === "]") {
              badName = pattern.slice(i, close + 2);
            }
            i = close + 2;
            continue;
          }
          if (pattern[i + 2] === "]") escaped.push(i);
        }
        // `\pL` or `\d` stands alone; a single character may start a range,
        // whose high end is never read as a POSIX class.
        if (pattern[i] === "\\" && classEscapes.has(pattern[i + 1] ?? "")) {
          i = skipEscape(pattern, i);
          continue;
        }
        i = pattern[i] === "\\" ? skipEscape(pattern, i) : i + 1;
        if (pattern[i] === "-" && i + 1 < n && pattern[i + 1] !== "]") {
          i = pattern[i + 1] === "\\" ? skipEscape(pattern, i + 1) : i + 2;
        }
      }
      i++;
    } else {
      i++;
    }
  }
  if (escaped.length === 0) return { pattern, escaped, badName };
  let out = "";
  let copied = 0;
  for (const at of escaped) {
    out += `${pattern.slice(copied, at)}\\`;
    copied = at;
  }
  return { pattern: out + pattern.slice(copied), escaped, badName };
}

/**
 * Returns `fragment`, a piece of `rewrite.pattern` quoted in an error, as the
 * same piece of the original pattern (without the backslashes we added).
 *
 * @example
 * ```ts
 * const r = escapeClassBrackets("[[:]");
 * restoreClassBrackets("[\\[:]", r); // "[[:]"
 * ```
 */
export function restoreClassBrackets(fragment: string, rewrite: ClassBracketRewrite): string {
  if (rewrite.escaped.length === 0) return fragment;
  const at = rewrite.pattern.indexOf(fragment);
  if (at < 0) return fragment;
  // Position k of the rewritten pattern is original position k - (escapes before it).
  let out = "";
  let escapesBefore = 0;
  for (let k = 0; k < at + fragment.length; k++) {
    const original = k - escapesBefore;
    if (rewrite.escaped[escapesBefore] === original && rewrite.pattern[k] === "\\") {
      escapesBefore++;
      continue;
    }
    if (k >= at) out += rewrite.pattern[k];
  }
  return out;
}
