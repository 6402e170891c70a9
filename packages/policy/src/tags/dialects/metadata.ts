/**
 * Image metadata for the strategies that need more than a tag's name:
 * Argo CD's `newest-build` and `digest`, Kargo's `NewestBuild` and `Digest`,
 * and any Kargo subscription with a `platform`. The port,
 * `TagMetadataSource`, is declared in `@kubeimg/core/ports` and re-exported
 * here; `@kubeimg/registry/adapters` implements it by the same name over a
 * real registry, and {@link MemoryTagMetadataSource} answers from a table.
 *
 * {@link collectTagInfo} asks the source for each tag with bounded
 * concurrency, so a repository of a thousand tags costs a thousand lookups
 * spread over a few parallel lanes rather than a thousand sequential round
 * trips, and it stops as soon as the caller's signal aborts. For the other
 * strategies it asks nothing: their updaters never fetch metadata either.
 */
import { KubeimgError } from "@kubeimg/core";
import type {
  TagImageMetadata,
  TagMetadataCallOptions,
  TagMetadataSource,
} from "@kubeimg/core/ports";
import type { NamedReference } from "@kubeimg/core/reference";
import type { ArgoStrategy } from "../argocd/select.js";
import { TagDialectError } from "../common/errors.js";
import type { TagInfo } from "../common/types.js";
import type { KargoImageSubscription } from "../kargo/subscription.js";

export type {
  TagImageMetadata,
  TagMetadataCallOptions,
  TagMetadataSource,
} from "@kubeimg/core/ports";

/** The codes of a {@link TagMetadataError}. */
export type TagMetadataErrorCode =
  /** The source knows no image for the tag. */
  "TAG_NOT_FOUND";

/** Thrown by {@link MemoryTagMetadataSource} for a tag it does not hold. */
export class TagMetadataError extends KubeimgError {
  override readonly name = "TagMetadataError";
  readonly code: TagMetadataErrorCode;
  readonly repository: string;
  readonly tag: string;

  constructor(repository: string, tag: string) {
    super(`${repository}:${tag}: no image metadata for this tag`);
    this.code = "TAG_NOT_FOUND";
    this.repository = repository;
    this.tag = tag;
  }
}

/** The RFC 3339 text a registry would report for `created` (epoch milliseconds are written out). */
function createdText(created: string | number | undefined, at: string): string | undefined {
  if (typeof created !== "number") return created;
  const date = new Date(created);
  const year = date.getUTCFullYear();
  if (!Number.isSafeInteger(created) || !(year >= 0 && year <= 9999)) {
    throw new TagDialectError(at, created, "must be epoch milliseconds within years 0000-9999");
  }
  return date.toISOString();
}

/**
 * A {@link TagMetadataSource} answering from a table, for tests and for
 * metadata already at hand (a `--tags-file`).
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 * import { MemoryTagMetadataSource } from "@kubeimg/policy/tags/dialects";
 *
 * const source = new MemoryTagMetadataSource({
 *   "ghcr.io/org/app": [{ name: "1.0", created: "2024-01-01T00:00:00Z", digest: `sha256:${"a".repeat(64)}` }],
 * });
 * const meta = await source.tagMetadata(parseNormalizedNamed("ghcr.io/org/app"), "1.0", {});
 * meta.created; // "2024-01-01T00:00:00Z"
 * ```
 */
export class MemoryTagMetadataSource implements TagMetadataSource {
  readonly #byRepository = new Map<string, Map<string, TagImageMetadata>>();

  /** `repositories`: by `domain/path`, the tags with their metadata (a tag without `digest` is refused). */
  constructor(repositories: Readonly<Record<string, readonly TagInfo[]>>) {
    if (repositories === null || typeof repositories !== "object") {
      throw new TagDialectError("repositories", repositories, "must be an object");
    }
    for (const name of Object.keys(repositories)) {
      const tags = repositories[name];
      if (!Array.isArray(tags)) {
        throw new TagDialectError(`repositories.${name}`, tags, "must be an array of tags");
      }
      const table = new Map<string, TagImageMetadata>();
      tags.forEach((tag: TagInfo, i: number) => {
        const at = `repositories.${name}[${i}]`;
        if (tag === null || typeof tag !== "object" || typeof tag.name !== "string") {
          throw new TagDialectError(at, tag, "must be a TagInfo with a name");
        }
        if (typeof tag.digest !== "string") {
          throw new TagDialectError(`${at}.digest`, tag.digest, "must be a digest");
        }
        table.set(tag.name, {
          created: createdText(tag.created, `${at}.created`),
          digest: tag.digest,
          platforms: tag.platforms === undefined ? undefined : [...tag.platforms],
          ...(tag.platform === undefined ? {} : { platform: tag.platform }),
        });
      });
      this.#byRepository.set(name, table);
    }
  }

