/**
 * A tag list checked once and held in the form selections read.
 *
 * Every `TagInfo` is user input. A selection over a raw array checks what
 * it reads on every call (`readTags`: every entry's shape, and in full the
 * entries whose metadata it reads), and a newest-build selection reads every
 * time; a controller re-evaluates the same cached metadata every interval,
 * and a comparison runs several dialects over one list. {@link prepareTagList}
 * checks every entry in full where the metadata enters, once (it cannot know
 * which selections will read what), and keeps what every selection reads (names, instants as
 * numbers, the last occurrence of each name, and whether the list's names
 * need Go's byte order) so that a selection over the prepared list is a loop
 * over arrays, whatever the list holds (repeated or non-ASCII names need no
 * hand-over to the plain path).
 */
import { TagDialectError } from "./errors.js";
import { checkedLastIndex, checkedNames, highChars } from "./single-pass.js";
import {
  checkEntry,
  createdInstant,
  type Instant,
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
 * Cost model: preparing costs one full check of every entry (unknown
 * fields, each time and digest read) plus one map of names; a selection
 * over the prepared list then reads arrays only: lexical and newest-build
 * are one pass comparing names or numbers, semver reads each name once,
 * digest looks its tag up. A selection over a raw array checks every
 * entry's shape and reads in full only what it needs (every entry for
 * newest-build), so by name it costs about what the prepared list does.
 * Prepare when a list is selected from more than once (an interval, a
 * comparison of dialects), above all for newest-build; for a single
 * selection the raw array is as fast. A prepared list is as strict as the
 * strictest selection: it refuses a malformed field that a selection over
 * the raw array would not have read. The list copies what it keeps: changing the entries afterwards
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
 * Validates every entry of `tags` in full, once (unknown fields, the time,
 * the digest, the platforms: the `TagDialectError` with the field path and
 * value of the first bad entry, what a newest-build selection over the raw
 * array throws) and returns them as a {@link PreparedTagList}.
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
 * Reads `tags` as a selection does and returns their names, with the
 * metadata of a name after the last-occurrence rule. What is checked of a
 * raw array (a prepared list was checked in full when it was prepared):
 *
 * - with `metadata` (a strategy that reads every entry's metadata:
 *   newest-build, a Kargo `platform`), every entry in full, up front;
 * - without, every entry's shape (`checkShape`: an object, a string name,
 *   fields of their types) up front, and the entry whose metadata is asked
 *   for (the last one of that name) in full when it is first asked for: a
 *   pick's digest, the one tag the digest strategies follow.
 *
 * So a malformed entry throws whenever a selection reads it, and only
 * content no selection reads (another tag's digest in a digest selection,
 * any time in a selection by name) passes unchecked. Throws a
 * {@link TagDialectError} naming the entry and field that is malformed (the
 * first in list order among those checked up front).
 */
export function readTags(
  tags: readonly TagInfo[] | PreparedTagList,
  options: { metadata: boolean },
): TagList {
  if (!PreparedTagList.isPrepared(tags)) {
    if (!Array.isArray(tags)) throw new TagDialectError("tags", tags, "must be an array of tags");
    if (!options.metadata) return lazyMetadata(tags);
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

/** Names checked for their shape; a name's metadata checked in full when first read. */
function lazyMetadata(tags: readonly TagInfo[]): TagList {
  const names = checkedNames(tags);
  const cache = new Map<string, TagMetadata>();
  return {
    names,
    metadata(name) {
      let meta = cache.get(name);
      if (meta === undefined) {
        const i = checkedLastIndex(tags, name);
        // Only listed names are asked for; an unlisted one has no metadata.
        const tag: TagInfo = i < 0 ? { name } : (tags[i] as TagInfo);
        const platforms = tag.platforms;
        meta = {
          created: createdInstant(tag.created) as Instant,
          digest: tag.digest,
          platforms: platforms === undefined ? undefined : [...platforms],
          platform: tag.platform,
        };
        cache.set(name, meta);
      }
      return meta;
    },
  };
}
