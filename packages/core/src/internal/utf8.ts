/**
 * Go's `unicode/utf8`, and the bridges between Go's strings and JavaScript's.
 *
 * Go strings are byte sequences; JavaScript strings are UTF-16. Code that
 * mirrors Go slicing, comparing and sorting by bytes (the keyring, glob
 * matching) works on "byte strings": JavaScript strings whose every char code
 * is one byte (0–255). The bridges here convert at the edges; they have no Go
 * name because Go needs no bridge.
 */

/** Encodes a JavaScript string as UTF-8 and returns it as a byte string. */
export function toByteString(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x2000) {
    out += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  }
  return out;
}

/** Returns the bytes of a byte string. */
export function byteStringToBytes(bytes: string): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

/** The rune at `index` of a byte string and its width, as Go's `utf8.DecodeRuneInString`. */
export function DecodeRuneInString(bytes: string, index: number): { rune: number; width: number } {
  const invalid = { rune: 0xfffd, width: 1 };
  const b0 = bytes.charCodeAt(index);
  if (Number.isNaN(b0)) return { rune: 0xfffd, width: 0 };
  if (b0 < 0x80) return { rune: b0, width: 1 };
  const cont = (i: number, lo = 0x80, hi = 0xbf): number | undefined => {
    const b = bytes.charCodeAt(index + i);
    return b >= lo && b <= hi ? b & 0x3f : undefined;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 === undefined ? invalid : { rune: ((b0 & 0x1f) << 6) | c1, width: 2 };
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    const c1 = cont(1, lo, hi);
    const c2 = c1 === undefined ? undefined : cont(2);
    if (c1 === undefined || c2 === undefined) return invalid;
    return { rune: ((b0 & 0x0f) << 12) | (c1 << 6) | c2, width: 3 };
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    const c1 = cont(1, lo, hi);
    const c2 = c1 === undefined ? undefined : cont(2);
    const c3 = c2 === undefined ? undefined : cont(3);
    if (c1 === undefined || c2 === undefined || c3 === undefined) return invalid;
    return { rune: ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, width: 4 };
  }
  return invalid;
}

/**
 * Decodes a byte string as UTF-8 the way Go's `encoding/json` prints it:
 * every byte that does not start a valid sequence becomes one U+FFFD.
 */
export function fromByteString(bytes: string): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const { rune, width } = DecodeRuneInString(bytes, i);
    out += String.fromCodePoint(rune);
    i += width;
  }
  return out;
}

/**
 * Decodes a byte string as UTF-8, keeping each byte Go could not decode as a
 * lone low surrogate (U+DC80–U+DCFF, as Python's `surrogateescape` does).
 * Functions here that take a JavaScript string read a lone surrogate as
 * "an invalid byte on the Go side" (see `json.Quote`), so a byte string
 * passed through this keeps Go's view of invalid UTF-8.
 */
export function fromByteStringEscaped(bytes: string): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const { rune, width } = DecodeRuneInString(bytes, i);
    out +=
      rune === 0xfffd && width === 1
        ? String.fromCharCode(0xdc00 | bytes.charCodeAt(i))
        : String.fromCodePoint(rune);
    i += width;
  }
  return out;
}

/**
 * Decodes UTF-8 bytes as Go's `string(bytes)` reads when printed or encoded
 * by `encoding/json`: every byte that does not start a valid, shortest-form,
 * non-surrogate sequence becomes one U+FFFD. (The WHATWG decoder behind
 * `TextDecoder` folds a truncated sequence into a single U+FFFD instead,
 * which would change what a record says.)
 */
export function decodeBytes(bytes: Uint8Array): string {
  // Valid UTF-8 (the usual case) decodes the same everywhere; only invalid bytes need Go's rule.
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    let out = "";
    for (let i = 0; i < bytes.length; i += 0x2000) {
      out += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
    }
    return fromByteString(out);
  }
}

/**
 * Replaces lone surrogates by U+FFFD: a JavaScript string may hold them, a Go
 * string converted from it (via UTF-8) cannot.
 */
export function toWellFormed(s: string): string {
  let out = "";
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = s.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    out += `${s.slice(start, i)}\ufffd`;
    start = i + 1;
  }
  return start === 0 ? s : out + s.slice(start);
}
