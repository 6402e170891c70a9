/**
 * Base64 decoding with the exact acceptance rules of Go's `encoding/base64`
 * `StdEncoding` (padded) and `RawStdEncoding` (unpadded), non-strict: `\r`
 * and `\n` are skipped anywhere, non-zero trailing bits are accepted, and
 * anything else outside the standard alphabet is an error.
 */

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function sextet(code: number): number {
  // A char code outside ASCII never maps (Go sees its UTF-8 bytes, all invalid).
  return code < 0x80 ? alphabet.indexOf(String.fromCharCode(code)) : -1;
}

const isNewline = (code: number): boolean => code === 0x0a || code === 0x0d;

/**
 * Decodes `input` and returns the bytes as a byte string, or `undefined`
 * where Go's decoder reports a `CorruptInputError`.
 */
export function DecodeString(input: string, { padded }: { padded: boolean }): string | undefined {
  let out = "";
  let si = 0;
  const n = input.length;
  for (;;) {
    // One quantum: up to four sextets.
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let ended = false;
    while (j < 4) {
      if (si === n) {
        if (j === 0) return out;
        if (j === 1 || padded) return undefined;
        dlen = j;
        ended = true;
        break;
      }
      const code = input.charCodeAt(si);
      si++;
      const value = sextet(code);
      if (value >= 0) {
        buf[j] = value;
        j++;
        continue;
      }
      if (isNewline(code)) continue;
      if (!padded || code !== 0x3d) return undefined;
      // Padding: only after two or three sextets.
      if (j < 2) return undefined;
      if (j === 2) {
        while (si < n && isNewline(input.charCodeAt(si))) si++;
        if (si === n || input.charCodeAt(si) !== 0x3d) return undefined;
        si++;
      }
      while (si < n && isNewline(input.charCodeAt(si))) si++;
      if (si < n) return undefined;
      dlen = j;
      ended = true;
      break;
    }
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = buf;
    const value = (b0 << 18) | (b1 << 12) | (b2 << 6) | b3;
    const bytes = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
    out += String.fromCharCode(...bytes.slice(0, dlen - 1));
    if (ended) return out;
  }
}
