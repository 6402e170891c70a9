/**
 * One HTTP exchange under a deadline: `fetch-retry` for network errors, 429
 * and 5xx (honouring `Retry-After` only when it fits in the remaining
 * budget), manual redirects that drop `Authorization` when the origin
 * changes and refuse restricted or downgraded targets, and failures mapped
 * to `RegistryError`.
 *
 * fetch-retry 6.0.0 traps handled here: with a `retryOn` function it does
 * not count attempts (we do), it retries aborted requests (we refuse once
 * the signal is aborted), it does not release the bodies of responses it
 * retries (we cancel them), and its delay cannot be interrupted (we only
 * wait when the delay fits in the budget, and the caller races the signal).
 */
import fetchRetry from "fetch-retry";
import { RegistryError } from "../errors/index.js";
import { isRestrictedHost } from "../http/address.js";
import { cancelBody } from "../http/body.js";
import { redactUrl } from "../http/redact.js";
import { parseRetryAfter } from "../http/retry-after.js";
import type { CredentialProvider } from "./credentials.js";

/** What a transport needs to know about the call it serves. */
export interface CallContext {
  readonly signal: AbortSignal;
  /** Epoch ms by which the call must be done. */
  readonly deadline: number;
  /** The image or repository, for error messages. */
  readonly reference: string;
  /** Credentials of this call, when they override the client's. */
  readonly credentials?: CredentialProvider | undefined;
}

export interface TransportOptions {
  readonly fetch: typeof globalThis.fetch;
  readonly retries: number;
  readonly retryBaseDelayMs: number;
  readonly maxRedirects: number;
  readonly now: () => number;
  readonly userAgent: string;
}

export interface SendOptions {
  readonly method: "GET" | "HEAD";
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent only while the request stays on the origin of the first URL. */
  readonly authorization?: string;
  /** Whether a redirect may lead to a restricted address or to http. */
  readonly allowRedirect: (target: URL, from: URL) => string | undefined;
}

/** Statuses worth another attempt: rate limiting and transient server failures. */
const retryableStatus = (status: number): boolean =>
  status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505);

const isAbortError = (error: unknown): boolean =>
  error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");

/** Maps a thrown fetch failure to a RegistryError. */
export function failureFrom(error: unknown, url: string, context: CallContext): RegistryError {
  if (error instanceof RegistryError) return error;
  const details = { url: redactUrl(url), reference: context.reference, cause: error };
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
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why =
    typeof cause?.code === "string"
      ? cause.code
      : typeof cause?.message === "string"
        ? cause.message
        : "";
  const message = `${error instanceof Error ? error.message : String(error)}${why ? ` (${why})` : ""}`;
  return new RegistryError("NETWORK_ERROR", `cannot reach ${redactUrl(url)}: ${message}`, {
    ...details,
    retryable: true,
  });
}

/** Creates the sending function of a client. */
export function createTransport(options: TransportOptions) {
  const retrying = fetchRetry(options.fetch);

  async function attempt(url: string, init: RequestInit, context: CallContext): Promise<Response> {
    let nextDelay = 0;
    const retryOn = async (
      attemptNumber: number,
      error: Error | null,
      response: Response | null,
    ): Promise<boolean> => {
      if (context.signal.aborted || attemptNumber >= options.retries) return false;
      let delay: number;
      if (error) {
        if (isAbortError(error)) return false;
        delay = options.retryBaseDelayMs * 2 ** attemptNumber;
      } else if (response && retryableStatus(response.status)) {
        delay =
          parseRetryAfter(response.headers.get("retry-after"), options.now()) ??
          options.retryBaseDelayMs * 2 ** attemptNumber;
      } else {
        return false;
      }
      // Only wait when the wait and a little work still fit in the budget.
      if (options.now() + delay + 50 >= context.deadline) return false;
      await cancelBody(response);
      nextDelay = delay;
      return true;
    };
    return retrying(url, {
      ...init,
      signal: context.signal,
      redirect: "manual",
      retryOn,
      retryDelay: () => nextDelay,
    });
  }

  /** Sends a request, following redirects by hand; returns the final response and URL. */
  return async function send(
    url: string,
    request: SendOptions,
    context: CallContext,
  ): Promise<{ response: Response; url: string }> {
    const first = new URL(url);
    let current = first;
    let authorization = request.authorization;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = {
        "user-agent": options.userAgent,
        ...request.headers,
      };
      if (authorization) headers.authorization = authorization;
      let response: Response;
      try {
        response = await attempt(current.href, { method: request.method, headers }, context);
      } catch (error) {
        throw failureFrom(error, current.href, context);
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) {
        return { response, url: current.href };
      }
      await cancelBody(response);
      if (hop >= options.maxRedirects) {
        throw new RegistryError(
          "REDIRECT_REJECTED",
          `too many redirects for ${context.reference}`,
          {
            url: redactUrl(first.href),
            reference: context.reference,
            status: response.status,
          },
        );
      }
      let target: URL;
      try {
        target = new URL(location, current);
      } catch (cause) {
        throw new RegistryError("REDIRECT_REJECTED", "redirect to an invalid URL", {
          url: redactUrl(current.href),
          reference: context.reference,
          cause,
        });
      }
      const refusal =
        target.protocol !== "https:" && target.protocol !== "http:"
          ? `scheme ${target.protocol} is not allowed`
          : request.allowRedirect(target, current);
      if (refusal) {
        throw new RegistryError(
          "REDIRECT_REJECTED",
          `refused redirect to ${redactUrl(target.href)}: ${refusal}`,
          { url: redactUrl(current.href), reference: context.reference, status: response.status },
        );
      }
      // Credentials never follow a redirect to another origin.
      if (target.origin !== current.origin) authorization = undefined;
      current = target;
    }
  };
}

/**
 * The redirect rule of resource requests: no https→http downgrade, and no
 * restricted address (private, loopback, link-local, `localhost`) unless
 * every such address is allowed, or it is the registry's own host name.
 */
export function redirectRule(registryHostname: string, allowAllPrivate: boolean) {
  return (target: URL, from: URL): string | undefined => {
    if (from.protocol === "https:" && target.protocol === "http:") return "https to http downgrade";
    const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (!allowAllPrivate && host !== registryHostname.toLowerCase() && isRestrictedHost(host)) {
      return `${host} is a restricted address`;
    }
    return undefined;
  };
}

/** Rejects as soon as `signal` aborts, whatever `work` is doing (a hung body, a retry delay). */
export function raceSignal<T>(
  work: Promise<T>,
  signal: AbortSignal,
  onAbort: () => Error,
): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}
