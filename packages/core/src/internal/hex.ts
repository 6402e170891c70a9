/** Go's `encoding/hex`: lower-case hexadecimal, as digests and hashes are written. */

const digits = "0123456789abcdef";

/** Returns the lower-case hexadecimal encoding of `bytes`, as Go's `hex.EncodeToString`. */
export function EncodeToString(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    out += (digits[b >> 4] as string) + (digits[b & 0xf] as string);
  }
  return out;
}
