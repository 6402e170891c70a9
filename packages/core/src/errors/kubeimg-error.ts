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
  /** A stable, machine-readable identifier of what went wrong. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
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
