import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * Codes of {@link PullCredentialsConfigError}.
 *
 * @example
 * ```ts
 * const code: PullCredentialsConfigErrorCode = "INVALID_ALLOWLIST";
 * ```
 *
 * @inline
 */
export type PullCredentialsConfigErrorCode =
  | "UNKNOWN_POLICY"
  | "INVALID_ALLOWLIST"
  | "ALLOWLIST_REQUIRES_ALLOWLIST_POLICY"
  | "REQUIRES_FEATURE_GATE"
  | "INVALID_CONFIG";

/**
 * A kubelet credential-verification setting the kubelet would refuse. The
 * message is the kubelet's text; `field` names the configuration field and
 * `value` holds the offending entry (a policy name or one allowlist pattern).
 *
 * @example
 * ```ts
 * import { createVerificationPolicy, PullCredentialsConfigError } from "@kubeimg/policy/pull-credentials";
 *
 * try { createVerificationPolicy({ policy: "NeverVerifyAllowlistedImages", allowlist: ["nginx:1"] }) }
 * catch (e) { if (e instanceof PullCredentialsConfigError) console.log(e.code, e.value) } // INVALID_ALLOWLIST nginx:1
 * ```
 */
export class PullCredentialsConfigError extends KubeimgError {
  override readonly name = "PullCredentialsConfigError";
  readonly code: PullCredentialsConfigErrorCode;
  /** The configuration field, e.g. `preloadedImagesVerificationAllowlist`. */
  readonly field: string;
  /** The offending value: the policy string or the one bad pattern. */
  readonly value: unknown;
  /** Index of the bad pattern in the allowlist, when the error is about one. */
  readonly index: number | undefined;

  constructor(
    code: PullCredentialsConfigErrorCode,
    message: string,
    details: { field: string; value: unknown; index?: number; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.field = details.field;
    this.value = details.value;
    this.index = details.index;
  }
}

/**
 * True when `e` is a {@link PullCredentialsConfigError} (checked by `name` and `code`, so it works across module copies).
 *
 * @example
 * ```ts
 * declare const e: unknown; // a caught error
 * if (isPullCredentialsConfigError(e) && e.code === "UNKNOWN_POLICY") console.error(e.message);
 * ```
 */
export const isPullCredentialsConfigError = errorGuard<PullCredentialsConfigError>(
  "PullCredentialsConfigError",
);

/**
 * Codes of {@link PullRecordError}.
 *
 * @example
 * ```ts
 * declare const e: unknown; // a caught error
 * if (isPullRecordError(e) && e.code === ("DECODE_ERROR" satisfies PullRecordErrorCode)) console.error(e.message);
 * ```
 *
 * @inline
 */
export type PullRecordErrorCode =
  /** The content is not a readable intent / record of a known version. */
  | "DECODE_ERROR"
  /** The store could not read, write, list or delete. */
  | "STORE_IO_ERROR"
  /** An argument is not what the operation accepts (not a string, malformed credentials, unparsable image). */
  | "INVALID_ARGUMENT";

/**
 * A failure reading, writing or decoding pull records. `key` is the image or
 * imageRef concerned (when there is one) and `path` the file (filesystem
 * store).
 *
 * @example
 * ```ts
 * import { PullRecordError } from "@kubeimg/policy/pull-credentials";
 *
 * declare const thrown: unknown; // what a store's call threw
 * if (thrown instanceof PullRecordError) console.log(thrown.code, thrown.key, thrown.path);
 * ```
 */
export class PullRecordError extends KubeimgError {
  override readonly name = "PullRecordError";
  readonly code: PullRecordErrorCode;
  readonly key: string | undefined;
  readonly path: string | undefined;

  constructor(
    code: PullRecordErrorCode,
    message: string,
    details: { key?: string; path?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.key = details.key;
    this.path = details.path;
  }
}

/**
 * True when `e` is a {@link PullRecordError}.
 *
 * @example
 * ```ts
 * declare const e: unknown; // a caught error
 * if (isPullRecordError(e) && e.code === "DECODE_ERROR") console.error(e.message);
 * ```
 */
export const isPullRecordError = errorGuard<PullRecordError>("PullRecordError");
