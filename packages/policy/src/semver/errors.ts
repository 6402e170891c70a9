import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * The codes a {@link SemverError} can carry. The version codes mirror the
 * error values of Masterminds/semver v3 (`ErrInvalidSemVer`,
 * `ErrSegmentStartsZero`, `ErrVersionTooLong` of v3.5.0, …);
 * `CONSTRAINT_INVALID` covers every error of `NewConstraint`.
 *
 * @inline
 */
export type SemverErrorCode =
  | "INVALID_SEMVER"
  | "EMPTY_STRING"
  | "INVALID_CHARACTERS"
  | "SEGMENT_STARTS_ZERO"
  | "SEGMENT_OUT_OF_RANGE"
  | "INVALID_PRERELEASE"
  | "INVALID_METADATA"
  | "VERSION_TOO_LONG"
  | "CONSTRAINT_INVALID";

/**
 * Thrown when a version or a constraint does not parse. `message` is the
 * Masterminds/semver v3 error text; `input` is the string that failed.
 *
 * @example
 * ```ts
 * import { parseVersion, SemverError } from "@kubeimg/policy/semver";
 *
 * try { parseVersion("1.2.3-01") } catch (e) {
 *   if (e instanceof SemverError) console.log(e.code); // SEGMENT_STARTS_ZERO
 * }
 * ```
 */
export class SemverError extends KubeimgError {
  override readonly name = "SemverError";
  readonly code: SemverErrorCode;
  /** The version or constraint string that failed to parse. */
  readonly input: string;

  constructor(code: SemverErrorCode, input: string, message: string) {
    super(message);
    this.code = code;
    this.input = input;
  }
}

const codes: ReadonlySet<string> = new Set<SemverErrorCode>([
  "INVALID_SEMVER",
  "EMPTY_STRING",
  "INVALID_CHARACTERS",
  "SEGMENT_STARTS_ZERO",
  "SEGMENT_OUT_OF_RANGE",
  "INVALID_PRERELEASE",
  "INVALID_METADATA",
  "VERSION_TOO_LONG",
  "CONSTRAINT_INVALID",
]);

/**
 * Returns true when `value` is a {@link SemverError} from any copy of the
 * package: it checks `name` and `code`.
 */
export const isSemverError = errorGuard<SemverError>("SemverError", codes);
