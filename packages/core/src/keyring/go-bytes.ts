/**
 * Go strings are byte sequences; JavaScript strings are UTF-16. The keyring
 * mirrors Go code that slices, compares and sorts by bytes, so internally it
 * works on "byte strings": JavaScript strings whose every char code is one
 * byte (0–255). These helpers convert at the edges.
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
export function decodeRune(bytes: string, index: number): { rune: number; width: number } {
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
    const { rune, width } = decodeRune(bytes, i);
    out += String.fromCodePoint(rune);
    i += width;
  }
  return out;
}

/** Go's `unicode.IsSpace`. */
function isGoSpace(code: number): boolean {
  switch (code) {
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x20:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
    default:
      return code >= 0x2000 && code <= 0x200a;
  }
}

/** Go's `strings.TrimSpace` on a JavaScript string (which, unlike `trim`, keeps U+FEFF). */
export function goTrimSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isGoSpace(text.charCodeAt(start))) start++;
  while (end > start && isGoSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
