/**
 * Listing what an image offers without pulling it: one request for an
 * index (its entries already state their platforms), plus one per distinct
 * nested index; for a single-manifest image, the manifest and its config.
 * No per-platform manifest is fetched.
 *
 * A registry chooses what its indexes name, so the listing is bounded in
 * total, not only per document: a nested index named by many entries is
 * fetched and read once (by digest) and its listing shared, and both the
 * index documents fetched and the entries of the whole listing (a shared
 * listing counted wherever it appears, since callers walk it there) have a
 * bound of their own.
 */
import type { RegistryCallOptions } from "../client/options.js";
import type { RegistryClient } from "../client/registry-client.js";
import { RegistryError } from "../errors/index.js";
import { imageString, type RegistryImage } from "../image/image-name.js";
import { checkClient, checkOptionsObject } from "./checks.js";
import {
  type BlobDescriptor,
  type ImageConfigSummary,
  type IndexEntry,
  readImageConfig,
  readIndex,
  readManifestConfig,
} from "./documents.js";
import { callOptions, checkDepth, DEFAULT_MAX_CONFIG_BYTES, documentKind } from "./resolve.js";

/**
 * The most index documents one listing fetches by default, the top one
 * included: 64. Distinct nested indexes are rare (one level, a handful of
 * children, in the images seen in practice), so this leaves room while a
 * registry cannot make one call cost thousands of requests.
 */
export const DEFAULT_MAX_INDEX_DOCUMENTS = 64;
/**
 * The most entries one listing holds by default, those of nested indexes
 * included wherever they appear: 100,000. One index document of the
 * client's default 4 MiB holds at most about 28,000 entries, so no real
 * index comes near; 600 entries naming one index of 3,000 (1.8 million)
 * are refused.
 */
export const DEFAULT_MAX_LISTED_ENTRIES = 100_000;

/** Options of {@link listImagePlatforms}. */
export interface ListPlatformsOptions extends RegistryCallOptions {
  /** How many indexes deep to list (the top index counts as 1); default 4. */
  readonly maxIndexDepth?: number;
  /** The most bytes of a config blob to read; default 1 MiB. */
  readonly maxConfigBytes?: number;
  /**
   * The most index documents to fetch, the top one included; default
   * 64. A nested index named by several
   * entries is fetched once.
   */
  readonly maxIndexDocuments?: number;
  /**
   * The most entries the listing may hold, nested ones included wherever
   * they appear; default 100,000.
   */
  readonly maxListedEntries?: number;
}

/** An index entry, with the entries of a nested index it points at. */
export interface ListedEntry extends IndexEntry {
  /** For a nested index: its own entries (listed, not resolved). */
  readonly children?: readonly ListedEntry[];
}

/** What {@link listImagePlatforms} found. */
export type ImagePlatforms =
  | {
      readonly kind: "index";
      readonly image: string;
      readonly digest: string;
      readonly mediaType: string;
      readonly entries: readonly ListedEntry[];
    }
  | {
      readonly kind: "manifest";
      readonly image: string;
      readonly digest: string;
      readonly mediaType: string;
      /** The config, whose OS and architecture are the image's platform. */
      readonly config: BlobDescriptor & ImageConfigSummary;
    };

/**
 * Returns the platforms an image offers: the entries of its index (nested
 * indexes listed inside their entry), or, for a single-manifest image, its
 * config. A nested index named by several entries is fetched once and its
 * listing shared between them (the same array).
 *
 * @throws RegistryError `INDEX_TOO_DEEP`, `INDEX_TOO_LARGE` (past
 * `maxIndexDocuments` or `maxListedEntries`), `INVALID_RESPONSE`,
 * `UNSUPPORTED`, `DIGEST_MISMATCH` and the client's errors.
 *
 * @example
 * ```ts
 * import { type RegistryClient } from "@kubeimg/registry/client";
 * import { listImagePlatforms } from "@kubeimg/registry/platform";
 *
 * declare const client: RegistryClient; // createRegistryClient(…)
 * const listed = await listImagePlatforms(client, { domain: "ghcr.io", path: "team/app", tag: "1.0" });
 * if (listed.kind === "index") listed.entries.map((e) => e.platform);
 * ```
 */
