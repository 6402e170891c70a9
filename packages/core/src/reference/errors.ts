import { digestErrorMessages } from "../digest/errors.js";
import type { DigestValidationCode } from "../digest/validate.js";
import { errorGuard, KubeimgError } from "../errors/kubeimg-error.js";

/**
 * The stable codes of {@link ImageReferenceError}: one per distinct upstream
 * error message (distribution/reference v0.6.0 and go-digest v1.0.0), plus
 * `BAD_PATTERN` for {@link familiarMatch} (Go's `path.ErrBadPattern`).
 *
 * @inline
 */
export type ImageReferenceErrorCode =
  | "INVALID_REFERENCE_FORMAT"
  | "NAME_CONTAINS_UPPERCASE"
  | "NAME_EMPTY"
  | "NAME_TOO_LONG"
  | "NAME_NOT_CANONICAL"
  | "NAME_IS_HEX_IDENTIFIER"
  | "REMOTE_NAME_CONTAINS_UPPERCASE"
  | "TAG_INVALID_FORMAT"
  | "REFERENCE_DIGEST_INVALID_FORMAT"
  | "REFERENCE_HAS_NO_NAME"
  | "BAD_PATTERN"
  | DigestValidationCode;

/**
 * The upstream message of each code, byte for byte. The three that embed a
 * value take it as `detail`: the input for `NAME_IS_HEX_IDENTIFIER`, the
 * remote name for `REMOTE_NAME_CONTAINS_UPPERCASE`, the reference string for
 * `REFERENCE_HAS_NO_NAME`.
 */
export function imageReferenceErrorMessage(code: ImageReferenceErrorCode, detail = ""): string {
  switch (code) {
    case "INVALID_REFERENCE_FORMAT":
      return "invalid reference format";
    case "NAME_CONTAINS_UPPERCASE":
      return "repository name must be lowercase";
    case "NAME_EMPTY":
      return "repository name must have at least one component";
    case "NAME_TOO_LONG":
      return "repository name must not be more than 255 characters";
    case "NAME_NOT_CANONICAL":
      return "repository name must be canonical";
    case "NAME_IS_HEX_IDENTIFIER":
      return `invalid repository name (${detail}), cannot specify 64-byte hexadecimal strings`;
    case "REMOTE_NAME_CONTAINS_UPPERCASE":
      return `invalid reference format: repository name (${detail}) must be lowercase`;
    case "TAG_INVALID_FORMAT":
      return "invalid tag format";
    case "REFERENCE_DIGEST_INVALID_FORMAT":
      return "invalid digest format";
    case "REFERENCE_HAS_NO_NAME":
      return `reference ${detail} has no name`;
    case "BAD_PATTERN":
      return "syntax error in pattern";
    default:
      return digestErrorMessages[code];
  }
}

/**
 * Thrown when a string is not a valid image reference (or a tag, digest or
 * pattern given to a reference helper is malformed). Branch on `code`; the
 * `message` is the upstream Go text; `input` is the string that was refused.
 *
 * Named so because `ReferenceError` is a JavaScript global.
 *
 * @example
 * ```ts
 * import { ImageReferenceError, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * try { parseNormalizedNamed("Foo") } catch (e) {
 *   if (e instanceof ImageReferenceError) e.code; // "REMOTE_NAME_CONTAINS_UPPERCASE"
 * }
 * ```
 */
export class ImageReferenceError extends KubeimgError {
  override readonly name = "ImageReferenceError";
  /** Which rule the input broke; stable across releases. */
  readonly code: ImageReferenceErrorCode;
  /** The string that was refused, exactly as given. */
  readonly input: string;

  constructor(code: ImageReferenceErrorCode, input: string, detail?: string) {
    super(imageReferenceErrorMessage(code, detail));
    this.code = code;
    this.input = input;
  }
}

/**
 * Returns true when `value` is an {@link ImageReferenceError}, from whichever
 * copy of the package (ESM or CJS) threw it: the check is on `name` and
 * `code`, not only the prototype chain.
 */
export const isImageReferenceError = errorGuard<ImageReferenceError>("ImageReferenceError");
