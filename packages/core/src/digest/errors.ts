import { errorGuard, KubeimgError } from "../errors/kubeimg-error.js";

/** The stable codes of {@link DigestError}, one per go-digest error.
 *
 * @inline
 */
export type DigestErrorCode =
  | "DIGEST_INVALID_FORMAT"
  | "DIGEST_INVALID_LENGTH"
  | "DIGEST_UNSUPPORTED"
  | "WEBCRYPTO_UNAVAILABLE";

/**
 * The message of each digest error code: the go-digest v1.0.0 text where one
 * exists (`ErrDigestInvalidFormat`, `ErrDigestInvalidLength`,
 * `ErrDigestUnsupported`), byte for byte.
 */
export const digestErrorMessages: Readonly<Record<DigestErrorCode, string>> = {
  DIGEST_INVALID_FORMAT: "invalid checksum digest format",
  DIGEST_INVALID_LENGTH: "invalid checksum digest length",
  DIGEST_UNSUPPORTED: "unsupported digest algorithm",
  WEBCRYPTO_UNAVAILABLE:
    "crypto.subtle is not available in this runtime (browsers offer it only in secure contexts)",
};

/**
 * Thrown by {@link parseDigest} and {@link computeDigest}: the `code` says
 * which go-digest rule failed and `input` holds the offending string.
 *
 * @example
 * ```ts
 * import { DigestError, parseDigest } from "@kubeimg/core/digest";
 *
 * try { parseDigest("md5:d41d8cd98f00b204e9800998ecf8427e") }
 * catch (e) { if (e instanceof DigestError) e.code; } // "DIGEST_UNSUPPORTED"
 * ```
 */
export class DigestError extends KubeimgError {
  override readonly name = "DigestError";
  /** Which rule failed. */
  readonly code: DigestErrorCode;
  /** The digest string (or algorithm name) that was refused. */
  readonly input: string;

  constructor(code: DigestErrorCode, input: string) {
    super(digestErrorMessages[code]);
    this.code = code;
    this.input = input;
  }
}

/**
 * Returns true when `value` is a {@link DigestError}, from whichever copy of
 * the package (ESM or CJS) threw it: the check is on `name` and `code`.
 */
export const isDigestError = errorGuard<DigestError>("DigestError");