export async function listImagePlatforms(
  client: RegistryClient,
  image: RegistryImage,
  options: ListPlatformsOptions = {},
): Promise<ImagePlatforms> {
  checkClient("listImagePlatforms", client);
  checkOptionsObject("listImagePlatforms", options);
  options ??= {};
  const top = await client.getManifest(image, callOptions(options));
  const reference = imageString(image);
  const maxDepth = checkDepth("listImagePlatforms", options.maxIndexDepth);
  const maxDocuments = checkCount(
    "maxIndexDocuments",
    options.maxIndexDocuments,
    DEFAULT_MAX_INDEX_DOCUMENTS,
  );
  const maxEntries = checkCount(
    "maxListedEntries",
    options.maxListedEntries,
    DEFAULT_MAX_LISTED_ENTRIES,
  );
  const call = callOptions(options);
  const kind = documentKind(top);
  if (kind === "manifest") {
    const descriptor = readManifestConfig(top.manifest, { reference });
    const blob = await client.getBlob(
      { domain: image.domain, path: image.path, digest: descriptor.digest },
      { ...call, maxBytes: options.maxConfigBytes ?? DEFAULT_MAX_CONFIG_BYTES },
    );
    return {
      kind: "manifest",
      image: reference,
      digest: top.digest,
      mediaType: top.mediaType ?? "",
      config: { ...descriptor, ...readImageConfig(blob.bytes, { reference }) },
    };
  }
  if (kind !== "index") {
    throw new RegistryError(
      "UNSUPPORTED",
      `${reference}: unsupported media type ${top.mediaType ?? "(none)"}`,
      {
        reference,
      },
    );
  }
  // Each nested index's listing by digest, with the entries it holds (its
  // nested ones included) and its height (1 for an index with no nested
  // index), so a shared listing is checked against the depth and entry
  // bounds where it appears again.
  const listed = new Map<string, Listing>();
  const ancestors = new Set<string>([top.digest]);
  let documents = 1;
  let total = 0;
  const count = (entries: number): void => {
    total += entries;
    if (total > maxEntries) {
      throw new RegistryError(
        "INDEX_TOO_LARGE",
        `${reference}: more than ${maxEntries} entries once nested indexes are listed (option maxListedEntries)`,
        { reference },
      );
    }
  };
  const tooDeep = (): never => {
    throw new RegistryError(
      "INDEX_TOO_DEEP",
      `${reference}: more than ${maxDepth} nested indexes`,
      {
        reference,
      },
    );
  };
  const expand = async (document: unknown, depth: number): Promise<Listing> => {
    const entries = readIndex(document, { reference });
    const out: ListedEntry[] = [];
    let size = entries.length;
    let height = 1;
    count(entries.length);
    for (const entry of entries) {
      if (documentKind({ mediaType: entry.mediaType, manifest: undefined }) !== "index") {
        out.push(entry);
        continue;
      }
      if (depth >= maxDepth || ancestors.has(entry.digest)) tooDeep();
      let child = listed.get(entry.digest);
      if (child === undefined) {
        documents++;
        if (documents > maxDocuments) {
          throw new RegistryError(
            "INDEX_TOO_LARGE",
            `${reference}: more than ${maxDocuments} index documents to fetch (option maxIndexDocuments)`,
            { reference },
          );
        }
        const fetched = await client.getManifest(
          { domain: image.domain, path: image.path, digest: entry.digest },
          call,
        );
        ancestors.add(entry.digest);
        child = await expand(fetched.manifest, depth + 1);
        ancestors.delete(entry.digest);
        listed.set(entry.digest, child);
      } else {
        if (depth + child.height > maxDepth) tooDeep();
        count(child.size);
      }
      size += child.size;
      height = Math.max(height, child.height + 1);
      out.push({ ...entry, children: child.entries });
    }
    return { entries: out, size, height };
  };
  return {
    kind: "index",
    image: reference,
    digest: top.digest,
    mediaType: top.mediaType ?? "",
    entries: (await expand(top.manifest, 1)).entries,
  };
}

/** A nested index's listing, as the memo keeps it. */
interface Listing {
  readonly entries: readonly ListedEntry[];
  /** Its entries, nested ones included wherever they appear. */
  readonly size: number;
  /** Indexes deep, itself counted (1 when it names no index). */
  readonly height: number;
}

/** A count option, checked: a positive integer, `fallback` when absent. */
function checkCount(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new RegistryError(
      "INVALID_OPTION",
      `listImagePlatforms: option ${name} must be a positive integer`,
    );
  }
  return value;
}
