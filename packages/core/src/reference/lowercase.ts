/**
 * Go's `strings.ToLower` questions that reference parsing asks, answered
 * without building lower-cased copies on the common path.
 *
 * Go lowers one rune at a time with the simple Unicode mapping. Only three
 * kinds of rune lower to ASCII: `A`–`Z`, U+0130 (İ → `i`) and U+212A
 * (Kelvin sign → `k`); every other non-ASCII rune stays non-ASCII, which no
 * part of the reference grammar accepts.
 *
 * Whether a non-ASCII rune has a lower-case form is read from the Unicode
 * version of Go 1.19 ({@link lowerCaseChanges}), not from the JavaScript
 * engine, whose newer Unicode knows capitals that Go's tables do not.
 *
 * @module
 */

import { lowerCaseChanges } from "./unicode13-case.js";

/**
 * True when `strings.ToLower(s[start:end]) != s[start:end]` in Go: some
 * character has a lower-case form.
 */
export function hasUpperCase(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x41) continue;
    if (c <= 0x5a) return true;
    if (c >= 0x80) {
      const codePoint = s.codePointAt(i) as number;
      if (lowerCaseChanges(codePoint)) return true;
      if (codePoint > 0xffff) i++;
    }
  }
  return false;
}

/**
 * Returns `strings.ToLower(s)` when the result is all ASCII, or `undefined`
 * when it would keep a non-ASCII character (and so could never match the
 * reference grammar).
 */
export function toLowerAscii(s: string): string | undefined {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 0x20);
    else if (c < 0x80) out += s[i];
    else if (c === 0x130) out += "i";
    else if (c === 0x212a) out += "k";
    else return undefined;
  }
  return out;
}
