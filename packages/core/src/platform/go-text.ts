/**
 * The few Go string rules containerd's platform code leans on, reproduced
 * so the answers agree with it to the byte: `strings.ToLower` (simple
 * per-rune mapping from Go 1.19's Unicode 13 tables, so `İ` lowers to plain
 * `i`), `strconv.Quote` (what `%q` prints in its error messages),
 * `path.Join` (how a platform is printed), `url.PathUnescape` (how OS
 * versions and features are decoded), `strconv.Atoi` (how variant numbers
 * are read) and Go's byte-wise string order (how features sort).
 *
 * Private to the platform module: these move to the shared home of Go
 * behaviours once it exists, and are not part of the public surface.
 *
 * @module
 */
import { lowerCaseChanges } from "../reference/unicode13-case.js";

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Escapes `strconv.Quote` writes for the control characters that have a short one. */
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

/** True when `s` holds only printable ASCII other than `"` and `\`: `%q` then only adds quotes. */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/**
 * Returns `s` as Go's `strconv.Quote` (and so `fmt`'s `%q`) writes it. A lone
 * surrogate, which UTF-8 cannot carry, is written as U+FFFD as Go's decoder
 * would read it.
 */
export function goQuote(s: string): string {
  if (isPlainAscii(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (r === 0x22 || r === 0x5c) out += `\\${ch}`;
    else if (r >= 0xd800 && r <= 0xdfff) out += "\ufffd";
    else if (r < 0x80 ? r >= 0x20 && r < 0x7f : PRINTABLE.test(ch)) out += ch;
    else if (SHORT_ESCAPES[r] !== undefined) out += SHORT_ESCAPES[r];
    else if (r < 0x20 || r === 0x7f) out += `\\x${hex(r, 2)}`;
    else if (r < 0x10000) out += `\\u${hex(r, 4)}`;
    else out += `\\U${hex(r, 8)}`;
  }
  return `${out}"`;
}

/**
 * Returns Go's `strings.ToLower(s)`: ASCII letters lowered, every other rune
 * through Go 1.19's simple `unicode.ToLower` (no special casing, no context:
 * `İ` becomes `i`, a final `Σ` becomes `σ`). Runes that only newer Unicode
 * versions give a lower case stay as they are.
 */
export function goToLower(s: string): string {
  let ascii = true;
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      ascii = false;
      break;
    }
    if (c >= 0x41 && c <= 0x5a) upper = true;
  }
  if (ascii) return upper ? s.toLowerCase() : s;
  let out = "";
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (r < 0x80) out += r >= 0x41 && r <= 0x5a ? String.fromCharCode(r + 32) : ch;
    else if (r >= 0xd800 && r <= 0xdfff) out += "\ufffd";
    else if (r === 0x130) out += "i";
    else if (lowerCaseChanges(r)) out += ch.toLowerCase();
    else out += ch;
  }
  return out;
}

/**
 * Compares two strings as Go does (`a < b` on their UTF-8 bytes, which is
 * code point order). JavaScript's `<` compares UTF-16 code units, which puts
 * U+E000…U+FFFF after the astral planes.
 */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
        cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Go's `path.Clean`: lexical, slash-separated. */
export function goPathClean(p: string): string {
  if (p === "") return ".";
  const rooted = p.charCodeAt(0) === 0x2f;
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(part);
  }
  const body = out.join("/");
  if (rooted) return `/${body}`;
  return body === "" ? "." : body;
}

/** Go's `path.Join`: the non-empty elements joined by `/`, then cleaned; `""` when all are empty. */
export function goPathJoin(...elements: readonly string[]): string {
  const kept = elements.filter((e) => e !== "");
  if (kept.length === 0) return "";
  const joined = kept.join("/");
  // Fast path: already clean (no empty, `.` or `..` segment, no trailing slash).
  if (!/(^|\/)\.{1,2}(\/|$)|\/\/|\/$/.test(joined)) return joined;
  return goPathClean(joined);
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hexValue(c: number): number {
  if (c <= 0x39) return c - 0x30;
  if (c <= 0x46) return c - 0x41 + 10;
  return c - 0x61 + 10;
}

/** The outcome of {@link goPathUnescape}: the text, or the bad escape Go's `EscapeError` names. */
export type UnescapeResult =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly escape: string };

/**
 * Go's `url.PathUnescape`: every `%` must start two hex digits (either case);
 * `+` stays `+`. On failure, `escape` is the `%` and at most two following
 * characters, as Go's `EscapeError` holds them. Decoded bytes that are not
 * UTF-8 become U+FFFD (Go would keep them raw; a JavaScript string cannot).
 */
export function goPathUnescape(s: string): UnescapeResult {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      if (
        i + 2 >= s.length ||
        !isHexDigit(s.charCodeAt(i + 1)) ||
        !isHexDigit(s.charCodeAt(i + 2))
      ) {
        return { ok: false, escape: utf8Prefix(s.slice(i), 3) };
      }
      bytes.push(hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2)));
      i += 3;
      continue;
    }
    const cp = s.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    for (const b of encoder.encode(ch)) bytes.push(b);
    i += ch.length;
  }
  return { ok: true, value: new TextDecoder().decode(new Uint8Array(bytes)) };
}

/** The first `n` UTF-8 bytes of `s`, as text (a cut rune becomes U+FFFD, as Go's `%q` shows it). */
function utf8Prefix(s: string, n: number): string {
  const bytes = new TextEncoder().encode(s);
  return bytes.length <= n ? s : new TextDecoder().decode(bytes.subarray(0, n));
}

/** The largest value Go's `strconv.Atoi` accepts on a 64-bit platform, as decimal text. */
const MAX_INT64 = "9223372036854775807";

/**
 * Reads `s` as Go's `strconv.Atoi` would (optional sign, decimal digits, no
 * underscores, within int64), and returns it as canonical decimal text
 * (no leading zeros, `-` for negatives), or `undefined` where Atoi fails.
 * Text, not a number, so a 19-digit variant keeps its exact value.
 */
export function goAtoiText(s: string): string | undefined {
  let i = 0;
  let negative = false;
  if (s[0] === "+" || s[0] === "-") {
    negative = s[0] === "-";
    i = 1;
  }
  if (i === s.length) return undefined;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  let digits = s.slice(i).replace(/^0+/, "");
  if (digits === "") digits = "0";
  if (
    digits.length > MAX_INT64.length ||
    (digits.length === MAX_INT64.length && digits > MAX_INT64)
  ) {
    // -9223372036854775808 is the one value beyond MAX_INT64 that fits.
    if (!(negative && digits === "9223372036854775808")) return undefined;
  }
  return negative && digits !== "0" ? `-${digits}` : digits;
}

/** Compares two canonical non-negative decimal texts by value. */
export function compareDecimalText(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}
