import type { CredentialProvider } from "./credentials.js";

/** Settings for one registry host, keyed by the host as written in references (`quay.io`, `localhost:5000`). */
export interface RegistryHostOptions {
  /** Talk plain http to this registry (and accept an http token realm from it). Default false. */
  readonly insecure?: boolean;
  /** Allow this registry even though it is a private/loopback/link-local address or `localhost`. */
  readonly allowPrivateAddress?: boolean;
  /** Extra token realm hosts this registry may send us to (`host` or `host:port`). */
  readonly realmAllowlist?: readonly string[];
  /** Never send HEAD for manifests to this registry; use GET (counted as a pull on Docker Hub). */
  readonly disableHead?: boolean;
}

/** Size caps, in bytes, and pagination bounds.
 *
 * @inline
 */
export interface RegistryLimits {
  /** Largest manifest body read (default 4 MiB, as oras-go). */
  readonly manifestBytes: number;
  /** Largest token response read (default 1 MiB). */
  readonly tokenBytes: number;
  /** Largest tags-list page read (default 4 MiB). */
  readonly tagsPageBytes: number;
  /** Largest error body read to find the registry's error code (default 64 KiB). */
  readonly errorBytes: number;
  /** Most tag-list pages followed (default 100). */
  readonly maxPages: number;
  /** Most tags collected over all pages (default 100 000). */
  readonly maxTags: number;
  /** Most redirects followed per request (default 5). */
  readonly maxRedirects: number;
}

/**
 * Default {@link RegistryLimits}.
 */
export const DEFAULT_REGISTRY_LIMITS: RegistryLimits = /*#__PURE__*/ Object.freeze({
  manifestBytes: 4 * 1024 * 1024,
  tokenBytes: 1024 * 1024,
  tagsPageBytes: 4 * 1024 * 1024,
  errorBytes: 64 * 1024,
  maxPages: 100,
  maxTags: 100_000,
  maxRedirects: 5,
});

/** Options of {@link createRegistryClient}. Everything is optional. */
export interface RegistryClientOptions {
  /** The `fetch` to use (inject one for tests, proxies or a custom CA). Default: `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Credentials per repository; default anonymous. See `keyringCredentials`. */
  readonly credentials?: CredentialProvider;
  /** Per-registry settings, keyed by host[:port] as in references. */
  readonly registries?: Readonly<Record<string, RegistryHostOptions>>;
  /** When set, only these registries (host[:port]) may be contacted. */
  readonly allowedRegistries?: readonly string[];
  /** Allow private/loopback/link-local registry addresses everywhere. Default false. */
  readonly allowPrivateAddresses?: boolean;
  /** Token realm hosts allowed for every registry. */
  readonly realmAllowlist?: readonly string[];
  /**
   * What to do with a token realm the policy refuses (foreign host): `"fail"`
   * (default) throws `REALM_REJECTED`; `"anonymous"` asks it for a token
   * without credentials (still https-only, never a restricted address).
   */
  readonly foreignRealm?: "fail" | "anonymous";
  /**
   * Time budget of one call (ping, HEAD, tag listing, …) in ms, retries
   * included. Default 10 000. `Infinity` means no deadline (only the call's
   * signal ends it); a finite value must be at most 2^31 − 1 ms (about 24.8
   * days), the longest timer JavaScript runtimes honour. Anything else
   * (negative, `NaN`, larger) is an `INVALID_OPTION` error.
   */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, for network errors, 429 and 5xx. Default 2. */
  readonly retries?: number;
  /** First retry delay when the registry gives no `Retry-After`, doubled each retry. Default 200 ms. */
  readonly retryBaseDelayMs?: number;
  /** Size caps and pagination bounds. */
  readonly limits?: Partial<RegistryLimits>;
  /** Clock in epoch ms, for token expiry and deadlines. Default `Date.now`. */
  readonly now?: () => number;
  /** `User-Agent` header. Default `kubeimg-registry`. */
  readonly userAgent?: string;
  /**
   * Called with Docker Hub style rate-limit headers (`ratelimit-limit`,
   * `ratelimit-remaining`, e.g. `100;w=21600`) whenever a response has them,
   * to export as metrics.
   */
  readonly onRateLimit?: (registry: string, rateLimit: RateLimitInfo) => void;
  /** Called once per distinct `Warning: 299` header a registry sends. */
  readonly onWarning?: (warning: string, registry: string) => void;
  /**
   * A resolving check of host names. The client refuses private and local
   * addresses written as IP literals or `localhost`, but cannot see what a
   * DNS name resolves to (a name pointing at 10.0.0.1, or DNS rebinding).
   * When set, it is called with every DNS host name the client is about to
   * contact (the registry, each redirect hop, each token realm) and must
   * return its addresses; any restricted one refuses the request with
   * `BLOCKED_HOST`. Hosts allowed to be private are not resolved. Note that
   * `fetch` resolves again when it connects; only a `fetch` pinned to the
   * checked addresses closes that window.
   *
   * @example
   * ```ts
   * import { lookup } from "node:dns/promises";
   * import { createRegistryClient } from "@kubeimg/registry/client";
   *
   * createRegistryClient({
   *   resolveHost: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
   * });
   * ```
   */
  readonly resolveHost?: (
    hostname: string,
    options: { readonly signal: AbortSignal },
  ) => Promise<readonly string[]> | readonly string[];
}

/** The longest delay, in ms, a JavaScript timer honours (Node fires longer ones at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A registry's rate-limit headers, read.
 *
 * @inline
 */
export interface RateLimitInfo {
  /** Requests allowed per window, when sent. */
  readonly limit: number | undefined;
  /** Requests left in the window. */
  readonly remaining: number;
  /** Window length in seconds, when sent (`;w=`). */
  readonly windowSeconds: number | undefined;
}

/** Per-call options: an abort signal and an optional tighter time budget. */
export interface RegistryCallOptions {
  readonly signal?: AbortSignal;
  /**
   * Budget of this call in ms; the smaller of this and the client's
   * `timeoutMs` applies. Same range as the client's (`Infinity` or 0 … 2^31 − 1).
   */
  readonly timeoutMs?: number;
  /** Credentials for this call only, instead of the client's (tokens stay cached per credential). */
  readonly credentials?: CredentialProvider;
}
