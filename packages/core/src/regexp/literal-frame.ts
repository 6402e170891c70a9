/**
 * The common tag filter that is not one-pass: a literal prefix, one group of
 * "anything on the line", a literal suffix, anchored at both ends, such as
 * Flux's documented `^RELEASE\.(?P<timestamp>.*)Z$`. The greedy `.*` cannot
 * choose its end until it sees the suffix, so Go (and this package) would
 * backtrack over every tag; yet with both ends anchored the only possible
 * match is the whole tag, with the group between the two literals. This
 * module recognises exactly that shape from the pattern text and answers
 * with two string comparisons and a newline scan.
 */

/** A matcher for `^P(.*)S$` or `^P(.+)S$` (the group may be named). */
export interface LiteralFrameMatcher {
  /** Same contract as the one-pass executor's `exec` (captures 0 and 1 only). */
  exec(s: string, cap: Int32Array, ncap: number): boolean;
}

/** Characters with a meaning in RE2 syntax. */
const metacharacters = new Set(".[](){}*+?|^$\\");

/** Reads a run of literal characters from `i`; returns the text and where it stopped. */
function literalRun(pattern: string, i: number): [string, number] {
  let text = "";
  while (i < pattern.length) {
    const c = pattern.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) break;
    const ch = pattern[i] as string;
    if (!metacharacters.has(ch)) {
      text += ch;
      i++;
      continue;
    }
    const next = pattern.charCodeAt(i + 1);
    const punctuation =
      next >= 0x21 &&
      next <= 0x7e &&
      !(
        (next >= 0x30 && next <= 0x39) ||
        (next >= 0x41 && next <= 0x5a) ||
        (next >= 0x61 && next <= 0x7a)
      );
    if (ch !== "\\" || !punctuation) break;
    text += pattern[i + 1];
    i += 2;
  }
  return [text, i];
}

/**
 * Returns the matcher when `pattern` is exactly `^` literal `(` [`?P<name>`
 * or `?<name>`] `.*` or `.+` `)` literal `$`, else undefined. Literals are
 * printable ASCII, with punctuation escaped by a backslash where needed.
 */
export function compileLiteralFrame(pattern: string): LiteralFrameMatcher | undefined {
  if (!pattern.startsWith("^")) return undefined;
  const [prefix, afterPrefix] = literalRun(pattern, 1);
  let i = afterPrefix;
  if (pattern[i] !== "(") return undefined;
  i++;
  const named = /^\?P?<[A-Za-z0-9_]+>/.exec(pattern.slice(i));
  if (named) i += named[0].length;
  const any = pattern.slice(i, i + 3);
  if (any !== ".*)" && any !== ".+)") return undefined;
  const nonEmpty = any === ".+)";
  const [suffix, afterSuffix] = literalRun(pattern, i + 3);
  if (afterSuffix !== pattern.length - 1 || pattern[afterSuffix] !== "$") return undefined;
  const least = prefix.length + suffix.length + (nonEmpty ? 1 : 0);
  return {
    exec(s: string, cap: Int32Array, ncap: number): boolean {
      for (let k = 0; k < ncap; k++) cap[k] = -1;
      if (s.length < least || !s.startsWith(prefix) || !s.endsWith(suffix)) return false;
      const end = s.length - suffix.length;
      const newline = s.indexOf("\n", prefix.length);
      if (newline !== -1 && newline < end) return false;
      if (ncap > 0) cap[0] = 0;
      if (ncap > 1) cap[1] = s.length;
      if (ncap > 2) cap[2] = prefix.length;
      if (ncap > 3) cap[3] = end;
      return true;
    },
  };
}
