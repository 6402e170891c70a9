/**
 * From what went wrong to a `RegistryError`: a registry's error response
 * (its JSON `errors[0].code` when it is a distribution-spec code, otherwise
 * the status, by the table below), and a thrown failure of `fetch` (network,
 * abort, deadline).
 *
 * Nothing from a thrown error's own text reaches a message: runtimes put
 * request details there (undici's `Headers.append: "Bearer …" is an invalid
 * header value` quotes the header), so a message keeps only the failure's
 * name and its system error code (`ECONNREFUSED`).
 */
import { RegistryError, type RegistryErrorCode } from "../errors/index.js";
import { cancelBody, readBodyLimited } from "../http/body.js";
import { redactUrl } from "../http/redact.js";
import { parseRetryAfter } from "../http/retry-after.js";
import { isDistributionCode } from "./responses.js";
import { isRetryableStatus } from "./status.js";

/** Our code for a status, when the registry's body names no distribution-spec code. */
const CODE_BY_STATUS: Readonly<Record<number, RegistryErrorCode>> = {
  401: "UNAUTHORIZED",
  403: "DENIED",
  404: "NOT_FOUND",
  429: "TOOMANYREQUESTS",
};

/** The longest registry message kept in an error. */
const REGISTRY_MESSAGE_MAX = 500;

/** What the error mapping needs to know about the call that failed. */
export interface FailureContext {
  readonly signal: AbortSignal;
  /** The image or repository, for error messages. */
  readonly reference: string;
}

/** Reads the first error of a distribution-style JSON body; cancels the body when it is not one. */
async function registryErrorOf(
  response: Response,
  errorBytes: number,
): Promise<{ code: string | undefined; message: string | undefined }> {
  try {
    const bytes = await readBodyLimited(response, errorBytes);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      errors?: { code?: unknown; message?: unknown }[];
    };
    const first = Array.isArray(body?.errors) ? body.errors[0] : undefined;
    return {
      code: typeof first?.code === "string" ? first.code.slice(0, 64).toUpperCase() : undefined,
      message: typeof first?.message === "string" ? first.message : undefined,
    };
  } catch {
    await cancelBody(response);
    return { code: undefined, message: undefined };
  }
}

/** Returns the error of a registry's non-success answer to a resource request. */
export async function errorFromResponse(
  response: Response,
  url: string,
  reference: string,
  {
    errorBytes,
    now,
    redact = (text) => text,
  }: {
    readonly errorBytes: number;
    readonly now: number;
    /** Removes secrets the client sent from the registry's own text. */
    readonly redact?: (text: string) => string;
  },
): Promise<RegistryError> {
  const read = await registryErrorOf(response, errorBytes);
  const registry = {
    code: read.code === undefined ? undefined : redact(read.code),
    message:
      read.message === undefined ? undefined : redact(read.message).slice(0, REGISTRY_MESSAGE_MAX),
  };
  const status = response.status;
  const code: RegistryErrorCode =
    registry.code && isDistributionCode(registry.code)
      ? registry.code
      : (CODE_BY_STATUS[status] ?? "HTTP_ERROR");
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), now);
  const said = `${registry.code ? ` ${registry.code}` : ""}${registry.message ? ` (${registry.message})` : ""}`;
  return new RegistryError(code, `${reference}: registry answered ${status}${said}`, {
    status,
    url: redactUrl(url),
    reference,
    ...(registry.message ? { registryMessage: registry.message } : {}),
    retryable: isRetryableStatus(status),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

const isAbortError = (error: unknown): boolean =>
  error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");

/** A system error code (`ECONNREFUSED`, `UND_ERR_SOCKET`): an identifier, never request data. */
const SYSTEM_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

/** Failure texts known to carry no request data (undici's network failure). */
const SAFE_MESSAGES: ReadonlySet<string> = /*#__PURE__*/ new Set(["fetch failed"]);

/** A safe one-line description of a thrown failure: its name and system codes, never its text. */
export function describeFailure(error: unknown): string {
  const name =
    error instanceof Error && SAFE_MESSAGES.has(error.message)
      ? error.message
      : error instanceof Error && /^[A-Za-z]{1,40}$/.test(error.name)
        ? error.name
        : "failure";
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && SYSTEM_CODE.test(code) && !codes.includes(code)) {
      codes.push(code);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return codes.length > 0 ? `${name} (${codes.join(", ")})` : name;
}

/** Maps a thrown failure of a request (or of reading its body) to a RegistryError. */
export function failureFrom(error: unknown, url: string, context: FailureContext): RegistryError {
  if (error instanceof RegistryError) return error;
  const details = { url: redactUrl(url), reference: context.reference };
  if (context.signal.aborted) {
    const reason = context.signal.reason as { name?: string } | undefined;
    return reason?.name === "TimeoutError"
      ? new RegistryError("TIMEOUT", `deadline exceeded for ${context.reference}`, {
          ...details,
          retryable: true,
        })
      : new RegistryError("ABORTED", `request for ${context.reference} was aborted`, details);
  }
  if (isAbortError(error)) {
    return new RegistryError("TIMEOUT", `deadline exceeded for ${context.reference}`, {
      ...details,
      retryable: true,
    });
  }
  const described = describeFailure(error);
  return new RegistryError(
    "NETWORK_ERROR",
    `cannot reach ${redactUrl(url)}: ${described}${plainHttpHint(described, url)}`,
    { ...details, retryable: true },
  );
}

/**
 * OpenSSL's answers when a TLS handshake meets a server speaking plain HTTP
 * (the usual private registry on port 5000).
 */
const PLAIN_HTTP_CODES = /\b(?:ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)\b/;

/** Names the option that talks plain HTTP to a host whose TLS handshake failed so. */
function plainHttpHint(described: string, url: string): string {
  if (!PLAIN_HTTP_CODES.test(described)) return "";
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return "";
  }
  return ` (the registry seems to speak plain HTTP, not TLS: if it does, set the client option registries[${JSON.stringify(host)}].insecure: true)`;
}
