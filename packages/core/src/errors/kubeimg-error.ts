/**
 * The base class of every error kubeimg throws.
 *
 * Each subclass carries a stable `code` (SCREAMING_SNAKE) that callers and
 * tests branch on. `instanceof` works within one module format, but when ESM
 * and CJS copies of a package meet there are two classes, so the contract is
 * the `code` and the `isKubeimgError` guard, not the prototype chain.
 *
 * The guard checks a brand, a property keyed by a `Symbol.for` symbol that
 * every copy of the class sets. Node's own errors also carry a string `code`
 * (`ECONNRESET`, `ERR_INVALID_ARG_TYPE`) and a name ending in `Error`, so the
 * shape alone would take them for ours.
 *
 * @example
 * ```ts
 * try { parseNormalizedNamed(input) } catch (e) {
 *   if (isKubeimgError(e) && e.code === "INVALID_REFERENCE_FORMAT") { … }
 * }
 * ```
 */
/** Shared by every copy of this module (ESM, CJS, bundled twice): `Symbol.for` is process-wide. */
const kubeimgErrorBrand: unique symbol = /*#__PURE__*/ Symbol.for(
  "@kubeimg/core.KubeimgError",
) as never;

export abstract class KubeimgError extends Error {
  /**
   * The class's name, written out in each subclass (a minifier renames
   * classes, so it is never taken from the constructor).
   */
  abstract override readonly name: string;
  /** A stable, machine-readable identifier of what went wrong. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, kubeimgErrorBrand, { value: true });
  }
}

/**
 * Returns true when `value` is an error raised by kubeimg, whichever copy of
 * the package (ESM or CJS) created it: an instance of `KubeimgError`, or an
 * object carrying its brand. A Node error with a string `code` is not one.
 *
 * @example
 * ```ts
 * if (isKubeimgError(e)) console.error(e.code, e.message);
 * ```
 */
export function isKubeimgError(value: unknown): value is KubeimgError {
  return (
    value instanceof KubeimgError ||
    (value instanceof Error &&
      (value as unknown as Record<symbol, unknown>)[kubeimgErrorBrand] === true &&
      typeof (value as { code?: unknown }).code === "string")
  );
}

/**
 * Returns the `isXxxError` guard of a {@link KubeimgError} subclass: true for
 * a kubeimg error (by its brand, so any copy of the package counts) whose
 * `name` is `name` and, when `codes` is given, whose `code` is one of them.
 * Every guard kubeimg exports is made by this function.
 *
 * @example
 * ```ts
 * export const isDigestError = errorGuard<DigestError>("DigestError");
 * ```
 */
export function errorGuard<E extends KubeimgError>(
  name: E["name"],
  codes?: ReadonlySet<string>,
): (value: unknown) => value is E {
  return (value: unknown): value is E =>
    isKubeimgError(value) && value.name === name && (codes === undefined || codes.has(value.code));
}
