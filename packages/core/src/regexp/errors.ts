import { errorGuard, KubeimgError } from "../errors/kubeimg-error.js";

/** The codes a {@link RegexpError} can carry. */
export type RegexpErrorCode = "COMPILE_ERROR";

/**
 * Thrown when a pattern is not a valid Go (RE2) regular expression.
 *
 * `message` is Go's own text, `error parsing regexp: <reason>: \`<fragment>\``,
 * so it can be shown to users exactly as Flux would show it; `pattern` is the
 * pattern as given and `reason` the `<reason>` part alone.
 *
 * @example
 * ```ts
 * import { compileRegexp, RegexpError } from "@kubeimg/core/regexp";
 *
 * try { compileRegexp("(a") } catch (e) {
 *   if (e instanceof RegexpError) console.log(e.code, e.reason); // COMPILE_ERROR missing closing )
 * }
 * ```
 */
export class RegexpError extends KubeimgError {
  override readonly name = "RegexpError";
  readonly code: RegexpErrorCode = "COMPILE_ERROR";
  /** The pattern that failed to compile. */
  readonly pattern: string;
  /** Go's error code text, such as `missing closing )`. */
  readonly reason: string;

  constructor(pattern: string, reason: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.pattern = pattern;
    this.reason = reason;
  }
}

/**
 * Returns true when `value` is a {@link RegexpError}, whichever copy of the
 * package (ESM or CJS) created it: it checks `name` and `code`.
 */
export const isRegexpError = errorGuard<RegexpError>("RegexpError");
