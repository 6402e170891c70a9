import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * Error codes of {@link RegistryError}. The first group are the OCI
 * distribution-spec error codes a registry puts in its JSON body; the rest
 * are ours, for failures that have no registry code.
 *
 * @inline
 */
export type RegistryErrorCode =
  // distribution-spec codes (the registry's own)
  | "BLOB_UNKNOWN"
  | "BLOB_UPLOAD_INVALID"
  | "BLOB_UPLOAD_UNKNOWN"
  | "DIGEST_INVALID"
  | "MANIFEST_BLOB_UNKNOWN"
  | "MANIFEST_INVALID"
  | "MANIFEST_UNKNOWN"
  | "NAME_INVALID"
  | "NAME_UNKNOWN"
  | "SIZE_INVALID"
  | "UNAUTHORIZED"
  | "DENIED"
  | "UNSUPPORTED"
  | "TOOMANYREQUESTS"
  | "UNKNOWN"
  // ours
  | "NOT_FOUND"
  | "HTTP_ERROR"
  | "NOT_A_REGISTRY"
  | "NETWORK_ERROR"
  | "TIMEOUT"
  | "ABORTED"
  | "RESPONSE_TOO_LARGE"
  | "INVALID_RESPONSE"
  | "DIGEST_MISMATCH"
  | "INVALID_REFERENCE"
  | "BLOCKED_HOST"
  | "REALM_REJECTED"
  | "TOKEN_ERROR"
  | "TOKEN_INVALID"
  | "INVALID_OPTION"
  | "INVALID_ARGUMENT"
  | "REDIRECT_REJECTED"
  | "LINK_REJECTED"
  | "TOO_MANY_PAGES"
  // platform resolution (see ../platform)
  | "NO_MATCHING_PLATFORM"
  | "INDEX_TOO_DEEP"
  | "INDEX_TOO_LARGE";

/** The distribution-spec codes, as data, to recognise them in a registry's error body. */
export const DISTRIBUTION_ERROR_CODES: ReadonlySet<string> = /*#__PURE__*/ new Set([
  "BLOB_UNKNOWN",
  "BLOB_UPLOAD_INVALID",
  "BLOB_UPLOAD_UNKNOWN",
  "DIGEST_INVALID",
  "MANIFEST_BLOB_UNKNOWN",
  "MANIFEST_INVALID",
  "MANIFEST_UNKNOWN",
  "NAME_INVALID",
  "NAME_UNKNOWN",
  "SIZE_INVALID",
  "UNAUTHORIZED",
  "DENIED",
  "UNSUPPORTED",
  "TOOMANYREQUESTS",
  "UNKNOWN",
]);

/** What a {@link RegistryError} carries besides its code and message.
 *
 * @inline
 */
export interface RegistryErrorDetails {
  /** HTTP status of the response that failed, when there was one. */
  readonly status?: number;
  /** The image or repository the call was about, e.g. `quay.io/team/app:1.0`. */
  readonly reference?: string;
  /** The request URL, with query values that could carry secrets removed. */
  readonly url?: string;
  /** The registry's own message for the first error in its body. */
  readonly registryMessage?: string;
  /** True when trying again later may succeed (network, 429, 5xx, timeouts). */
  readonly retryable?: boolean;
  /** Milliseconds the registry asked us to wait (`Retry-After`), when it did. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

/**
 * Thrown by the registry client. `code` is the registry's error code when it
 * sent one, otherwise one of ours; `status`, `reference` and `url` say
 * what failed. Credentials and tokens never appear in the message or fields.
 *
 * @example
 * ```ts
 * import { createRegistryClient, RegistryError } from "@kubeimg/registry/client";
 *
 * const client = createRegistryClient();
 * try {
 *   await client.headManifest({ domain: "127.0.0.1:5000", path: "team/app", tag: "1.0" });
 * } catch (e) {
 *   // A loopback registry is refused before any request unless an option allows it.
 *   if (e instanceof RegistryError) e.code; // → "BLOCKED_HOST"
 *   if (e instanceof RegistryError) e.reference; // → "127.0.0.1:5000/team/app:1.0"
 * }
 * ```
 */
export class RegistryError extends KubeimgError {
  override readonly name = "RegistryError";
  readonly code: RegistryErrorCode;
  readonly status: number | undefined;
  readonly reference: string | undefined;
  readonly url: string | undefined;
  readonly registryMessage: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(code: RegistryErrorCode, message: string, details: RegistryErrorDetails = {}) {
    super(message, { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.reference = details.reference;
    this.url = details.url;
    this.registryMessage = details.registryMessage;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * Throws `INVALID_ARGUMENT` unless `ok`: the check every public function
 * makes on arguments TypeScript cannot vouch for (callers in JavaScript,
 * values read from files), so a wrong type is a typed error naming the
 * function and argument rather than a `TypeError` from deep inside.
 */
export function checkArgument(ok: boolean, where: string, value: unknown, rule: string): void {
  if (ok) return;
  const shown =
    typeof value === "string"
      ? JSON.stringify(value.slice(0, 100))
      : value === null
        ? "null"
        : typeof value;
  throw new RegistryError("INVALID_ARGUMENT", `${where}: ${rule} (got ${shown})`);
}

/**
 * Returns true when `value` is a {@link RegistryError}, from whichever copy
 * of the package created it.
 */
export const isRegistryError = errorGuard<RegistryError>("RegistryError");
