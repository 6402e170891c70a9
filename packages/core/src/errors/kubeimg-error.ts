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
 * import { isKubeimgError } from "@kubeimg/core";
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * try {
 *   parseNormalizedNamed("nginx:");
 * } catch (e) {
 *   if (isKubeimgError(e) && e.code === "INVALID_REFERENCE_FORMAT") e.message; // → "invalid reference format"
 * }
 * ```
 */
/** Shared by every copy of this module (ESM, CJS, bundled twice): `Symbol.for` is process-wide. */
const kubeimgErrorBrand: unique symbol = /*#__PURE__*/ Symbol.for(
  "@kubeimg/core.KubeimgError",
) as never;

// C0 controls but tab and newline, DEL, and the C1 controls (0x9b is a
// one-byte CSI on some terminals). Other invisible characters (U+2028, the
// bidirectional overrides) stay: they set no terminal state, and Go's messages,
// which ours copy byte for byte, quote patterns raw.
const unsafeCharacters =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping them is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Go's short escapes (`strconv.Quote`) for the controls that have one. */
const shortEscapes: Readonly<Record<string, string>> = {
  "\u0007": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\r": "\\r",
  "\v": "\\v",
};

/** The same characters, to test for: one native scan, where a message is usually a rope of pieces. */
const anyUnsafeCharacter =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * Returns `text` with each of those characters written as Go's
 * `strconv.Quote` writes it: `\a \b \f \r \v`, `\xNN` below U+0080,
 * `\u00NN` for the C1 controls; newline and tab are kept. A message
 * copied from Go stays byte for byte Go's unless it quoted such a character
 * raw (a pattern or value holding one; the error's own field keeps it).
 */
function escapeUnsafeCharacters(text: string): string {
  // Almost every message holds none: a test is far cheaper than `replace`.
  if (!anyUnsafeCharacter.test(text)) return text;
  return text.replace(unsafeCharacters, (c) => {
    const short = shortEscapes[c];
    if (short !== undefined) return short;
    const code = c.charCodeAt(0);
    return code < 0x80
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * Internal to kubeimg: an option key saying the message holds no control
 * character by construction (constant text and Go-quoted `%q` pieces, which
 * escape every one), so the constructor need not scan it.
 */
export const messageIsQuoted: unique symbol = /*#__PURE__*/ Symbol("messageIsQuoted") as never;

export abstract class KubeimgError extends Error {
  /**
   * The class's name, written out in each subclass (a minifier renames
   * classes, so it is never taken from the constructor).
   */
  abstract override readonly name: string;
  /** A stable, machine-readable identifier of what went wrong. */
  abstract readonly code: string;
  /**
   * The message as it was built, control characters and all; present only
   * when {@link KubeimgError.message} escaped some. Where kubeimg mirrors a
   * Go message that quotes its input raw, this is Go's text byte for byte.
   * Never print it to a terminal or a log without escaping it.
   */
  declare readonly rawMessage?: string;

  // The brand isKubeimgError reads, on the prototype: building an error
  // defines no property beyond Error's own.
  static {
    Object.defineProperty(KubeimgError.prototype, kubeimgErrorBrand, { value: true });
  }

  /**
   * Builds the error with `message` made safe to print: every control
   * character but newline and tab is written as its Go escape (`\x1b`,
   * `\r`, `\u009b`), so a registry's answer or a file's text quoted in a
   * message cannot drive the terminal or forge a log line of whoever prints
   * `err.message` or `err.stack`. Fields that carry the foreign text
   * (`registryMessage`, `input`) keep it as it was.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    const quoted = (options as Record<symbol, unknown> | undefined)?.[messageIsQuoted] === true;
    const escaped = quoted ? message : escapeUnsafeCharacters(message);
    // Error's constructor looks `cause` up on any options object it gets;
    // most errors have none (only the quoted marker), and skipping that
    // lookup is a tenth of what building a refusal costs.
    if (options !== undefined && "cause" in options) super(escaped, { cause: options.cause });
    else super(escaped);
    // Not enumerable, like `message`: a log that serialises the error's
    // fields does not carry the raw text twice.
    if (escaped !== message) Object.defineProperty(this, "rawMessage", { value: message });
  }
}

/**
 * Returns what `build` returns, with every error it constructs given a
 * `stack` that names the error and its message but lists no frames. For
 * refusals handed back as values (the `safeX` functions): such an error
 * describes the input, not a place in the program, and capturing the frames
 * costs V8 more than a whole parse. An error thrown to the caller keeps its
 * frames.
 */
export function withoutStackFrames<T>(build: () => T): T {
  // V8's setting (Node, Deno, Chrome); elsewhere it is absent and nothing changes.
  const errors = Error as ErrorConstructor & { stackTraceLimit?: unknown };
  const limit = errors.stackTraceLimit;
  // A program that switched stack capture off (or removed the setting) keeps it so.
  if (typeof limit !== "number" || limit <= 0) return build();
  errors.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    errors.stackTraceLimit = limit;
  }
}

/**
 * Returns `error` with its stack's frames taken here, starting at the caller
 * of `callee`, where the engine can (V8's `Error.captureStackTrace`): for an
 * error built by {@link withoutStackFrames} that is then thrown.
 */
export function withCallerStack<E extends Error>(
  error: E,
  callee: (...args: never[]) => unknown,
): E {
  const errors = Error as ErrorConstructor & {
    captureStackTrace?: (target: object, callee: (...args: never[]) => unknown) => void;
  };
  errors.captureStackTrace?.(error, callee);
  return error;
}

/**
 * Returns true when `value` is an error raised by kubeimg, whichever copy of
 * the package (ESM or CJS) created it: an instance of `KubeimgError`, or an
 * object carrying its brand. A Node error with a string `code` is not one.
 *
 * @example
 * ```ts
 * import { isKubeimgError } from "@kubeimg/core";
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * try {
 *   parseNormalizedNamed("Nginx");
 * } catch (e) {
 *   if (isKubeimgError(e)) e.code; // → "REMOTE_NAME_CONTAINS_UPPERCASE"
 * }
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
 * import { errorGuard, KubeimgError } from "@kubeimg/core";
 *
 * class QuotaError extends KubeimgError {
 *   override readonly name = "QuotaError";
 *   readonly code = "QUOTA_EXCEEDED";
 * }
 * const isQuotaError = errorGuard<QuotaError>("QuotaError");
 * isQuotaError(new QuotaError("over quota")); // → true
 * isQuotaError(new Error("over quota")); // → false
 * ```
 */
export function errorGuard<E extends KubeimgError>(
  name: E["name"],
  codes?: ReadonlySet<string>,
): (value: unknown) => value is E {
  return (value: unknown): value is E =>
    isKubeimgError(value) && value.name === name && (codes === undefined || codes.has(value.code));
}
