/**
 * The `TagLister` and `DigestResolver` ports of `@kubeimg/core/ports`, over the
 * registry client, with the node keyring's credentials.
 */
import type { DockerKeyring } from "@kubeimg/core/keyring";
import type { DigestResolver, PortCallOptions, TagLister } from "@kubeimg/core/ports";
import { keyringCredentials } from "../client/credentials.js";
import type { RegistryClient } from "../client/index.js";
import type { CleanTagsOptions } from "../client/tags.js";
import { checkArgument } from "../errors/index.js";
import type { RegistryImage } from "../image/index.js";
import { checkAdapterOptions } from "./credentials.js";

/** Options of {@link createTagLister} and {@link createDigestResolver}. */
export interface TagAdapterOptions extends Pick<CleanTagsOptions, "exclude"> {
  readonly client: RegistryClient;
  /** Credentials (e.g. the node keyring, or one built from the ImageRepository's secret). */
  readonly keyring?: DockerKeyring;
  /** Budget of one call in ms. Default: the client's. */
  readonly timeoutMs?: number;
}

function callOptions(options: TagAdapterOptions, call: PortCallOptions | undefined) {
  checkArgument(
    call === undefined || (typeof call === "object" && call !== null),
    "adapter call",
    call,
    "the call options must be an object",
  );
  return {
    ...(call?.signal ? { signal: call.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.keyring ? { credentials: keyringCredentials(options.keyring) } : {}),
  };
}

/**
 * Returns a tag lister: all pages, filtered as a Flux ImageRepository does
 * (no `null`s, digest-shaped or invalid tags, `*.sig` by default), in the
 * order the registry listed them (tag policies sort by their own rules).
 *
 * @example
 * ```ts no-run
 * import { createTagLister } from "@kubeimg/registry/adapters";
 * import { createRegistryClient } from "@kubeimg/registry/client";
 *
 * // Needs the registry.
 * const lister = createTagLister({ client: createRegistryClient() });
 * await lister.listTags({ domain: "ghcr.io", path: "org/app" }, {}); // → every tag but the *.sig ones
 * ```
 */
export function createTagLister(options: TagAdapterOptions): TagLister & {
  /** Also takes a bare `{ domain, path }`, not only a parsed reference. */
  listTags(repository: RegistryImage, options: PortCallOptions): Promise<string[]>;
} {
  checkAdapterOptions("createTagLister", options);
  return {
    listTags: (repository: RegistryImage, call: PortCallOptions) =>
      options.client.listTags(repository, {
        ...callOptions(options, call),
        ...(options.exclude ? { exclude: options.exclude } : {}),
        sort: false,
      }),
  };
}

/**
 * Returns a digest resolver (manifest HEAD with all four Accept types, GET
 * only when HEAD is unsupported).
 *
 * @example
 * ```ts
 * import { createDigestResolver } from "@kubeimg/registry/adapters";
 * import { type RegistryClient } from "@kubeimg/registry/client";
 *
 * declare const client: RegistryClient; // createRegistryClient(…)
 * const resolver = createDigestResolver({ client });
 * await resolver.resolveDigest({ domain: "docker.io", path: "library/nginx", tag: "1.25" }, {});
 * ```
 */
export function createDigestResolver(options: TagAdapterOptions): DigestResolver & {
  /** Also takes a bare `{ domain, path, tag }`, not only a parsed reference. */
  resolveDigest(image: RegistryImage, options: PortCallOptions): Promise<string>;
} {
  checkAdapterOptions("createDigestResolver", options);
  return {
    resolveDigest: (image: RegistryImage, call: PortCallOptions) =>
      options.client.resolveDigest(image, callOptions(options, call)),
  };
}
