import type { DigestAlgorithm } from "./algorithms.js";
import { DigestError } from "./errors.js";
import { checkDigest } from "./validate.js";

/** A validated digest, `algorithm:hex`. Immutable. */
export interface Digest {
  /** The algorithm, e.g. `sha256`. */
  readonly algorithm: DigestAlgorithm;
  /** The lower-case hex of the hash (go-digest's `Encoded()`). */
  readonly encoded: string;
  /** The whole digest, `algorithm:encoded`. */
  readonly string: string;
  /** Same as `.string`. */
  toString(): string;
}

function digestToString(this: Digest): string {
  return this.string;
}

/** Builds the {@link Digest} of an already validated string (a plain object, like every result). */
export function digestFromValidated(s: string): Digest {
  const colon = s.indexOf(":");
  return {
    algorithm: s.slice(0, colon) as DigestAlgorithm,
    encoded: s.slice(colon + 1),
    string: s,
    toString: digestToString,
  };
}

/**
 * Returns the parsed digest `algorithm:hex`, or throws a {@link DigestError}.
 *
 * Mirrors go-digest v1.0.0 `Parse`: the algorithm must be `sha256`, `sha384`
 * or `sha512` and the hex part lower case with exactly 64, 96 or 128
 * characters. An unknown algorithm is `DIGEST_UNSUPPORTED` when the string
 * has the OCI digest shape, `DIGEST_INVALID_FORMAT` otherwise; a wrong length
 * is `DIGEST_INVALID_LENGTH`; upper-case hex is `DIGEST_INVALID_FORMAT`.
 *
 * @example
 * ```ts
 * import { parseDigest } from "@kubeimg/core/digest";
 *
 * const d = parseDigest("sha256:" + "a".repeat(64));
 * d.algorithm; // "sha256"
 * parseDigest("sha256:abc"); // throws DigestError, code "DIGEST_INVALID_LENGTH"
 * ```
 */
export function parseDigest(s: string): Digest {
  const code = checkDigest(s);
  if (code !== undefined) throw new DigestError(code, s);
  return digestFromValidated(s);
}

/**
 * Returns `{ success: true, data }` or `{ success: false, error }`: the
 * non-throwing form of {@link parseDigest}, for validating many inputs.
 */
export function safeParseDigest(
  s: string,
): { success: true; data: Digest } | { success: false; error: DigestError } {
  const code = checkDigest(s);
  if (code !== undefined) return { success: false, error: new DigestError(code, s) };
  return { success: true, data: digestFromValidated(s) };
}

/**
 * Returns true when `s` is a valid digest by the rules of {@link parseDigest}.
 *
 * @example
 * ```ts
 * import { isValidDigest } from "@kubeimg/core/digest";
 *
 * isValidDigest("sha512:" + "0".repeat(128)); // true
 * isValidDigest("SHA256:" + "0".repeat(64));  // false
 * ```
 */
export function isValidDigest(s: string): boolean {
  return checkDigest(s) === undefined;
}
