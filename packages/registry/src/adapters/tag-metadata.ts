/**
 * The `TagMetadataSource` port of `@kubeimg/core/ports` over the registry
 * client: what the newest-build, digest and platform strategies of Argo CD
 * Image Updater and Kargo need to know about each tag.
 *
 * One tag costs a manifest HEAD (its digest), and — the first time that
 * digest is seen — the manifest, for an index the manifest of the chosen
 * platform, and the image config blob, whose `created` is the build time.
 * Results are cached by the top manifest's digest, so tags that share an
 * image (`1.2`, `1.2.3`, `latest`) cost one HEAD each after the first.
 * Lookups share one pool of at most `concurrency` lanes: a thousand tags
 * are a thousand small requests over a few parallel connections, never a
 * thousand sequential round trips, and never a thousand at once.
 *
 * The platform whose config gives an index its `created` is the one a node
 * of `platform` would pull: among the index entries it matches, the first
 * in containerd's preference order. Attestation entries (`unknown/unknown`)
 * are neither listed nor chosen.
 */
import type { DockerKeyring } from "@kubeimg/core/keyring";
import {
  only,
  type PlatformInput,
  type PlatformMatchComparer,
  parsePlatform,
  selectPlatform,
} from "@kubeimg/core/platform";
import type {
  TagImageMetadata,
  TagMetadataCallOptions,
  TagMetadataSource,
} from "@kubeimg/core/ports";
import { keyringCredentials } from "../client/credentials.js";
import type { RegistryClient } from "../client/index.js";
import type { RegistryCallOptions } from "../client/options.js";
import { RegistryError } from "../errors/index.js";
import { checkAdapterOptions } from "./credentials.js";

/** The repository asked about: a parsed reference, or a bare `{ domain, path }` (checked by the client). */
interface MetadataRepository {
  readonly domain: string;
  readonly path: string;
}

/** Options of {@link createTagMetadataSource}. */
export interface TagMetadataSourceOptions {
  readonly client: RegistryClient;
  /** Credentials (e.g. the node keyring). */
  readonly keyring?: DockerKeyring;
  /** Budget of one registry request in ms. Default: the client's. */
  readonly timeoutMs?: number;
  /** The platform whose config dates an index (`os/arch[/variant]`). Default `linux/amd64`. */
  readonly platform?: string;
  /** Registry requests in flight at most, over all lookups of this source. Default 8. */
  readonly concurrency?: number;
  /** Digests whose metadata is remembered. Default 10,000. */
  readonly cacheSize?: number;
}

interface ImageFacts {
  readonly created: string | undefined;
  readonly platforms: readonly string[] | undefined;
  /** A single manifest's config platform (Argo CD's `PlatformKey`). */
  readonly platform: string | undefined;
}

interface ConfigFacts {
  readonly created: string | undefined;
  readonly platform: string | undefined;
}

/** A waiter for a lane. */
interface LaneWaiter {
  readonly wake: () => void;
  readonly leave: (reason: unknown) => void;
}

/**
 * A counting semaphore whose waiters leave when their signal aborts. Waiters
 * that share a signal share one abort listener on it: a thousand lookups
 * under one caller's signal would otherwise hang a thousand listeners on it
 * (and Node warns of a leak past ten).
 */
class Lanes {
  #free: number;
  readonly #waiting: LaneWaiter[] = [];
  readonly #bySignal = new Map<
    AbortSignal,
    { readonly members: Set<LaneWaiter>; readonly onAbort: () => void }
  >();

  constructor(size: number) {
    this.#free = size;
  }

