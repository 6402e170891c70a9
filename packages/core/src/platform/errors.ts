import { errorGuard, KubeimgError, messageIsQuoted } from "../errors/kubeimg-error.js";

/**
 * The stable codes of {@link PlatformError}. All but `HOST_REQUIRED` stand
 * for one error of containerd/platforms' `Parse`; `EMPTY_OS_FEATURE` exists
 * upstream but the specifier grammar never lets a parse reach it.
 *
 * @inline
 */
export type PlatformErrorCode =
  | "WILDCARD_NOT_SUPPORTED"
  | "INVALID_OS_COMPONENT"
  | "INVALID_COMPONENT"
  | "INVALID_OS_VERSION_ESCAPE"
  | "INVALID_OS_FEATURE_ESCAPE"
  | "EMPTY_OS_FEATURE"
  | "UNKNOWN_OS_OR_ARCH"
  | "TOO_MANY_COMPONENTS"
  | "HOST_REQUIRED";

/**
 * Which part of a specifier an error is about: the OS piece (with its
 * options), its version or a feature inside the parentheses, the
 * architecture or variant piece, a fourth piece (`extra`: specifiers have
 * at most three), or the specifier as a whole.
 *
 * @inline
 */
export type PlatformSpecifierPart =
  | "specifier"
  | "os"
  | "osVersion"
  | "osFeature"
  | "architecture"
  | "variant"
  | "extra";

/** The base-class option that skips the scan for control characters. */
function quoted(): { cause?: unknown } {
  return { [messageIsQuoted]: true } as { cause?: unknown };
}

/**
 * Thrown by {@link parsePlatform} and {@link parseAllPlatforms}. `message` is
 * containerd/platforms v1.0.0-rc.4's error text byte for byte (Go `%q`
 * quoting included); `part` names the piece that is wrong and `value` holds
 * it, so a caller can point at it without reading the message.
 *
 * @example
 * ```ts
 * import { parsePlatform, PlatformError } from "@kubeimg/core/platform";
 *
 * try { parsePlatform("linux/arm 64") } catch (e) {
 *   if (e instanceof PlatformError) [e.code, e.part, e.value]; // ["INVALID_COMPONENT", "architecture", "arm 64"]
 * }
 * ```
 */
export class PlatformError extends KubeimgError {
  override readonly name = "PlatformError";
  /** Which rule failed. */
  readonly code: PlatformErrorCode;
  /** The whole specifier that was refused. */
  readonly input: string;
  /** The part of the specifier that is wrong. */
  readonly part: PlatformSpecifierPart;
  /** The offending text of that part (the whole specifier when `part` is `"specifier"`). */
  readonly value: string;
  /** For {@link parseAllPlatforms}: the position of the failing specifier in the list. */
  readonly index: number | undefined;

  constructor(
    code: PlatformErrorCode,
    message: string,
    detail: { input: string; part: PlatformSpecifierPart; value: string; index?: number },
  ) {
    // The parser marks messages it built from Go-quoted pieces (see `refuse`).
    super(
      message,
      (detail as Record<symbol, unknown>)[messageIsQuoted] === true ? quoted() : undefined,
    );
    this.code = code;
    this.input = detail.input;
    this.part = detail.part;
    this.value = detail.value;
    this.index = detail.index;
  }
}

/**
 * Returns true when `value` is a {@link PlatformError}, from whichever copy of
 * the package (ESM or CJS) threw it.
 */
export const isPlatformError = errorGuard<PlatformError>("PlatformError");
