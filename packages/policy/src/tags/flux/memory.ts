/**
 * An in-memory registry implementing {@link TagLister} and
 * {@link DigestResolver}: for tests, examples and offline evaluation.
 */
import type { NamedReference } from "@kubeimg/core/reference";
import type { DigestResolver, TagLister } from "./resolve.js";

/**
 * Tags and digests held in memory, keyed by the normalized repository name
 * (`docker.io/library/nginx`) and `name:tag`.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 * import { MemoryRegistry } from "@kubeimg/policy/tags";
 *
 * const registry = new MemoryRegistry({
 *   tags: { "docker.io/library/nginx": ["1.25.0", "1.25.1"] },
 *   digests: { "docker.io/library/nginx:1.25.1": "sha256:" + "a".repeat(64) },
 * });
 * await registry.listTags(parseNormalizedNamed("nginx"), {}); // ["1.25.0", "1.25.1"]
 * ```
 */
export class MemoryRegistry implements TagLister, DigestResolver {
  readonly #tags = new Map<string, string[]>();
  readonly #digests = new Map<string, string>();

  constructor(
    contents: {
      tags?: Readonly<Record<string, readonly string[]>>;
      digests?: Readonly<Record<string, string>>;
    } = {},
  ) {
    for (const [name, tags] of Object.entries(contents.tags ?? {})) this.setTags(name, tags);
    for (const [ref, digest] of Object.entries(contents.digests ?? {})) this.setDigest(ref, digest);
  }

  /** Replaces the tags of the repository `name` (a normalized name). */
  setTags(name: string, tags: readonly string[]): void {
    this.#tags.set(name, [...tags]);
  }

  /** Sets the digest `name:tag` resolves to. */
  setDigest(nameAndTag: string, digest: string): void {
    this.#digests.set(nameAndTag, digest);
  }

  async listTags(repository: NamedReference, options: { signal?: AbortSignal }): Promise<string[]> {
    options.signal?.throwIfAborted();
    const tags = this.#tags.get(repository.name);
    if (tags === undefined) throw new Error(`repository ${repository.name} not found`);
    return [...tags];
  }

  async resolveDigest(image: NamedReference, options: { signal?: AbortSignal }): Promise<string> {
    options.signal?.throwIfAborted();
    const key = `${image.name}:${image.tag ?? ""}`;
    const digest = this.#digests.get(key);
    if (digest === undefined) throw new Error(`manifest ${key} not found`);
    return digest;
  }
}
