/**
 * Listing what an image offers without pulling it: one request for an
 * index (its entries already state their platforms), plus one per nested
 * index; for a single-manifest image, the manifest and its config. No
 * per-platform manifest is fetched.
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

/** Options of {@link listImagePlatforms}. */
export interface ListPlatformsOptions extends RegistryCallOptions {
  /** How many indexes deep to list (the top index counts as 1); default 4. */
  readonly maxIndexDepth?: number;
  /** The most bytes of a config blob to read; default 1 MiB. */
  readonly maxConfigBytes?: number;
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
 * config.
 *
 * @throws RegistryError `INDEX_TOO_DEEP`, `INVALID_RESPONSE`, `UNSUPPORTED`,
 * `DIGEST_MISMATCH` and the client's errors.
 *
 * @example
 * ```ts
 * const listed = await listImagePlatforms(client, parseImageName("ghcr.io/team/app:1.0"));
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
  const expand = async (document: unknown, depth: number): Promise<ListedEntry[]> => {
    const entries = readIndex(document, { reference });
    const out: ListedEntry[] = [];
    for (const entry of entries) {
      if (documentKind({ mediaType: entry.mediaType, manifest: undefined }) !== "index") {
        out.push(entry);
        continue;
      }
      if (depth >= maxDepth) {
        throw new RegistryError(
          "INDEX_TOO_DEEP",
          `${reference}: more than ${maxDepth} nested indexes`,
          { reference },
        );
      }
      const child = await client.getManifest(
        { domain: image.domain, path: image.path, digest: entry.digest },
        call,
      );
      out.push({ ...entry, children: await expand(child.manifest, depth + 1) });
    }
    return out;
  };
  return {
    kind: "index",
    image: reference,
    digest: top.digest,
    mediaType: top.mediaType ?? "",
    entries: await expand(top.manifest, 1),
  };
}
