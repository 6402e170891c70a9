/**
 * The OCI distribution client: ping, manifests (HEAD first, GET when HEAD is
 * unsupported or lacks the digest), digests, and tag listing, with
 * anonymous, Basic and Bearer authentication. See `transport.ts` for
 * retries and redirects, `../http/realm.ts` for the token-realm policy.
 */
import { isRegistryError, RegistryError, type RegistryErrorCode } from "../errors/index.js";
import { hostnameOf, isRestrictedHost } from "../http/address.js";
import { BodyTooLargeError, cancelBody, readBodyLimited } from "../http/body.js";
import { type AuthChallenge, parseWwwAuthenticate, pickChallenge } from "../http/challenge.js";
import { nextLink } from "../http/link.js";
import { checkRealm } from "../http/realm.js";
import { redactUrl } from "../http/redact.js";
import { parseRetryAfter } from "../http/retry-after.js";
import {
  checkRegistryImage,
  imageString,
  isDigest,
  type RegistryImage,
} from "../image/image-name.js";
import {
  DEFAULT_BLOB_BYTES,
  type FetchedBlob,
  type GetBlobOptions,
  verifyBlobDigest,
} from "./blobs.js";
import { basicAuthorization, type RegistryCredential } from "./credentials.js";
import { MANIFEST_ACCEPT, mediaTypeOf } from "./media-types.js";
import {
  type CallOptions,
  DEFAULT_REGISTRY_LIMITS,
  type RegistryClientOptions,
  type RegistryHostOptions,
  type RegistryLimits,
} from "./options.js";
import {
  isDistributionCode,
  mergeScopes,
  parseRateLimit,
  parseTagsPage,
  parseTokenResponse,
  sha256Hex,
  tokenKey,
} from "./responses.js";
import { type CleanTagsOptions, cleanTags } from "./tags.js";
import { TokenCache } from "./token-cache.js";
import {
  type CallContext,
  createTransport,
  failureFrom,
  raceSignal,
  redirectRule,
} from "./transport.js";

/** What a manifest HEAD (or GET) tells about an image. */
export interface ManifestDescriptor {
  /** The manifest digest, e.g. `sha256:…`. */
  readonly digest: string;
  /** The manifest media type (parameters dropped), when the registry said. */
  readonly mediaType: string | undefined;
  /** The manifest size in bytes, when known. */
  readonly size: number | undefined;
}

/** A fetched manifest: its descriptor, raw bytes and parsed JSON. */
export interface Manifest extends ManifestDescriptor {
  readonly bytes: Uint8Array;
  readonly manifest: unknown;
}

/** The answer of `GET /v2/`. */
export interface PingResult {
  /** True when the registry answered 200 without credentials. */
  readonly anonymous: boolean;
  /** The challenges of a 401 answer (empty on 200). */
  readonly challenges: readonly AuthChallenge[];
}

/** Options of {@link RegistryClient.listTags}. */
export interface ListTagsOptions extends CallOptions, CleanTagsOptions {}

/** The operations of the registry client. */
export interface RegistryClient {
  /** Pings `GET /v2/` of a registry (host[:port] as in references). */
  ping(registry: string, options?: CallOptions): Promise<PingResult>;
  /** Returns the descriptor of an image's manifest (tag `latest` when the image has neither tag nor digest). */
  headManifest(image: RegistryImage, options?: CallOptions): Promise<ManifestDescriptor>;
  /** Fetches an image's manifest; its digest is the SHA-256 of the bytes (verified when fetched by digest). */
  getManifest(image: RegistryImage, options?: CallOptions): Promise<Manifest>;
  /** Returns the digest a tag (or digest) resolves to. */
  resolveDigest(image: RegistryImage, options?: CallOptions): Promise<string>;
  /** Returns every tag of a repository as served (all pages, `null`s dropped, server order). */
  listTagsRaw(repository: RegistryImage, options?: CallOptions): Promise<string[]>;
  /** Returns the cleaned, sorted tags of a repository (see `cleanTags`). */
  listTags(repository: RegistryImage, options?: ListTagsOptions): Promise<string[]>;
  /** Fetches a blob of a repository by its digest (`image.digest`), size-capped and digest-verified. */
  getBlob(image: RegistryImage, options?: GetBlobOptions): Promise<FetchedBlob>;
}

