/**
 * go-digest v1.0.0 `Digest.Validate`, as a check that returns the failing
 * rule instead of throwing, so that reference parsing can reuse it without
 * allocating.
 *
 * The rules, in upstream order:
 *
 * 1. There is a `:` that is neither the first nor the last character.
 * 2. The algorithm (before the first `:`) is registered. When it is not, the
 *    error is `DIGEST_UNSUPPORTED` if the whole string still has the OCI
 *    digest shape `[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+`, and
 *    `DIGEST_INVALID_FORMAT` otherwise.
 * 3. The encoded part is exactly `2 × size` bytes long (UTF-8 bytes, as Go
 *    counts them), else `DIGEST_INVALID_LENGTH`.
 * 4. The encoded part is lower-case hex, else `DIGEST_INVALID_FORMAT`.
 *
 * @module
 */
import { digestAlgorithms, isDigestAlgorithm } from "./algorithms.js";
import type { DigestErrorCode } from "./errors.js";

/** The codes a digest string itself can earn (go-digest `Validate`).
 *
 * @inline
 */
export type DigestValidationCode = Exclude<DigestErrorCode, "WEBCRYPTO_UNAVAILABLE">;

/** `[a-z0-9]`: the characters of one OCI algorithm component. */
function isLowerAlphanumeric(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** `[.+_-]`: what may join two OCI algorithm components. */
function isAlgorithmSeparator(c: number): boolean {
  return c === 0x2e || c === 0x2b || c === 0x5f || c === 0x2d;
}

/** `[a-zA-Z0-9=_-]`: the characters of an OCI encoded part (hex or base64url). */
function isEncodedCharacter(c: number): boolean {
  return (
    isLowerAlphanumeric(c) || (c >= 0x41 && c <= 0x5a) || c === 0x3d || c === 0x5f || c === 0x2d
  );
}

/**
 * True when `s` has the OCI digest shape (go-digest `DigestRegexpAnchored`):
 * `[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+`, whole string.
 */
export function hasOciDigestShape(s: string): boolean {
  const colon = s.indexOf(":");
  if (colon <= 0 || colon === s.length - 1) return false;
  // Algorithm: components of [a-z0-9]+ joined by single separators.
  let expectComponent = true;
  for (let i = 0; i < colon; i++) {
    const c = s.charCodeAt(i);
    if (isLowerAlphanumeric(c)) expectComponent = false;
    else if (isAlgorithmSeparator(c) && !expectComponent) expectComponent = true;
    else return false;
  }
  if (expectComponent) return false;
  for (let i = colon + 1; i < s.length; i++) {
    if (!isEncodedCharacter(s.charCodeAt(i))) return false;
  }
  return true;
}

/** The number of bytes of the UTF-8 encoding of `s[start:]`, as Go's `len` counts a string. */
function utf8Length(s: string, start: number): number {
  let bytes = 0;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** True when `s[start:]` is all lower-case hex, `[a-f0-9]`. */
function isLowerHex(s: string, start: number): boolean {
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/**
 * Returns the code of the first go-digest rule `s` breaks, or `undefined`
 * when `s` is a valid digest. Mirrors go-digest v1.0.0 `Digest.Validate`.
 */
export function checkDigest(s: string): DigestValidationCode | undefined {
  const colon = s.indexOf(":");
  if (colon <= 0 || colon + 1 === s.length) return "DIGEST_INVALID_FORMAT";
  const algorithm = s.slice(0, colon);
  if (!isDigestAlgorithm(algorithm)) {
    return hasOciDigestShape(s) ? "DIGEST_UNSUPPORTED" : "DIGEST_INVALID_FORMAT";
  }
  const start = colon + 1;
  const want = digestAlgorithms[algorithm].size * 2;
  const allHex = isLowerHex(s, start);
  // Go counts bytes; a string of hex digits has as many bytes as characters.
  const bytes = allHex ? s.length - start : utf8Length(s, start);
  if (bytes !== want) return "DIGEST_INVALID_LENGTH";
  return allHex ? undefined : "DIGEST_INVALID_FORMAT";
}
