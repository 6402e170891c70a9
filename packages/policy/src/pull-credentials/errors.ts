import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * Codes of {@link PullCredentialsConfigError}.
 *
 * @example
 * ```ts
 * import {
 *   parseKubeletPullCredentialsConfig,
 *   PullCredentialsConfigError,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const fix: Record<PullCredentialsConfigError["code"], string> = {
 *   UNKNOWN_POLICY: "use one of the four policy names, spelled as the kubelet does",
 *   INVALID_ALLOWLIST: "write a repository name or a prefix ending in /*",
 *   ALLOWLIST_REQUIRES_ALLOWLIST_POLICY: "set the policy to NeverVerifyAllowlistedImages",
 *   REQUIRES_FEATURE_GATE: "enable KubeletEnsureSecretPulledImages",
 *   INVALID_CONFIG: "check the fields' types",
 * };
 * try {
 *   parseKubeletPullCredentialsConfig({ imagePullCredentialsVerificationPolicy: "Always" });
 * } catch (e) {
 *   if (e instanceof PullCredentialsConfigError) console.log(`${e.field}: ${fix[e.code]}`);
 * }
 * // imagePullCredentialsVerificationPolicy: use one of the four policy names, spelled as the kubelet does
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
 */
export const isPullCredentialsConfigError = errorGuard<PullCredentialsConfigError>(
  "PullCredentialsConfigError",
);

/**
 * Codes of {@link PullRecordError}.
 *
 * @example
 * ```ts
 * import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import type { PullRecordError } from "@kubeimg/policy/pull-credentials";
 * import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
 *
 * const root = mkdtempSync(join(tmpdir(), "kubelet-"));
 * mkdirSync(join(root, "image_manager", "pulling"), { recursive: true });
 * writeFileSync(join(root, "image_manager", "pulling", "sha256-0000"), "not json");
 * const { errors } = await (await FileSystemPullRecordStore.open(root)).listIntents();
 * const code: PullRecordError["code"] | undefined = errors[0]?.code;
 * console.log(code); // DECODE_ERROR
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
 */
export const isPullRecordError = errorGuard<PullRecordError>("PullRecordError");
