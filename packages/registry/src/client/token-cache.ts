/** Bearer tokens cached per (registry, scopes, credential) until shortly before they expire. */
export interface CachedToken {
  readonly token: string;
  /** Epoch ms after which the token is not reused. */
  readonly expiresAt: number;
}

/** Seconds of lifetime assumed when a token response gives none, and the floor (containers/image). */
export const MINIMUM_TOKEN_LIFETIME_SECONDS = 60;
/** Tokens are dropped this long before they expire, for clock skew and request time. */
const EXPIRY_SKEW_MS = 10_000;

/** Most tokens kept; the oldest entry goes first when full (a webhook sees many repositories). */
const MAX_ENTRIES = 1000;

/** A small in-memory token cache with an injected clock and a size bound. */
export class TokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  constructor(
    private readonly now: () => number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  get(key: string): string | undefined {
    const hit = this.#tokens.get(key);
    if (!hit) return undefined;
    if (this.now() >= hit.expiresAt - EXPIRY_SKEW_MS) {
      this.#tokens.delete(key);
      return undefined;
    }
    return hit.token;
  }

  set(key: string, token: string, expiresAt: number): void {
    this.#tokens.delete(key);
    this.#tokens.set(key, { token, expiresAt });
    while (this.#tokens.size > this.maxEntries) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest === undefined) break;
      this.#tokens.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#tokens.delete(key);
  }
}
