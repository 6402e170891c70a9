/**
 * Go's `strconv.Quote`, which is what `fmt`'s `%q` prints for a string:
 * Masterminds' error messages quote the constraint and version text this
 * way, so a message built here reads exactly like the one Flux logs.
 * Internal: not a subpath of its own.
 */

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** The escapes `strconv.Quote` uses for control characters that have one. */
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

/**
 * Returns `s` as Go's `strconv.Quote` writes it: in double quotes, with `"`
 * and `\` escaped, printable characters as they are, and the rest as `\n`,
 * `\x1f`, `\u00a0` or `\U0001f600`-style escapes (lower-case hex). A lone
 * surrogate, which UTF-8 cannot carry, is written as U+FFFD, the character
 * Go's decoders put in its place.
 *
 * @example
 * ```ts
 * quoteGo('a"b');     // "\"a\\\"b\""
 * quoteGo("x\ty");    // "\"x\\ty\""
 * quoteGo("\u00a0");  // "\"\\u00a0\""
 * ```
 */
export function quoteGo(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (r === 0x22 || r === 0x5c) out += `\\${ch}`;
    else if (r >= 0xd800 && r <= 0xdfff) out += "\ufffd";
    else if (PRINTABLE.test(ch)) out += ch;
    else if (SHORT_ESCAPES[r] !== undefined) out += SHORT_ESCAPES[r];
    else if (r < 0x20 || r === 0x7f) out += `\\x${hex(r, 2)}`;
    else if (r < 0x10000) out += `\\u${hex(r, 4)}`;
    else out += `\\U${hex(r, 8)}`;
  }
  return `${out}"`;
}