  async run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    await this.#acquire(signal);
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: LaneWaiter = {
        wake: () => {
          if (signal) this.#ungroup(signal, waiter);
          resolve();
        },
        leave: reject,
      };
      if (signal) this.#group(signal, waiter);
      this.#waiting.push(waiter);
    });
  }

  #group(signal: AbortSignal, waiter: LaneWaiter): void {
    let group = this.#bySignal.get(signal);
    if (group === undefined) {
      const members = new Set<LaneWaiter>();
      const onAbort = (): void => {
        this.#bySignal.delete(signal);
        for (const w of members) {
          const at = this.#waiting.indexOf(w);
          if (at >= 0) this.#waiting.splice(at, 1);
          w.leave(signal.reason);
        }
      };
      group = { members, onAbort };
      this.#bySignal.set(signal, group);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    group.members.add(waiter);
  }

  #ungroup(signal: AbortSignal, waiter: LaneWaiter): void {
    const group = this.#bySignal.get(signal);
    if (group === undefined) return;
    group.members.delete(waiter);
    if (group.members.size === 0) {
      signal.removeEventListener("abort", group.onAbort);
      this.#bySignal.delete(signal);
    }
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.wake();
    else this.#free++;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(reference: string, problem: string): RegistryError {
  return new RegistryError("INVALID_RESPONSE", `${reference}: ${problem}`, { reference });
}

/** The platform of an index entry, or undefined for none or an attestation. */
function entryPlatform(entry: unknown, reference: string): PlatformInput | undefined {
  if (!isRecord(entry)) throw invalid(reference, "an index entry is not an object");
  const platform = entry.platform;
  if (platform === undefined) return undefined;
  if (
    !isRecord(platform) ||
    typeof platform.os !== "string" ||
    typeof platform.architecture !== "string" ||
    (platform.variant !== undefined && typeof platform.variant !== "string")
  ) {
    throw invalid(reference, "an index entry's platform is not {os, architecture[, variant]}");
  }
  if (platform.os === "unknown" && platform.architecture === "unknown") return undefined;
  return {
    os: platform.os,
    architecture: platform.architecture,
    ...(typeof platform.variant === "string" && platform.variant !== ""
      ? { variant: platform.variant }
      : {}),
  };
}

function platformText(p: PlatformInput): string {
  return p.variant ? `${p.os}/${p.architecture}/${p.variant}` : `${p.os}/${p.architecture}`;
}

function childDigest(value: unknown, what: string, reference: string): string {
  const digest = isRecord(value) ? value.digest : undefined;
  if (typeof digest !== "string") throw invalid(reference, `${what} has no digest`);
  return digest;
}

/**
 * Returns a {@link TagMetadataSource} asking the registry.
 *
 * @example
 * ```ts no-run
 * import { createTagMetadataSource } from "@kubeimg/registry/adapters";
 * import { createRegistryClient } from "@kubeimg/registry/client";
 *
 * // Needs the registry.
 * const source = createTagMetadataSource({ client: createRegistryClient(), platform: "linux/arm64" });
 * const metadata = await source.tagMetadata({ domain: "ghcr.io", path: "org/app" }, "1.2.3", {});
 * metadata.created; // → the arm64 image's config date, e.g. "2025-01-31T12:00:00Z"
 * ```
 */
