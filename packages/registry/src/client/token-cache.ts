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

/** A small in-memory token cache with an injected clock. */
export class TokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  constructor(private readonly now: () => number) {}

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
    this.#tokens.set(key, { token, expiresAt });
  }

  delete(key: string): void {
    this.#tokens.delete(key);
  }
}
