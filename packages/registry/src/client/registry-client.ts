/**
 * The OCI distribution client: ping, manifests (HEAD first, GET when HEAD is
 * unsupported or lacks the digest), digests, and tag listing. The pieces:
 * `host-policy.ts` decides which hosts may be contacted, `authenticator.ts`
 * answers challenges, `transport.ts` retries and follows redirects,
 * `error-mapping.ts` turns failures into `RegistryError`s, and
 * `check-options.ts` refuses bad options up front.
 *
 * Every public operation throws only `RegistryError`s, and its promise
 * settles by the call's deadline or abort, whatever the registry does.
 */
import { RegistryError } from "../errors/index.js";
import { BodyTooLargeError, cancelBody, readBodyLimited } from "../http/body.js";
import { type AuthChallenge, parseWwwAuthenticate } from "../http/challenge.js";
import { nextLink } from "../http/link.js";
import { redactUrl } from "../http/redact.js";
import {
  checkRegistryImage,
  imageString,
  isDigest,
  type RegistryImage,
} from "../image/image-name.js";
import { Authenticator, type Target } from "./authenticator.js";
import { blobByteLimit, type FetchedBlob, type GetBlobOptions, verifyBlobDigest } from "./blobs.js";
import { checkCallOptions, checkClientOptions } from "./check-options.js";
import { errorFromResponse, failureFrom } from "./error-mapping.js";
import { HostPolicy } from "./host-policy.js";
import {
  algorithmOf,
  type Manifest,
  type ManifestDescriptor,
  manifestFromBytes,
} from "./manifests.js";
import { MANIFEST_ACCEPT, mediaTypeOf } from "./media-types.js";
import type { RegistryCallOptions, RegistryClientOptions, RegistryLimits } from "./options.js";
import { parseRateLimit, parseTagsPage } from "./responses.js";
import { isRetryableStatus } from "./status.js";
import { type CleanTagsOptions, cleanTags } from "./tags.js";
import { type CallContext, createTransport, raceSignal } from "./transport.js";

/** The answer of `GET /v2/`.
 *
 * @inline
 */
export interface PingResult {
  /** True when the registry answered 200 without credentials. */
  readonly anonymous: boolean;
  /** The challenges of a 401 answer (empty on 200). */
  readonly challenges: readonly AuthChallenge[];
}

/** Options of {@link RegistryClient.listTags}. */
export interface ListTagsOptions extends RegistryCallOptions, CleanTagsOptions {}

/** The operations of the registry client. */
export interface RegistryClient {
  /** Pings `GET /v2/` of a registry (host[:port] as in references). */
  ping(registry: string, options?: RegistryCallOptions): Promise<PingResult>;
  /** Returns the descriptor of an image's manifest (tag `latest` when the image has neither tag nor digest). */
  headManifest(image: RegistryImage, options?: RegistryCallOptions): Promise<ManifestDescriptor>;
  /**
   * Fetches an image's manifest; its digest is computed from the bytes
   * (SHA-256, or the algorithm of the image's digest, which it must equal).
   */
  getManifest(image: RegistryImage, options?: RegistryCallOptions): Promise<Manifest>;
  /** Returns the digest a tag (or digest) resolves to. */
  resolveDigest(image: RegistryImage, options?: RegistryCallOptions): Promise<string>;
  /** Returns every tag of a repository as served (all pages, `null`s dropped, server order). */
  listTagsRaw(repository: RegistryImage, options?: RegistryCallOptions): Promise<string[]>;
  /** Returns the cleaned, sorted tags of a repository (see `cleanTags`). */
  listTags(repository: RegistryImage, options?: ListTagsOptions): Promise<string[]>;
  /** Fetches a blob of a repository by its digest (`image.digest`), size-capped and digest-verified. */
  getBlob(image: RegistryImage, options?: GetBlobOptions): Promise<FetchedBlob>;
}

/** The budget of a call when the client sets none. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** Warnings remembered (each is reported once); a hostile registry cannot grow the set further. */
const MAX_WARNINGS = 100;

