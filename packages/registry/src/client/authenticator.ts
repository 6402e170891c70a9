/**
 * Authentication against a registry, as the kubelet and containerd do it:
 * a request goes anonymous first (or with what was learnt before: a cached
 * token, Basic for a registry that asked for it), a 401 names the scheme
 * (`WWW-Authenticate`), Basic is answered with the credential, Bearer with a
 * token from the realm (checked by the host policy, credentials only to a
 * realm the registry owns), one more token on `insufficient_scope` or
 * `invalid_token`, and a refused credential makes way for the next one.
 *
 * Tokens are cached per (registry, scopes, credential); challenges per
 * registry, for registries whose resource 401s come without one (GCR).
 * A token is a header value: one with characters a header cannot carry is
 * refused here (`TOKEN_INVALID`), before any `Headers` sees it and quotes
 * it in its error text.
 */
import { isKubeimgError } from "@kubeimg/core";
import { isRegistryError, RegistryError } from "../errors/index.js";
import { cancelBody } from "../http/body.js";
import { type AuthChallenge, parseWwwAuthenticate, pickChallenge } from "../http/challenge.js";
import { checkRealm } from "../http/realm.js";
import { redactUrl } from "../http/redact.js";
import { basicAuthorization, type RegistryCredential } from "./credentials.js";
import { describeFailure } from "./error-mapping.js";
import type { HostPolicy } from "./host-policy.js";
import type { RegistryClientOptions } from "./options.js";
import { mergeScopes, parseTokenResponse, tokenKey } from "./responses.js";
import { isRetryableStatus } from "./status.js";
import { TokenCache } from "./token-cache.js";
import type { CallContext, SendOptions, Sent } from "./transport.js";

/** What a request is about: the registry, the repository (for scopes) and the reference. */
export interface Target {
  readonly registry: string;
  readonly repository: string | undefined;
  readonly reference: string;
}

/** Sends one request (with redirects) under a call's context. */
export type Send = (url: string, request: SendOptions, ctx: CallContext) => Promise<Sent>;

/** Reads a body under a cap, mapping failures to RegistryErrors. */
export type ReadBody = (
  response: Response,
  limit: number,
  url: string,
  target: Target,
  ctx: CallContext,
) => Promise<Uint8Array>;

/** What the authenticator needs from its client. */
export interface AuthenticatorOptions {
  readonly options: RegistryClientOptions;
  readonly hosts: HostPolicy;
  readonly send: Send;
  readonly readBody: ReadBody;
  readonly tokenBytes: number;
  readonly now: () => number;
  /** Called with every response of a registry (rate-limit and warning headers). */
  readonly onResponse: (response: Response, registry: string) => void;
}

/**
 * Visible ASCII only: what a header value carries without folding or
 * quoting. RFC 6750's `b64token`, and every JWT, is a subset.
 */
const HEADER_SAFE_TOKEN = /^[\x21-\x7e]+$/;

/** Most secrets remembered for redaction; the oldest go first. */
const MAX_SECRETS = 2000;
/** Shorter strings are not redacted: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 6;

/** The authentication state of one client: challenges seen and tokens obtained. */
export class Authenticator {
  readonly #deps: AuthenticatorOptions;
  readonly #tokens: TokenCache;
  readonly #challenges = new Map<string, AuthChallenge>();
  /** Passwords, Basic values and tokens this client has sent, to scrub from registry texts. */
  readonly #secrets = new Set<string>();

  constructor(deps: AuthenticatorOptions) {
    this.#deps = deps;
    this.#tokens = new TokenCache(deps.now);
  }