  async tagMetadata(
    repository: NamedReference,
    tag: string,
    options: TagMetadataCallOptions,
  ): Promise<TagImageMetadata> {
    options.signal?.throwIfAborted();
    const name = `${repository.domain}/${repository.path}`;
    const found = this.#byRepository.get(name)?.get(tag);
    if (found === undefined) throw new TagMetadataError(name, tag);
    return found;
  }
}

/** Which strategy is about to run, to decide whether metadata is needed.
 *
 * @inline
 */
export type MetadataNeed =
  | { readonly dialect: "flux" }
  | { readonly dialect: "argocd-image-updater"; readonly strategy: ArgoStrategy }
  | { readonly dialect: "kargo"; readonly subscription: KargoImageSubscription };

/**
 * True when the updater fetches image metadata for this strategy: Argo CD
 * for `newest-build` and `digest` (never for `semver` or `alphabetical`,
 * whatever platforms say); Kargo for `NewestBuild` and `Digest`, and for any
 * strategy once a `platform` is set; Flux never.
 */
export function needsTagMetadata(need: MetadataNeed): boolean {
  switch (need.dialect) {
    case "flux":
      return false;
    case "argocd-image-updater":
      return need.strategy === "newest-build" || need.strategy === "digest";
    case "kargo": {
      const sub = need.subscription;
      const strategy = sub.imageSelectionStrategy ?? "";
      return strategy === "NewestBuild" || strategy === "Digest" || (sub.platform ?? "") !== "";
    }
    default:
      throw new TagDialectError(
        "need.dialect",
        (need as { dialect: unknown }).dialect,
        "unknown dialect",
      );
  }
}

/** Options of {@link collectTagInfo}. */
export interface CollectTagInfoOptions {
  readonly source: TagMetadataSource;
  /** The repository, parsed (`parseNormalizedNamed`); its tag and digest are ignored. */
  readonly repository: NamedReference;
  /** Whether to look anything up (see {@link needsTagMetadata}); false: names only. */
  readonly needed: boolean;
  /** Lookups in flight at most. Default 8. */
  readonly concurrency?: number;
  /** Stops the lookups; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * Returns one `TagInfo` per name, in the same order, with the source's
 * metadata when `needed`. Rejects with the first lookup error (the others
 * still running are told to stop through the signal passed to them).
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 * import { collectTagInfo, MemoryTagMetadataSource, needsTagMetadata } from "@kubeimg/policy/tags/dialects";
 *
 * // A stand-in for a registry (the tags' creation times and digests):
 * const source = new MemoryTagMetadataSource({
 *   "ghcr.io/org/app": [
 *     { name: "1.0", created: "2024-01-01T00:00:00Z", digest: `sha256:${"a".repeat(64)}` },
 *     { name: "1.1", created: "2024-02-01T00:00:00Z", digest: `sha256:${"b".repeat(64)}` },
 *   ],
 * });
 * const subscription = { repoURL: "ghcr.io/org/app", imageSelectionStrategy: "NewestBuild" as const };
 * const tags = await collectTagInfo(["1.0", "1.1"], {
 *   source, repository: parseNormalizedNamed("ghcr.io/org/app"),
 *   needed: needsTagMetadata({ dialect: "kargo", subscription }), // true: NewestBuild reads creation times
 * });
 * tags[1]?.created; // "2024-02-01T00:00:00Z"
 * ```
 */
export async function collectTagInfo(
  names: readonly string[],
  options: CollectTagInfoOptions,
): Promise<TagInfo[]> {
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) {
    throw new TagDialectError("names", names, "must be an array of strings");
  }
  const concurrency = options.concurrency ?? 8;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new TagDialectError("concurrency", concurrency, "must be a positive integer");
  }
  if (!options.needed) return names.map((name) => ({ name }));
  const outer = options.signal;
  outer?.throwIfAborted();
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const out: TagInfo[] = new Array(names.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < names.length) {
      signal.throwIfAborted();
      const i = next++;
      const name = names[i] as string;
      const meta = await options.source.tagMetadata(options.repository, name, { signal });
      out[i] = {
        name,
        digest: meta.digest,
        ...(meta.created !== undefined ? { created: meta.created } : {}),
        ...(meta.platforms !== undefined ? { platforms: meta.platforms } : {}),
        ...(meta.platforms === undefined && meta.platform !== undefined
          ? { platform: meta.platform }
          : {}),
      };
    }
  };
  const lanes = Array.from({ length: Math.min(concurrency, names.length) }, lane);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(outer?.reason);
    outer?.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    await Promise.race([Promise.all(lanes), aborted]);
  } catch (error) {
    stop.abort(error);
    for (const l of lanes) l.catch(() => {});
    throw error;
  } finally {
    if (onAbort) outer?.removeEventListener("abort", onAbort);
  }
  return out;
}
