/**
 * A tag list checked once and held in the form selections read.
 *
 * Every `TagInfo` is user input, so every entry is validated (unknown keys,
 * the digest's 64 hex digits, the time's RFC 3339 shape). That check costs
 * more per tag than a whole selection by name does, and a controller
 * re-evaluates the same cached metadata every interval, and a comparison runs
 * several dialects over one list: checking there once per call is the cost of
 * the check many times over. {@link prepareTagList} checks where the metadata
 * enters, once, and keeps what every selection reads (names, instants as
 * numbers, the last occurrence of each name, and whether the list's names
 * need Go's byte order) so that a selection over the prepared list is a loop
 * over arrays, whatever the list holds (repeated or non-ASCII names need no
 * hand-over to the plain path).
 */
import { TagDialectError } from "./errors.js";
import { checkedNames, highChars } from "./single-pass.js";
import {
  checkEntry,
  type InstantSlot,
  type TagList,
  type TagMetadata,
  ZERO_INSTANT,
} from "./tag-list.js";
import type { TagInfo } from "./types.js";

/** What a prepared list holds, for the selections in this package (never handed out). */
export interface PreparedData {
  /** Names in list order. */
  readonly names: readonly string[];
  /** Each entry's own `created`: epoch milliseconds (Go's zero time when absent). */
  readonly ms: Float64Array;
  /** Each entry's own `created`: the nanoseconds below `ms`. */
  readonly nanos: Int32Array;
  /** Each entry's own digest. */
  readonly digests: readonly (string | undefined)[];
  /** Each entry's own platforms (copied); undefined: a single image manifest. */
  readonly platforms: readonly (readonly string[] | undefined)[];
  /** Each entry's single-manifest platform, when given. */
  readonly platform: readonly (string | undefined)[];
  /** Each entry's `created` as given (to rebuild the entry). */
  readonly created: readonly (string | number | undefined)[];
  /** For each entry, the index of the last entry with its name (the last-occurrence rule). */
  readonly last: Int32Array;
  /** Each name's last index. */
  readonly lastByName: ReadonlyMap<string, number>;
  /** Whether a name holds a character from U+D800 up (JavaScript's order may then differ from Go's byte order). */
  readonly highChars: boolean;
}

const token: unique symbol = Symbol("PreparedTagList");
let dataOf: (list: PreparedTagList) => PreparedData;
let build: (data: PreparedData) => PreparedTagList;

/**
 * A validated, read-only tag list ({@link prepareTagList}). Every dialect
 * entry point that takes `readonly TagInfo[]` also takes one and answers
 * exactly the same; it then skips the per-entry checks.
 *
 * Cost model: preparing costs one validation pass over the entries (what
 * every selection over a raw array pays each call) plus one map of names;
 * a selection over the prepared list then reads arrays only: lexical and
 * newest-build are one pass comparing names or numbers, semver reads each
 * name once. Prepare when a list is selected from more than once (an
 * interval, a comparison of dialects); for a single selection the raw array
 * is as fast. The list copies what it keeps: changing the entries afterwards
 * does not change it.
 */
export class PreparedTagList {
  readonly #data: PreparedData;

  static {
    dataOf = (list) => list.#data;
    build = (data) => new PreparedTagList(token, data);
  }

  /** Use {@link prepareTagList}: a prepared list cannot be built unchecked. */
  private constructor(key: symbol, data: PreparedData) {
    if (key !== token) {
      throw new TypeError("use prepareTagList");
    }
    this.#data = data;
  }

  /** Whether `value` is a prepared list (checks the private field, not the prototype). */
  static isPrepared(value: unknown): value is PreparedTagList {
    return typeof value === "object" && value !== null && #data in value;
  }

  /** The number of entries. */
  get length(): number {
    return this.#data.names.length;
  }

  /** The entries as plain `TagInfo` objects, in list order (new objects each call). */
  toArray(): TagInfo[] {
    const d = this.#data;
    const out: TagInfo[] = new Array(d.names.length);
    for (let i = 0; i < out.length; i++) out[i] = entryAt(d, i);
    return out;
  }
}

/** Rebuilds entry `i` as the caller gave it (same fields, fresh objects). */
export function entryAt(d: PreparedData, i: number): TagInfo {
  const created = d.created[i];
  const digest = d.digests[i];
  const platforms = d.platforms[i];
  const platform = d.platform[i];
  return {
    name: d.names[i] as string,
    ...(created === undefined ? {} : { created }),
    ...(digest === undefined ? {} : { digest }),
    ...(platforms === undefined ? {} : { platforms: [...platforms] }),
    ...(platform === undefined ? {} : { platform }),
  };
}

/** What a prepared list holds; for this package's selections. */
export function preparedData(list: PreparedTagList): PreparedData {
  return dataOf(list);
}