const DOCKER_HUB = "docker.io";
const DOCKER_HUB_API = "registry-1.docker.io";

interface Target {
  readonly registry: string;
  readonly repository: string | undefined;
  readonly reference: string;
}

class Client implements RegistryClient {
  readonly #options: RegistryClientOptions;
  readonly #limits: RegistryLimits;
  readonly #now: () => number;
  readonly #send: ReturnType<typeof createTransport>;
  readonly #tokens: TokenCache;
  readonly #challenges = new Map<string, AuthChallenge>();
  readonly #warnings = new Set<string>();

  constructor(options: RegistryClientOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_REGISTRY_LIMITS, ...options.limits };
    this.#now = options.now ?? Date.now;
    this.#tokens = new TokenCache(this.#now);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.#send = createTransport({
      fetch: (input, init) => fetchImpl(input, init),
      retries: options.retries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 200,
      maxRedirects: this.#limits.maxRedirects,
      now: this.#now,
      userAgent: options.userAgent ?? "kubeimg-registry",
    });
  }

  // --- the public operations -------------------------------------------

  async ping(registry: string, options: CallOptions = {}): Promise<PingResult> {
    return this.#call(
      { registry, repository: undefined, reference: registry },
      options,
      async (ctx) => {
        const { response, url } = await this.#send(
          this.#url(registry, "/v2/"),
          { method: "GET", allowRedirect: this.#redirectRule(registry) },
          ctx,
        );
        await cancelBody(response);
        if (response.status === 200) return { anonymous: true, challenges: [] };
        if (response.status === 401) {
          const challenges = parseWwwAuthenticate(response.headers.get("www-authenticate") ?? "");
          // Remembered for resource requests whose 401 comes without a challenge (as GCR does).
          const chosen = pickChallenge(challenges);
          if (chosen) this.#challenges.set(registry, chosen);
          return { anonymous: false, challenges };
        }
        throw new RegistryError(
          "NOT_A_REGISTRY",
          `${registry} did not answer /v2/ like a registry`,
          {
            status: response.status,
            url: redactUrl(url),
            reference: registry,
            retryable: response.status >= 500,
          },
        );
      },
    );
  }

  async headManifest(image: RegistryImage, options: CallOptions = {}): Promise<ManifestDescriptor> {
    const target = this.#target(image);
    return this.#call(target, options, async (ctx) => {
      if (this.#host(image.domain).disableHead) return this.#getManifest(image, ctx);
      const { response, url } = await this.#resource(
        target,
        "HEAD",
        this.#manifestPath(image),
        ctx,
        {
          accept: MANIFEST_ACCEPT,
        },
      );
      if (response.ok) {
        await cancelBody(response);
        const digest = response.headers.get("docker-content-digest")?.trim();
        if (!digest || !isDigest(digest)) return this.#getManifest(image, ctx);
        if (image.digest && digest !== image.digest) {
          throw new RegistryError(
            "DIGEST_MISMATCH",
            `${target.reference}: registry answered digest ${digest}`,
            { url: redactUrl(url), reference: target.reference, status: response.status },
          );
        }
        const size = Number(response.headers.get("content-length") ?? Number.NaN);
        return {
          digest,
          mediaType: mediaTypeOf(response.headers.get("content-type")),
          size: Number.isFinite(size) ? size : undefined,
        };
      }
      // HEAD unsupported: one GET instead (never on 404: on Docker Hub a GET counts as a pull).
      if (response.status === 400 || response.status === 405 || response.status === 501) {
        await cancelBody(response);
        return this.#getManifest(image, ctx);
      }
      throw await this.#errorFrom(response, url, target);
    });
  }

  async getManifest(image: RegistryImage, options: CallOptions = {}): Promise<Manifest> {
    return this.#call(this.#target(image), options, (ctx) => this.#getManifest(image, ctx));
  }

  async resolveDigest(image: RegistryImage, options: CallOptions = {}): Promise<string> {
    return (await this.headManifest(image, options)).digest;
  }

  async getBlob(image: RegistryImage, options: GetBlobOptions = {}): Promise<FetchedBlob> {
    const digest = image.digest;
    if (digest === undefined || !isDigest(digest)) {
      throw new RegistryError(
        "INVALID_REFERENCE",
        `${imageString(image)}: a blob is fetched by digest`,
        {
          reference: imageString(image),
        },
      );
    }
    const target = this.#target(image);
    return this.#call(target, options, async (ctx) => {
      const path = `/v2/${image.path}/blobs/${digest}`;
      const { response, url } = await this.#resource(target, "GET", path, ctx, { accept: "*/*" });
      if (!response.ok) throw await this.#errorFrom(response, url, target);
      const bytes = await this.#readBody(
        response,
        options.maxBytes ?? DEFAULT_BLOB_BYTES,
        url,
        target,
        ctx,
      );
      await verifyBlobDigest(bytes, digest, { reference: target.reference, url });
      return { digest, size: bytes.byteLength, bytes };
    });
  }

  async listTagsRaw(repository: RegistryImage, options: CallOptions = {}): Promise<string[]> {
    const target = this.#target({ domain: repository.domain, path: repository.path });
    return this.#call(target, options, async (ctx) => {
      const tags: string[] = [];
      const seen = new Set<string>();
      let url: string | undefined = this.#url(
        repository.domain,
        `/v2/${repository.path}/tags/list`,
      );
      const origin = new URL(url).origin;
      for (let page = 0; url !== undefined; page++) {
        if (page >= this.#limits.maxPages) {
          throw new RegistryError(
            "TOO_MANY_PAGES",
            `${target.reference}: more than ${this.#limits.maxPages} tag pages`,
            {
              reference: target.reference,
            },
          );
        }
        if (seen.has(url)) {
          throw new RegistryError("LINK_REJECTED", `${target.reference}: tag pagination loops`, {
            url: redactUrl(url),
            reference: target.reference,
          });
        }
        seen.add(url);
        const sent = await this.#resource(target, "GET", url, ctx, { accept: "application/json" });
        const { response } = sent;
        if (!response.ok) throw await this.#errorFrom(response, sent.url, target);
        const body = await this.#readBody(
          response,
          this.#limits.tagsPageBytes,
          sent.url,
          target,
          ctx,
        );
        for (const tag of parseTagsPage(body, sent.url, target.reference)) {
          tags.push(tag);
          if (tags.length > this.#limits.maxTags) {
            throw new RegistryError(
              "RESPONSE_TOO_LARGE",
              `${target.reference}: more than ${this.#limits.maxTags} tags`,
              {
                reference: target.reference,
              },
            );
          }
        }
        const next = nextLink(response.headers.get("link"), sent.url);
        if (next !== undefined && new URL(next).origin !== origin) {
          throw new RegistryError(
            "LINK_REJECTED",
            `${target.reference}: pagination link leaves the registry (${redactUrl(next)})`,
            { url: redactUrl(sent.url), reference: target.reference },
          );
        }
        url = next;
      }
      return tags;
    });
  }

  async listTags(repository: RegistryImage, options: ListTagsOptions = {}): Promise<string[]> {
    return cleanTags(await this.listTagsRaw(repository, options), options);
  }

  // --- calls, targets, hosts ------------------------------------------------

  #target(image: RegistryImage): Target {
    checkRegistryImage(image);
    return { registry: image.domain, repository: image.path, reference: imageString(image) };
  }

  #host(registry: string): RegistryHostOptions {
    return this.#options.registries?.[registry] ?? {};
  }

  #allowPrivate(registry: string): boolean {
    return (
      this.#options.allowPrivateAddresses === true ||
      this.#host(registry).allowPrivateAddress === true
    );
  }

  #redirectRule(registry: string) {
    return redirectRule(hostnameOf(registry), this.#options.allowPrivateAddresses === true);
  }

  #scheme(registry: string): "http" | "https" {
    return this.#host(registry).insecure ? "http" : "https";
  }

  #url(registry: string, path: string): string {
    const host = registry === DOCKER_HUB ? DOCKER_HUB_API : registry;
    return `${this.#scheme(registry)}://${host}${path}`;
  }

  #manifestPath(image: RegistryImage): string {
    return `/v2/${image.path}/manifests/${image.digest ?? image.tag ?? "latest"}`;
  }

  /** Runs one public call under its budget; the result arrives by the deadline or not at all. */
  async #call<T>(
    target: Target,
    options: CallOptions,
    work: (ctx: CallContext) => Promise<T>,
  ): Promise<T> {
    const allowed = this.#options.allowedRegistries;
    if (allowed && !allowed.includes(target.registry)) {
      throw new RegistryError(
        "BLOCKED_HOST",
        `registry ${target.registry} is not in the allowed list`,
        {
          reference: target.reference,
        },
      );
    }
    if (isRestrictedHost(hostnameOf(target.registry)) && !this.#allowPrivate(target.registry)) {
      throw new RegistryError(
        "BLOCKED_HOST",
        `registry ${target.registry} is a private or local address; allow it in the client options`,
        { reference: target.reference },
      );
    }
    const budget = Math.min(
      options.timeoutMs ?? Number.POSITIVE_INFINITY,
      this.#options.timeoutMs ?? 10_000,
    );
    const timeout = AbortSignal.timeout(Math.max(0, budget));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const ctx: CallContext = {
      signal,
      deadline: this.#now() + budget,
      reference: target.reference,
      credentials: options.credentials,
    };
    return raceSignal(work(ctx), signal, () =>
      failureFrom(signal.reason, this.#url(target.registry, "/v2/"), ctx),
    );
  }

  // --- manifests -------------------------------------------------------

  async #getManifest(image: RegistryImage, ctx: CallContext): Promise<Manifest> {
    const target = this.#target(image);
    const { response, url } = await this.#resource(target, "GET", this.#manifestPath(image), ctx, {
      accept: MANIFEST_ACCEPT,
    });
    if (!response.ok) throw await this.#errorFrom(response, url, target);
    const bytes = await this.#readBody(response, this.#limits.manifestBytes, url, target, ctx);
    const digest = `sha256:${await sha256Hex(bytes)}`;
    if (image.digest?.startsWith("sha256:") && image.digest !== digest) {
      throw new RegistryError(
        "DIGEST_MISMATCH",
        `${target.reference}: manifest content hashes to ${digest}`,
        {
          url: redactUrl(url),
          reference: target.reference,
          status: response.status,
        },
      );
    }
    let manifest: unknown;
    try {
      manifest = JSON.parse(new TextDecoder().decode(bytes));
    } catch (cause) {
      throw new RegistryError("INVALID_RESPONSE", `${target.reference}: manifest is not JSON`, {
        url: redactUrl(url),
        reference: target.reference,
        cause,
      });
    }
    const headerType = mediaTypeOf(response.headers.get("content-type"));
    const bodyType =
      manifest !== null &&
      typeof manifest === "object" &&
      typeof (manifest as { mediaType?: unknown }).mediaType === "string"
        ? ((manifest as { mediaType: string }).mediaType as string)
        : undefined;
    if (bodyType && headerType && headerType !== "application/json" && bodyType !== headerType) {
      throw new RegistryError(
        "INVALID_RESPONSE",
        `${target.reference}: Content-Type ${headerType} does not match the manifest mediaType ${bodyType}`,
        { url: redactUrl(url), reference: target.reference },
      );
    }
    return { digest, mediaType: bodyType ?? headerType, size: bytes.byteLength, bytes, manifest };
  }

  async #readBody(
    response: Response,
    limit: number,
    url: string,
    target: Target,
    ctx: CallContext,
  ): Promise<Uint8Array> {
    try {
      return await readBodyLimited(response, limit);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new RegistryError(
          "RESPONSE_TOO_LARGE",
          `${target.reference}: response larger than ${limit} bytes`,
          {
            url: redactUrl(url),
            reference: target.reference,
            status: response.status,
          },
        );
      }
      // A connection reset or an abort in the middle of the body.
      throw failureFrom(error, url, ctx);
    }
  }

  // --- authentication ----------------------------------------------------

  /**
   * Sends a request for a repository resource, authenticating as the
   * registry asks: anonymous first (or with what we learnt before), then
   * Basic or a Bearer token on 401, one re-auth on `insufficient_scope` or
   * `invalid_token`, and the next credential when one is refused.
   */
  async #resource(
    target: Target,
    method: "GET" | "HEAD",
    pathOrUrl: string,
    ctx: CallContext,
    { accept }: { accept: string },
  ): Promise<{ response: Response; url: string }> {
    const url = pathOrUrl.startsWith("/") ? this.#url(target.registry, pathOrUrl) : pathOrUrl;
    const repositoryName = `${target.registry}/${target.repository ?? ""}`;
    const credentials =
      (await (ctx.credentials ?? this.#options.credentials)?.(repositoryName)) ?? [];
    const candidates: (RegistryCredential | undefined)[] =
      credentials.length > 0 ? [...credentials] : [undefined];
    const baseScope = `repository:${target.repository}:pull`;
    const send = (authorization: string | undefined) =>
      this.#send(
        url,
        {
          method,
          headers: { accept },
          ...(authorization ? { authorization } : {}),
          allowRedirect: this.#redirectRule(target.registry),
        },
        ctx,
      );
    for (let i = 0; i < candidates.length; i++) {
      const credential = candidates[i];
      const last = i === candidates.length - 1;
      let sent: { response: Response; url: string };
      try {
        sent = await this.#authenticate(target, send, baseScope, credential, ctx);
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
    throw new Error("unreachable: the candidate loop always returns");
  }

  /** One authentication round with one credential (or none). */
  async #authenticate(
    target: Target,
    send: (authorization: string | undefined) => Promise<{ response: Response; url: string }>,
    baseScope: string,
    credential: RegistryCredential | undefined,
    ctx: CallContext,
  ): Promise<{ response: Response; url: string }> {
    const known = this.#challenges.get(target.registry);
    let authorization = this.#cachedAuthorization(target.registry, known, [baseScope], credential);
    let sent = await send(authorization);
    this.#noteHeaders(sent.response, target.registry);
    if (sent.response.status === 401) {
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
    }
    return sent;
  }

  #cachedAuthorization(
    registry: string,
    challenge: AuthChallenge | undefined,
    scopes: readonly string[],
    credential: RegistryCredential | undefined,
  ): string | undefined {
    if (challenge?.scheme === "basic")
      return credential ? basicAuthorization(credential) : undefined;
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
    const key = tokenKey(target.registry, scopes, credentialIn);
    const cached = force ? undefined : this.#tokens.get(key);
    if (cached) return cached;
    const realm = challenge.params.realm;
    if (!realm) {
      throw new RegistryError(
        "TOKEN_ERROR",
        `${target.registry} sent a Bearer challenge without a realm`,
        {
          reference: target.reference,
        },
      );
    }
    const policy = {
      registry: target.registry,
      registryScheme: this.#scheme(target.registry),
      allowlist: [
        ...(this.#options.realmAllowlist ?? []),
        ...(this.#host(target.registry).realmAllowlist ?? []),
      ],
      allowPrivate: this.#allowPrivate(target.registry),
    } as const;
    let credential = credentialIn;
    const refusal = checkRealm(realm, policy);
    if (refusal) {
      const anonymousOk =
        this.#options.foreignRealm === "anonymous" &&
        realm.startsWith("https://") &&
        !isRestrictedHost(new URL(realm).hostname.replace(/^\[|\]$/g, ""));
      if (!anonymousOk) {
        throw new RegistryError(
          "REALM_REJECTED",
          `${target.registry}: token realm refused: ${refusal}`,
          {
            url: redactUrl(realm),
            reference: target.reference,
          },
        );
      }
      credential = undefined;
    }
    const url = new URL(realm);
    if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
    for (const scope of scopes) url.searchParams.append("scope", scope);
    if (credential) url.searchParams.set("account", credential.username);
    const { response, url: finalUrl } = await this.#send(
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
          retryable: response.status === 429 || response.status >= 500,
        },
      );
    }
    const body = await this.#readBody(response, this.#limits.tokenBytes, finalUrl, target, ctx);
    const parsed = parseTokenResponse(body, this.#now());
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
    this.#tokens.set(key, parsed.token, parsed.expiresAt);
    this.#tokens.set(
      tokenKey(target.registry, [`repository:${target.repository}:pull`], credentialIn),
      parsed.token,
      parsed.expiresAt,
    );
    return parsed.token;
  }

  // --- errors and warnings ----------------------------------------------

  async #errorFrom(response: Response, url: string, target: Target): Promise<RegistryError> {
    let registryCode: string | undefined;
    let registryMessage: string | undefined;
    try {
      const bytes = await readBodyLimited(response, this.#limits.errorBytes);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as {
        errors?: { code?: unknown; message?: unknown }[];
      };
      const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
      if (typeof first?.code === "string") registryCode = first.code.toUpperCase();
      if (typeof first?.message === "string") registryMessage = first.message.slice(0, 500);
    } catch {
      await cancelBody(response);
    }
    const status = response.status;
    const code: RegistryErrorCode =
      registryCode && isDistributionCode(registryCode)
        ? registryCode
        : status === 401
          ? "UNAUTHORIZED"
          : status === 403
            ? "DENIED"
            : status === 404
              ? "NOT_FOUND"
              : status === 429
                ? "TOOMANYREQUESTS"
                : "HTTP_ERROR";
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.#now());
    return new RegistryError(
      code,
      `${target.reference}: registry answered ${status}${registryCode ? ` ${registryCode}` : ""}${registryMessage ? ` (${registryMessage})` : ""}`,
      {
        status,
        url: redactUrl(url),
        reference: target.reference,
        ...(registryMessage ? { registryMessage } : {}),
        retryable: status === 429 || status === 408 || (status >= 500 && status !== 501),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      },
    );
  }

  #noteHeaders(response: Response, registry: string): void {
    if (this.#options.onRateLimit) {
      const rateLimit = parseRateLimit(response.headers);
      if (rateLimit) this.#options.onRateLimit(registry, rateLimit);
    }
    const header = response.headers.get("warning");
    if (!header || !this.#options.onWarning) return;
    for (const match of header.matchAll(/299\s+\S+\s+"((?:[^"\\]|\\.)*)"/g)) {
      const text = match[1] ?? "";
      if (this.#warnings.has(text) || this.#warnings.size >= 100) continue;
      this.#warnings.add(text);
      this.#options.onWarning(text, registry);
    }
  }
}

/**
 * Returns a registry client. Nothing happens until a method is called; all
 * I/O goes through the injected `fetch`.
 *
 * @example
 * ```ts
 * const client = createRegistryClient({ credentials: keyringCredentials(keyring) });
 * const { digest } = await client.headManifest({ domain: "docker.io", path: "library/nginx", tag: "1.25" });
 * ```
 */
export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  return new Client(options);
}
