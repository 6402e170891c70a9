/**
 * The base class of every error kubeimg throws.
 *
 * Each subclass carries a stable `code` (SCREAMING_SNAKE) that callers and
 * tests branch on. `instanceof` works within one module format, but when ESM
 * and CJS copies of a package meet there are two classes, so the contract is
 * the `code` and the `isKubeimgError` guard, not the prototype chain.
 *
 * @example
 * ```ts
 * try { parseNormalizedNamed(input) } catch (e) {
 *   if (isKubeimgError(e) && e.code === "INVALID_REFERENCE_FORMAT") { … }
 * }
 * ```
 */
export abstract class KubeimgError extends Error {
  /** A stable, machine-readable identifier of what went wrong. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Returns true when `value` is an error raised by kubeimg: an `Error` with a
 * string `code` and a `name` ending in `Error`, whichever copy of the package
 * (ESM or CJS) created it.
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
      typeof (value as { code?: unknown }).code === "string" &&
      value.name.endsWith("Error"))
  );
}
