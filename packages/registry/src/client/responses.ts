/**
 * Reading what registries and token servers send back: registry error
 * bodies, token responses and tag-list pages. Pure
 * functions over bytes, shared by the client.
 */
import {
  DISTRIBUTION_ERROR_CODES,
  RegistryError,
  type RegistryErrorCode,
} from "../errors/index.js";
import { redactUrl } from "../http/redact.js";
import type { RegistryCredential } from "./credentials.js";
import type { RateLimitInfo } from "./options.js";
import { MINIMUM_TOKEN_LIFETIME_SECONDS } from "./token-cache.js";

/** Reads `ratelimit-remaining` / `ratelimit-limit` (`N;w=SECONDS`); undefined without them. */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  const read = (name: string) => {
    const m = /^\s*(\d+)\s*(?:;\s*w\s*=\s*(\d+))?/.exec(headers.get(name) ?? "");
    return m
      ? { value: Number(m[1]), window: m[2] === undefined ? undefined : Number(m[2]) }
      : undefined;
  };
  const remaining = read("ratelimit-remaining");
  if (!remaining) return undefined;
  const limit = read("ratelimit-limit");
  return {
    limit: limit?.value,
    remaining: remaining.value,
    windowSeconds: remaining.window ?? limit?.window,
  };
}

/** True for a distribution-spec error code. */
export function isDistributionCode(code: string): code is RegistryErrorCode {
  return DISTRIBUTION_ERROR_CODES.has(code);
}

/** Puts the scopes of a challenge first, then the ones already wanted, without repeats. */
export function mergeScopes(
  challengeScope: string | undefined,
  scopes: readonly string[],
): string[] {
  const fromChallenge = (challengeScope ?? "").split(" ").filter((s) => s !== "");
  return [...new Set([...fromChallenge, ...scopes])];
}

/** The token-cache key of (registry, scopes, credential). */
export function tokenKey(
  registry: string,
  scopes: readonly string[],
  credential: RegistryCredential | undefined,
): string {
  const who = credential ? `${credential.username}\u0000${credential.password}` : "";
  return `${registry}\u0000${[...scopes].sort().join(" ")}\u0000${who}`;
}

/** Reads `token`/`access_token`, `expires_in` (default and floor 60 s) and `issued_at`. */
export function parseTokenResponse(
  bytes: Uint8Array,
  now: number,
): { token: string; expiresAt: number } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  const token =
    typeof record.token === "string" && record.token !== ""
      ? record.token
      : typeof record.access_token === "string" && record.access_token !== ""
        ? record.access_token
        : undefined;
  if (!token) return undefined;
  const expiresIn =
    typeof record.expires_in === "number" && Number.isFinite(record.expires_in)
      ? Math.max(record.expires_in, MINIMUM_TOKEN_LIFETIME_SECONDS)
      : MINIMUM_TOKEN_LIFETIME_SECONDS;
  const issued = typeof record.issued_at === "string" ? Date.parse(record.issued_at) : Number.NaN;
  const issuedAt = Number.isFinite(issued) && issued <= now ? issued : now;
  return { token, expiresAt: issuedAt + expiresIn * 1000 };
}

/** Reads one tags-list page, whatever its Content-Type; `tags: null` is an empty page. */
export function parseTagsPage(bytes: Uint8Array, url: string, reference: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    // No cause: the parser quotes the body, which may echo what the client sent.
    throw new RegistryError("INVALID_RESPONSE", `${reference}: tags list is not JSON`, {
      url: redactUrl(url),
      reference,
    });
  }
  const tags =
    body !== null && typeof body === "object" ? (body as { tags?: unknown }).tags : undefined;
  if (tags === null || tags === undefined) return [];
  if (!Array.isArray(tags) || tags.some((t) => t !== null && typeof t !== "string")) {
    throw new RegistryError("INVALID_RESPONSE", `${reference}: tags must be a list of strings`, {
      url: redactUrl(url),
      reference,
    });
  }
  return tags.filter((t): t is string => typeof t === "string");
}
