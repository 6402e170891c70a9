/**
 * An independent statement, for the tests, of which characters a terminal
 * may act on (so the sanitizer is not checked against itself).
 */

/** Returns the characters of `text` a terminal could act on, line breaks allowed when asked. */
export function unsafeCharacters(text: string, options: { newlines?: boolean } = {}): string[] {
  const found: string[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    if (options.newlines === true && c === 0x0a) continue;
    const unsafe =
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069);
    if (unsafe) found.push(ch);
  }
  return found;
}