class Client implements RegistryClient {
  readonly #options: RegistryClientOptions;
  readonly #limits: RegistryLimits;
  readonly #now: () => number;
  readonly #hosts: HostPolicy;
  readonly #send: ReturnType<typeof createTransport>;
  readonly #auth: Authenticator;
  readonly #warnings = new Set<string>();

  constructor(options: RegistryClientOptions, limits: RegistryLimits) {
    this.#options = options;
    this.#limits = limits;
    this.#now = options.now ?? Date.now;
    this.#hosts = new HostPolicy(options);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.#send = createTransport({
      fetch: (input, init) => fetchImpl(input, init),
      retries: options.retries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 200,
      maxRedirects: limits.maxRedirects,
      now: this.#now,
      userAgent: options.userAgent ?? "kubeimg-registry",
      checkHost: (url, ctx) =>
        this.#hosts.checkResolved(url, ctx.registry, ctx.reference, ctx.signal),
    });
    this.#auth = new Authenticator({
      options,
      hosts: this.#hosts,
      send: this.#send,
      readBody: (response, limit, url, target, ctx) =>
        this.#readBody(response, limit, url, target, ctx),
      tokenBytes: limits.tokenBytes,
      now: this.#now,
      onResponse: (response, registry) => this.#noteHeaders(response, registry),
    });
  }

  // --- the public operations -------------------------------------------

  async ping(registry: string, options?: RegistryCallOptions): Promise<PingResult> {
    checkRegistryImage({ domain: registry, path: "ping" });
    const target = { registry, repository: undefined, reference: registry };
    return this.#call(target, options, async (ctx) => {
      const { response, url } = await this.#send(
        this.#hosts.urlOf(registry, "/v2/"),
        { method: "GET", allowRedirect: this.#hosts.redirectRule(registry) },
        ctx,
      );
      await cancelBody(response);
      if (response.status === 200) return { anonymous: true, challenges: [] };
      if (response.status === 401) {
        const challenges = parseWwwAuthenticate(response.headers.get("www-authenticate") ?? "");
        // Remembered for resource requests whose 401 comes without a challenge (as GCR does).
        this.#auth.rememberChallenges(registry, challenges);
        return { anonymous: false, challenges };
      }
      throw new RegistryError("NOT_A_REGISTRY", `${registry} did not answer /v2/ like a registry`, {
        status: response.status,
        url: redactUrl(url),
        reference: registry,
        retryable: isRetryableStatus(response.status),
      });
    });
  }

  async headManifest(
    image: RegistryImage,
    options?: RegistryCallOptions,
  ): Promise<ManifestDescriptor> {
    const target = this.#target(image);
    return this.#call(target, options, async (ctx) => {
      if (this.#hosts.disableHead(image.domain)) return this.#getManifest(image, target, ctx);
      const sent = await this.#resource(
        target,
        "HEAD",
        this.#manifestPath(image),
        ctx,
        MANIFEST_ACCEPT,
      );
      const { response, url } = sent;
      if (response.ok) {
        await cancelBody(response);
        const digest = response.headers.get("docker-content-digest")?.trim();
        if (!digest || !isDigest(digest)) return this.#getManifest(image, target, ctx);
        if (image.digest) {
          // A digest in another algorithm than the image's proves nothing: compute it from the bytes.
          if (algorithmOf(digest) !== algorithmOf(image.digest)) {
            return this.#getManifest(image, target, ctx);
          }
          if (digest !== image.digest) {
            throw new RegistryError(
              "DIGEST_MISMATCH",
              `${target.reference}: registry answered digest ${digest}`,
              { url: redactUrl(url), reference: target.reference, status: response.status },
            );
          }
        }
        const size = Number(response.headers.get("content-length") ?? Number.NaN);
        return {
          digest,
          mediaType: mediaTypeOf(response.headers.get("content-type")),
          size: Number.isSafeInteger(size) && size >= 0 ? size : undefined,
        };
      }
      // HEAD unsupported: one GET instead (never on 404: on Docker Hub a GET counts as a pull).
      if (response.status === 400 || response.status === 405 || response.status === 501) {
        await cancelBody(response);
        return this.#getManifest(image, target, ctx);
      }
      throw await this.#errorFrom(response, url, target);
    });
  }

  async getManifest(image: RegistryImage, options?: RegistryCallOptions): Promise<Manifest> {
    const target = this.#target(image);
    return this.#call(target, options, (ctx) => this.#getManifest(image, target, ctx));
  }

  async resolveDigest(image: RegistryImage, options?: RegistryCallOptions): Promise<string> {
    return (await this.headManifest(image, options)).digest;
  }

  async getBlob(image: RegistryImage, options?: GetBlobOptions): Promise<FetchedBlob> {
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
    const limit = blobByteLimit(options);
    return this.#call(target, options, async (ctx) => {
      const path = `/v2/${image.path}/blobs/${digest}`;
      const { response, url } = await this.#resource(target, "GET", path, ctx, "*/*");
      if (!response.ok) throw await this.#errorFrom(response, url, target);
      const bytes = await this.#readBody(response, limit, url, target, ctx);
      await verifyBlobDigest(bytes, digest, { reference: target.reference, url });
      return { digest, size: bytes.byteLength, bytes };
    });
  }

  async listTagsRaw(repository: RegistryImage, options?: RegistryCallOptions): Promise<string[]> {
    const target = this.#target({ domain: repository?.domain, path: repository?.path });
    return this.#call(target, options, async (ctx) => {
      const tags: string[] = [];
      const seen = new Set<string>();
      const first = this.#hosts.urlOf(repository.domain, `/v2/${repository.path}/tags/list`);
      const origin = new URL(first).origin;
      let url: string | undefined = first;
      for (let page = 0; url !== undefined; page++) {
        if (page >= this.#limits.maxPages) {
          throw new RegistryError(
            "TOO_MANY_PAGES",
            `${target.reference}: more than ${this.#limits.maxPages} tag pages`,
            { reference: target.reference },
          );
        }
        if (seen.has(url)) {
          throw new RegistryError("LINK_REJECTED", `${target.reference}: tag pagination loops`, {
            url: redactUrl(url),
            reference: target.reference,
          });
        }
        seen.add(url);
        const sent = await this.#resource(target, "GET", url, ctx, "application/json");
        const { response } = sent;
        if (!response.ok) throw await this.#errorFrom(response, sent.url, target);
        const limit = this.#limits.tagsPageBytes;
        const body = await this.#readBody(response, limit, sent.url, target, ctx);
        for (const tag of parseTagsPage(body, sent.url, target.reference)) {
          tags.push(tag);
          if (tags.length > this.#limits.maxTags) {
            throw new RegistryError(
              "RESPONSE_TOO_LARGE",
              `${target.reference}: more than ${this.#limits.maxTags} tags`,
              { reference: target.reference },
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

  async listTags(repository: RegistryImage, options?: ListTagsOptions): Promise<string[]> {
    return cleanTags(await this.listTagsRaw(repository, options), options ?? {});
  }

  // --- calls and targets -------------------------------------------------

  #target(image: RegistryImage): Target {
    checkRegistryImage(image);
    return { registry: image.domain, repository: image.path, reference: imageString(image) };
  }

  #manifestPath(image: RegistryImage): string {
    return `/v2/${image.path}/manifests/${image.digest ?? image.tag ?? "latest"}`;
  }

  #resource(
    target: Target,
    method: "GET" | "HEAD",
    pathOrUrl: string,
    ctx: CallContext,
    accept: string,
  ) {
    const url = pathOrUrl.startsWith("/")
      ? this.#hosts.urlOf(target.registry, pathOrUrl)
      : pathOrUrl;
    return this.#auth.request(target, method, url, ctx, accept);
  }

  /**
   * Runs one public call under its budget: the result arrives by the
   * deadline or not at all, and the work's own outcome is always observed
   * (an aborted call never leaves an unhandled rejection behind).
   */
  async #call<T>(
    target: Target,
    callOptions: RegistryCallOptions | undefined,
    work: (ctx: CallContext) => Promise<T>,
  ): Promise<T> {
    const options = checkCallOptions(callOptions);
    this.#hosts.checkRegistry(target.registry, target.reference);
    const budget = Math.min(
      options.timeoutMs ?? Number.POSITIVE_INFINITY,
      this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const signals = [
      ...(options.signal ? [options.signal] : []),
      ...(budget === Number.POSITIVE_INFINITY ? [] : [AbortSignal.timeout(Math.ceil(budget))]),
    ];
    const signal = signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
    const ctx: CallContext = {
      signal,
      deadline: this.#now() + budget,
      registry: target.registry,
      reference: target.reference,
      credentials: options.credentials,
    };
    const onAbort = () =>
      failureFrom(signal.reason, this.#hosts.urlOf(target.registry, "/v2/"), ctx);
    if (signal.aborted) throw onAbort();
    return raceSignal(work(ctx), signal, onAbort);
  }

  // --- manifests -------------------------------------------------------

  async #getManifest(image: RegistryImage, target: Target, ctx: CallContext): Promise<Manifest> {
    const { response, url } = await this.#resource(
      target,
      "GET",
      this.#manifestPath(image),
      ctx,
      MANIFEST_ACCEPT,
    );
    if (!response.ok) throw await this.#errorFrom(response, url, target);
    const bytes = await this.#readBody(response, this.#limits.manifestBytes, url, target, ctx);
    return manifestFromBytes(bytes, image, response, url, target.reference);
  }

  // --- bodies, errors and warnings ----------------------------------------

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
          { url: redactUrl(url), reference: target.reference, status: response.status },
        );
      }
      // A connection reset or an abort in the middle of the body.
      throw failureFrom(error, url, ctx);
    }
  }

  #errorFrom(response: Response, url: string, target: Target): Promise<RegistryError> {
    return errorFromResponse(response, url, target.reference, {
      errorBytes: this.#limits.errorBytes,
      now: this.#now(),
      redact: (text) => this.#auth.redact(text),
    });
  }

  #noteHeaders(response: Response, registry: string): void {
    if (this.#options.onRateLimit) {
      const rateLimit = parseRateLimit(response.headers);
      if (rateLimit) this.#options.onRateLimit(registry, rateLimit);
    }
    const header = response.headers.get("warning");
    if (!header || !this.#options.onWarning) return;
    for (const match of header.matchAll(/299\s+\S+\s+"((?:[^"\\]|\\.)*)"/g)) {
      const text = this.#auth.redact(match[1] ?? "");
      if (this.#warnings.has(text) || this.#warnings.size >= MAX_WARNINGS) continue;
      this.#warnings.add(text);
      this.#options.onWarning(text, registry);
    }
  }
}

/**
 * Returns a registry client. Nothing happens until a method is called; all
 * I/O goes through the injected `fetch`. Throws a `RegistryError` with code
 * `INVALID_OPTION` for an option it cannot honour.
 *
 * @example
 * ```ts no-run
 * import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
 * import { createRegistryClient, keyringCredentials } from "@kubeimg/registry/client";
 *
 * // Needs the registry: the config.json a node (or a CI job) would have.
 * const keyring = createDockerKeyring([{ config: parseDockerConfigJson({ auths: { "docker.io": { auth: "dXNlcjpwYXNz" } } }) }]);
 * const client = createRegistryClient({ credentials: keyringCredentials(keyring) });
 * const { digest } = await client.headManifest({ domain: "docker.io", path: "library/nginx", tag: "1.25" });
 * digest; // → "sha256:…", the digest of the tag's manifest (an index for a multi-platform image)
 * ```
 */
export function createRegistryClient(options?: RegistryClientOptions): RegistryClient {
  const checked = checkClientOptions(options);
  return new Client(checked.options, checked.limits);
}