export function createTagMetadataSource(options: TagMetadataSourceOptions): TagMetadataSource & {
  /** Also takes a bare `{ domain, path }`, not only a parsed reference. */
  tagMetadata(
    repository: { readonly domain: string; readonly path: string },
    tag: string,
    options: TagMetadataCallOptions,
  ): Promise<TagImageMetadata>;
} {
  checkAdapterOptions("createTagMetadataSource", options);
  const concurrency = options.concurrency ?? 8;
  const cacheSize = options.cacheSize ?? 10_000;
  for (const [name, value] of [
    ["concurrency", concurrency],
    ["cacheSize", cacheSize],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RegistryError(
        "INVALID_OPTION",
        `createTagMetadataSource: option ${name} must be a positive integer`,
      );
    }
  }
  const platformSpecifier = options.platform ?? "linux/amd64";
  let comparer: PlatformMatchComparer;
  try {
    comparer = only(parsePlatform(platformSpecifier));
  } catch (error) {
    throw new RegistryError(
      "INVALID_OPTION",
      `createTagMetadataSource: option platform ${JSON.stringify(platformSpecifier)} is not a platform`,
      { cause: error },
    );
  }
  const client = options.client;
  const lanes = new Lanes(concurrency);
  const cache = new Map<string, Promise<ImageFacts>>();

  const call = (signal: AbortSignal | undefined): RegistryCallOptions => ({
    ...(signal ? { signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.keyring ? { credentials: keyringCredentials(options.keyring) } : {}),
  });

  async function configFacts(
    repo: MetadataRepository,
    manifest: unknown,
    reference: string,
    signal: AbortSignal | undefined,
  ): Promise<ConfigFacts> {
    if (!isRecord(manifest)) throw invalid(reference, "the manifest is not an object");
    // A schema 1 manifest has no config: no build time, as Go's zero time.
    if (manifest.config === undefined) return { created: undefined, platform: undefined };
    const configDigest = childDigest(manifest.config, "the manifest's config", reference);
    const { bytes } = await lanes.run(signal, () =>
      client.getBlob({ domain: repo.domain, path: repo.path, digest: configDigest }, call(signal)),
    );
    let config: unknown;
    try {
      config = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw invalid(reference, `config ${configDigest} is not JSON`);
    }
    if (!isRecord(config)) throw invalid(reference, `config ${configDigest} is not an object`);
    // Go decodes these into strings: null and absence are "", another type an error.
    const text = (field: string): string => {
      const value = config[field];
      if (value === undefined || value === null) return "";
      if (typeof value !== "string")
        throw invalid(reference, `config ${configDigest}: ${field} is not a string`);
      return value;
    };
    const value = config.created;
    if (value !== undefined && value !== null && typeof value !== "string")
      throw invalid(reference, `config ${configDigest}: created is not a string`);
    const os = text("os");
    const architecture = text("architecture");
    const variant = text("variant");
    return {
      created: value ?? undefined,
      platform: `${os}/${architecture}${variant === "" ? "" : `/${variant}`}`,
    };
  }

  async function facts(
    repo: MetadataRepository,
    digest: string,
    reference: string,
    signal: AbortSignal | undefined,
  ): Promise<ImageFacts> {
    const top = await lanes.run(signal, () =>
      client.getManifest({ domain: repo.domain, path: repo.path, digest }, call(signal)),
    );
    const body = top.manifest;
    if (!isRecord(body)) throw invalid(reference, "the manifest is not an object");
    if (!Array.isArray(body.manifests)) {
      const single = await configFacts(repo, body, reference, signal);
      return { created: single.created, platforms: undefined, platform: single.platform };
    }
    const entries = body.manifests as unknown[];
    const withPlatform: { entry: unknown; platform: PlatformInput }[] = [];
    for (const entry of entries) {
      const platform = entryPlatform(entry, reference);
      if (platform) withPlatform.push({ entry, platform });
    }
    const chosen = selectPlatform(
      comparer,
      withPlatform.map((e) => e.platform),
    );
    let when: string | undefined;
    if (chosen !== undefined) {
      const child = childDigest(withPlatform[chosen]?.entry, "an index entry", reference);
      const manifest = await lanes.run(signal, () =>
        client.getManifest({ domain: repo.domain, path: repo.path, digest: child }, call(signal)),
      );
      when = (await configFacts(repo, manifest.manifest, reference, signal)).created;
    }
    return {
      created: when,
      platforms: withPlatform.map((e) => platformText(e.platform)),
      platform: undefined,
    };
  }

  return {
    async tagMetadata(
      repository: MetadataRepository,
      tag: string,
      callOptions: TagMetadataCallOptions,
    ): Promise<TagImageMetadata> {
      if (
        !isRecord(repository) ||
        typeof repository.domain !== "string" ||
        typeof repository.path !== "string" ||
        typeof tag !== "string"
      ) {
        throw new RegistryError(
          "INVALID_ARGUMENT",
          "tagMetadata: repository must be {domain, path} and tag a string",
        );
      }
      const signal = callOptions?.signal;
      const repo = { domain: repository.domain, path: repository.path };
      const reference = `${repo.domain}/${repo.path}:${tag}`;
      const { digest } = await lanes.run(signal, () =>
        client.headManifest({ ...repo, tag }, call(signal)),
      );
      const key = `${repo.domain}/${repo.path}@${digest}`;
      let pending = cache.get(key);
      if (pending === undefined) {
        pending = facts(repo, digest, reference, signal);
        cache.set(key, pending);
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
        pending.catch(() => {
          if (cache.get(key) === pending) cache.delete(key);
        });
      }
      const found = await pending;
      return {
        created: found.created,
        digest,
        platforms: found.platforms,
        ...(found.platform === undefined ? {} : { platform: found.platform }),
      };
    },
  };
}