  /**
   * Returns `text` with every secret this client has sent replaced by
   * `REDACTED`. Registry texts (error messages, warnings) go into errors
   * and logs; a registry that echoes the `Authorization` header it got must
   * not put a credential there.
   */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join("REDACTED");
    }
    return out;
  }

  #remember(...secrets: string[]): void {
    for (const secret of secrets) {
      if (secret.length < MIN_SECRET_LENGTH) continue;
      this.#secrets.delete(secret);
      this.#secrets.add(secret);
    }
    while (this.#secrets.size > MAX_SECRETS) {
      const oldest = this.#secrets.values().next().value;
      if (oldest === undefined) break;
      this.#secrets.delete(oldest);
    }
  }

  #rememberCredential(credential: RegistryCredential | undefined): void {
    if (!credential) return;
    const basic = basicAuthorization(credential);
    this.#remember(credential.password, basic.slice("Basic ".length));
  }

  /** Remembers the challenge a registry's `/v2/` answered with, for later resource 401s. */
  rememberChallenges(registry: string, challenges: readonly AuthChallenge[]): void {
    const chosen = pickChallenge(challenges);
    if (chosen) this.#challenges.set(registry, chosen);
  }

  /**
   * Sends a request for a repository resource, authenticating as the
   * registry asks, trying each credential of the call in turn.
   */
  async request(
    target: Target,
    method: "GET" | "HEAD",
    url: string,
    ctx: CallContext,
    accept: string,
  ): Promise<Sent> {
    const { options, hosts, send } = this.#deps;
    const repositoryName = `${target.registry}/${target.repository ?? ""}`;
    let credentials: unknown;
    try {
      credentials = (await (ctx.credentials ?? options.credentials)?.(repositoryName)) ?? [];
    } catch (error) {
      // A kubeimg error (a malformed pull secret) keeps its own code.
      if (isKubeimgError(error)) throw error;
      throw new RegistryError(
        "INVALID_OPTION",
        `the credential provider failed for ${repositoryName}: ${describeFailure(error)}`,
        { reference: target.reference },
      );
    }
    if (!Array.isArray(credentials)) {
      throw new RegistryError(
        "INVALID_OPTION",
        `the credential provider returned ${typeof credentials} for ${repositoryName}, not a list`,
        { reference: target.reference },
      );
    }
    const valid = (c: unknown): c is RegistryCredential =>
      typeof (c as RegistryCredential | null)?.username === "string" &&
      typeof (c as RegistryCredential | null)?.password === "string";
    if (!credentials.every(valid)) {
      throw new RegistryError(
        "INVALID_OPTION",
        `the credential provider returned a credential without a string username and password for ${repositoryName}`,
        { reference: target.reference },
      );
    }
    const candidates: (RegistryCredential | undefined)[] =
      credentials.length > 0 ? [...credentials] : [undefined];
    for (const credential of credentials) this.#rememberCredential(credential);
    const baseScope = `repository:${target.repository}:pull`;
    const allowRedirect = hosts.redirectRule(target.registry);
    // Every answer is shown to the rate-limit and warning hooks, the authenticated ones too.
    const sendWith = async (authorization: string | undefined) => {
      const sent = await send(
        url,
        { method, headers: { accept }, ...(authorization ? { authorization } : {}), allowRedirect },
        ctx,
      );
      this.#deps.onResponse(sent.response, target.registry);
      return sent;
    };
    for (let i = 0; ; i++) {
      const credential = candidates[i];
      const last = i >= candidates.length - 1;
      let sent: Sent;
      try {
        sent = await this.#round(target, sendWith, baseScope, credential, ctx);
      } catch (error) {
        // A refused credential: the kubelet moves on to the next one.
        if (
          !last &&
          isRegistryError(error) &&
          (error.code === "UNAUTHORIZED" || error.code === "DENIED")
        ) {
          continue;
        }
        throw error;
      }
      const refused = sent.response.status === 401 || sent.response.status === 403;
      if (refused && !last) {
        await cancelBody(sent.response);
        continue;
      }
      return sent;
    }
  }

  /** One authentication round with one credential (or none). */
  async #round(
    target: Target,
    send: (authorization: string | undefined) => Promise<Sent>,
    baseScope: string,
    credential: RegistryCredential | undefined,
    ctx: CallContext,
  ): Promise<Sent> {
    const known = this.#challenges.get(target.registry);
    let authorization = this.#cachedAuthorization(target.registry, known, [baseScope], credential);
    let sent = await send(authorization);
    if (sent.response.status !== 401) return sent;
    const offered = pickChallenge(
      parseWwwAuthenticate(sent.response.headers.get("www-authenticate") ?? ""),
    );
    const challenge = offered ?? known;
    if (challenge) this.#challenges.set(target.registry, challenge);
    if (challenge?.scheme === "bearer") {
      let scopes = mergeScopes(challenge.params.scope, [baseScope]);
      await cancelBody(sent.response);
      // A token we had cached was refused: do not reuse it.
      const stale = authorization !== undefined;
      authorization = `Bearer ${await this.#token(target, challenge, scopes, credential, ctx, stale)}`;
      sent = await send(authorization);
      if (sent.response.status === 401) {
        const again = pickChallenge(
          parseWwwAuthenticate(sent.response.headers.get("www-authenticate") ?? ""),
        );
        const error = again?.params.error;
        if (
          again?.scheme === "bearer" &&
          (error === "insufficient_scope" || error === "invalid_token")
        ) {
          // New scopes go first: some registries read only the first scope parameter.
          scopes = mergeScopes(again.params.scope, scopes);
          await cancelBody(sent.response);
          authorization = `Bearer ${await this.#token(target, again, scopes, credential, ctx, true)}`;
          sent = await send(authorization);
        }
      }
    } else if (challenge?.scheme === "basic" && credential) {
      await cancelBody(sent.response);
      sent = await send(basicAuthorization(credential));
    }
    return sent;
  }

  #cachedAuthorization(
    registry: string,
    challenge: AuthChallenge | undefined,
    scopes: readonly string[],
    credential: RegistryCredential | undefined,
  ): string | undefined {
    if (challenge?.scheme === "basic") {
      return credential ? basicAuthorization(credential) : undefined;
    }
    if (challenge?.scheme === "bearer") {
      const token = this.#tokens.get(tokenKey(registry, scopes, credential));
      return token ? `Bearer ${token}` : undefined;
    }
    return undefined;
  }

  /** Fetches (or reuses) a Bearer token for `scopes`, after checking the realm. */
  async #token(
    target: Target,
    challenge: AuthChallenge,
    scopes: readonly string[],
    credentialIn: RegistryCredential | undefined,
    ctx: CallContext,
    force: boolean,
  ): Promise<string> {
    const { hosts, send, readBody, now } = this.#deps;
    const key = tokenKey(target.registry, scopes, credentialIn);
    const cached = force ? undefined : this.#tokens.get(key);
    if (cached) return cached;
    const realm = challenge.params.realm;
    if (!realm) {
      throw new RegistryError(
        "TOKEN_ERROR",
        `${target.registry} sent a Bearer challenge without a realm`,
        { reference: target.reference },
      );
    }
    const authorized = hosts.authorizeRealm(realm, target.registry, target.reference);
    const credential = authorized.anonymous ? undefined : credentialIn;
    const url = authorized.url;
    if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
    for (const scope of scopes) url.searchParams.append("scope", scope);
    if (credential) url.searchParams.set("account", credential.username);
    const policy = hosts.realmPolicy(target.registry);
    const { response, url: finalUrl } = await send(
      url.href,
      {
        method: "GET",
        headers: { accept: "application/json" },
        ...(credential ? { authorization: basicAuthorization(credential) } : {}),
        // Every hop of a token request is held to the realm policy; credentials never follow.
        allowRedirect: (next) => checkRealm(next.href, policy),
      },
      ctx,
    );
    if (response.status === 401 || response.status === 403) {
      await cancelBody(response);
      throw new RegistryError(
        response.status === 401 ? "UNAUTHORIZED" : "DENIED",
        `${target.registry}: the token endpoint refused ${credential ? "the credentials" : "anonymous access"}`,
        { status: response.status, url: redactUrl(finalUrl), reference: target.reference },
      );
    }
    if (!response.ok) {
      await cancelBody(response);
      throw new RegistryError(
        "TOKEN_ERROR",
        `${target.registry}: the token endpoint answered ${response.status}`,
        {
          status: response.status,
          url: redactUrl(finalUrl),
          reference: target.reference,
          retryable: isRetryableStatus(response.status),
        },
      );
    }
    const body = await readBody(response, this.#deps.tokenBytes, finalUrl, target, ctx);
    const parsed = parseTokenResponse(body, now());
    if (parsed) this.#remember(parsed.token);
    if (!parsed) {
      throw new RegistryError(
        "TOKEN_ERROR",
        `${target.registry}: the token response holds no token`,
        {
          url: redactUrl(finalUrl),
          reference: target.reference,
        },
      );
    }
    if (!HEADER_SAFE_TOKEN.test(parsed.token)) {
      throw new RegistryError(
        "TOKEN_INVALID",
        `${target.registry}: the token endpoint sent a token with characters a header cannot carry (${parsed.token.length} characters, not shown)`,
        { url: redactUrl(finalUrl), reference: target.reference },
      );
    }
    this.#tokens.set(key, parsed.token, parsed.expiresAt);
    this.#tokens.set(
      tokenKey(target.registry, [`repository:${target.repository}:pull`], credentialIn),
      parsed.token,
      parsed.expiresAt,
    );
    return parsed.token;
  }
}
