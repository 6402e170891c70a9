/**
 * The one guard between text the CLI did not write (file contents, registry
 * answers, error messages built from them, arguments) and the terminal.
 *
 * A registry's error text or a tag can carry escape sequences: retitle the
 * window, erase the line, conceal text, move the cursor, enough to print a
 * fake "selected 9.9.9" over the real answer. Every such piece of text goes
 * through {@link sanitizeText} before it is written; the CLI's own styling
 * (bold, colours, the progress line's erase) is applied afterwards, around
 * sanitized text, so it survives while foreign sequences do not. JSON output
 * needs no guard: `JSON.stringify` escapes every control character.
 */

// C0 controls (ESC, CR, BEL, backspace, line breaks), DEL, the C1 controls
// (0x9b is a one-byte CSI on some terminals), the Unicode line and
// paragraph separators, and the bidirectional overrides and isolates, which
// reorder what is displayed without changing what is written.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Returns `text` with every control character, escape introducer and
 * bidirectional override replaced by `?`, so that it prints as inert
 * characters on one line.
 */
export function sanitizeText(text: string): string {
  return text.replace(UNSAFE, "?");
}

/**
 * Returns `text` sanitized line by line: line breaks are kept (for text that
 * is meant to span lines, such as help), every other unsafe character is
 * replaced by `?`.
 */
export function sanitizeLines(text: string): string {
  return text
    .split("\n")
    .map((line) => sanitizeText(line))
    .join("\n");
}
