/**
 * One HTTP exchange under a deadline: `fetch-retry` for network errors and
 * the retryable statuses of `status.ts` (honouring `Retry-After` only when
 * it fits in the remaining budget), manual redirects that drop
 * `Authorization` when the origin changes and hold every hop to the
 * caller's rule, and failures mapped to `RegistryError`.
 *
 * fetch-retry 6.0.0 traps handled here: with a `retryOn` function it does
 * not count attempts (we do), it retries aborted requests (we refuse once
 * the signal is aborted), it does not release the bodies of responses it
 * retries (we cancel them), and its delay cannot be interrupted (we only
 * wait when the delay fits in the budget, and the caller races the signal).
 */
import fetchRetry from "fetch-retry";
import { RegistryError } from "../errors/index.js";
import { cancelBody } from "../http/body.js";
import { redactUrl } from "../http/redact.js";
import { parseRetryAfter } from "../http/retry-after.js";
import type { CredentialProvider } from "./credentials.js";
import { failureFrom } from "./error-mapping.js";
import { MAX_TIMER_MS } from "./options.js";
import { isRetryableStatus } from "./status.js";

/** What a transport needs to know about the call it serves. */
export interface CallContext {
  readonly signal: AbortSignal;
  /** Epoch ms by which the call must be done (`Infinity` without a deadline). */
  readonly deadline: number;
  /** The registry (host[:port] as in references) the call is for. */
  readonly registry: string;
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
  /** Runs before the first request and every redirect hop; throws to refuse the host. */
  readonly checkHost: (url: URL, context: CallContext) => Promise<void>;
}

export interface SendOptions {
  readonly method: "GET" | "HEAD";
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent only while the request stays on the origin of the first URL. */
  readonly authorization?: string;
  /** Why a redirect to `target` is refused, or undefined to follow it. */
  readonly allowRedirect: (target: URL, from: URL) => string | undefined;
}

/** The final response of a request and the URL it came from (after redirects). */
export interface Sent {
  readonly response: Response;
  readonly url: string;
}

const isAbortError = (error: unknown): boolean =>
  error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");

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
      } else if (response && isRetryableStatus(response.status)) {
        delay =
          parseRetryAfter(response.headers.get("retry-after"), options.now()) ??
          options.retryBaseDelayMs * 2 ** attemptNumber;
      } else {
        return false;
      }
      // Only wait when the wait and a little work still fit in the budget (and in a timer).
      if (delay > MAX_TIMER_MS || options.now() + delay + 50 >= context.deadline) return false;
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
  ): Promise<Sent> {
    const first = new URL(url);
    let current = first;
    let authorization = request.authorization;
    for (let hop = 0; ; hop++) {
      await options.checkHost(current, context);
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
      if (!URL.canParse(location, current.href)) {
        throw new RegistryError("REDIRECT_REJECTED", "redirect to an invalid URL", {
          url: redactUrl(current.href),
          reference: context.reference,
          status: response.status,
        });
      }
      const target = new URL(location, current);
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
 * Settles with `work`, or rejects with `onAbort()` as soon as `signal`
 * aborts, whatever `work` is still doing (a hung body, a retry delay).
 * `work` is always observed, so its later rejection is never unhandled,
 * also when the signal had aborted before the race began.
 */
export function raceSignal<T>(
  work: Promise<T>,
  signal: AbortSignal,
  onAbort: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
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
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
  });
}