/**
 * Validates `tags` once (every entry, exactly as a selection over the raw
 * array does: the same `TagDialectError` with the same field path and value
 * for the first bad entry) and returns them as a {@link PreparedTagList}.
 * A prepared list passed in is returned as it is.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 * import { selectArgoTag } from "@kubeimg/policy/tags/argocd";
 * import { collectTagInfo, MemoryTagMetadataSource, prepareTagList } from "@kubeimg/policy/tags/dialects";
 * import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
 *
 * // A stand-in for a registry (the tags' creation times and digests):
 * const source = new MemoryTagMetadataSource({
 *   "ghcr.io/org/app": [
 *     { name: "1.0.0", created: "2024-01-01T00:00:00Z", digest: `sha256:${"a".repeat(64)}` },
 *     { name: "1.1.0", created: "2024-02-01T00:00:00Z", digest: `sha256:${"b".repeat(64)}` },
 *     { name: "nightly", created: "2024-03-01T00:00:00Z", digest: `sha256:${"c".repeat(64)}` },
 *   ],
 * });
 * const repository = parseNormalizedNamed("ghcr.io/org/app");
 * const names = ["1.0.0", "1.1.0", "nightly"];
 * const list = prepareTagList(await collectTagInfo(names, { source, repository, needed: true }));
 * // every interval, or for each dialect of a comparison:
 * selectArgoTag({ imageName: "ghcr.io/org/app" }, list).tag; // "1.1.0"
 * selectKargoTag({ repoURL: "ghcr.io/org/app", imageSelectionStrategy: "NewestBuild" }, list).tag; // "nightly"
 * ```
 */
export function prepareTagList(tags: readonly TagInfo[] | PreparedTagList): PreparedTagList {
  if (PreparedTagList.isPrepared(tags)) return tags;
  if (!Array.isArray(tags)) throw new TagDialectError("tags", tags, "must be an array of tags");
  const n = tags.length;
  const names: string[] = new Array(n);
  const ms = new Float64Array(n);
  const nanos = new Int32Array(n);
  const digests: (string | undefined)[] = new Array(n);
  const platforms: (readonly string[] | undefined)[] = new Array(n);
  const platform: (string | undefined)[] = new Array(n);
  const created: (string | number | undefined)[] = new Array(n);
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  let high = false;
  for (let i = 0; i < n; i++) {
    const tag = tags[i] as TagInfo;
    if (checkEntry(tag, i, slot)) {
      ms[i] = slot.ms;
      nanos[i] = slot.subMsNanos;
    } else {
      ms[i] = ZERO_INSTANT.ms;
    }
    const name = tag.name;
    names[i] = name;
    if (!high && highChars.test(name)) high = true;
    created[i] = tag.created;
    digests[i] = tag.digest;
    platforms[i] = tag.platforms === undefined ? undefined : [...tag.platforms];
    platform[i] = tag.platform;
  }
  const lastByName = new Map<string, number>();
  for (let i = 0; i < n; i++) lastByName.set(names[i] as string, i);
  const last = new Int32Array(n);
  for (let i = 0; i < n; i++) last[i] = lastByName.get(names[i] as string) as number;
  return build({
    names,
    ms,
    nanos,
    digests,
    platforms,
    platform,
    created,
    last,
    lastByName,
    highChars: high,
  });
}

/**
 * Validates `tags` (every entry's shape; a prepared list was validated when
 * it was prepared) and returns their names; with `metadata`, also the
 * metadata of each name after the last-occurrence rule. Throws a
 * {@link TagDialectError} naming the first entry and field that is
 * malformed.
 */
export function readTags(
  tags: readonly TagInfo[] | PreparedTagList,
  options: { metadata: boolean },
): TagList {
  if (!PreparedTagList.isPrepared(tags)) {
    if (!Array.isArray(tags)) throw new TagDialectError("tags", tags, "must be an array of tags");
    if (!options.metadata) {
      return {
        names: checkedNames(tags),
        metadata: () => ({
          created: ZERO_INSTANT,
          digest: undefined,
          platforms: undefined,
          platform: undefined,
        }),
      };
    }
  }
  const d = preparedData(prepareTagList(tags));
  const cache = new Map<string, TagMetadata>();
  return {
    names: d.names,
    metadata(name) {
      let meta = cache.get(name);
      if (meta === undefined) {
        const i = d.lastByName.get(name) as number;
        const platforms = d.platforms[i];
        meta = {
          created: { ms: d.ms[i] as number, subMsNanos: d.nanos[i] as number },
          digest: d.digests[i],
          platforms: platforms === undefined ? undefined : [...platforms],
          platform: d.platform[i],
        };
        cache.set(name, meta);
      }
      return meta;
    },
  };
}
