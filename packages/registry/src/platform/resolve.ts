/**
 * Resolving an image for a platform the way containerd's `images.Manifest`
 * does when a node pulls it: read the index, keep the entries the node's
 * comparer matches (entries stating no platform are kept too, after the
 * others), sort them by its preference, and follow the first; a nested
 * index is followed the same way, to a bounded depth. The chosen manifest's
 * config blob is then read (size-capped, digest-verified) for the platform
 * it really declares, its `created` time and its labels.
 *
 * Two departures, both on purpose: BuildKit attestation manifests
 * (`unknown/unknown`, `vnd.docker.reference.type: attestation-manifest`)
 * are never candidates, even for the match-everything comparer; and a
 * registry that serves an index with nothing for the platform is the error
 * `NO_MATCHING_PLATFORM` (containerd wraps not-found), so callers can tell
 * "this image exists but not for this node" from "no such image".
 *
 * Like containerd, only the first candidate of each index is followed: when
 * it is a nested index with no match, or a manifest without a stated
 * platform whose config does not match, the resolution fails rather than
 * trying the next one. A single-manifest image (no index) is taken as it is,
 * as containerd does; `configMatches` says whether its config fits.
 */
import {
  defaultMatcher,
  formatPlatform,
  type HostPlatform,
  normalizePlatform,
  orderIndexEntries,
  type PlatformInput,
  type PlatformMatchComparer,
  parsePlatform,
} from "@kubeimg/core/platform";
import type { Manifest } from "../client/manifests.js";
import type { RegistryCallOptions } from "../client/options.js";
import type { RegistryClient } from "../client/registry-client.js";
import { RegistryError } from "../errors/index.js";
import { imageString, type RegistryImage } from "../image/image-name.js";
import { checkClient, checkOptionsObject, checkPlatformInput } from "./checks.js";
import {
  type BlobDescriptor,
  IMAGE_MANIFEST_MEDIA_TYPES,
  type ImageConfigSummary,
  INDEX_MEDIA_TYPES,
  type IndexEntry,
  readImageConfig,
  readIndex,
  readManifestConfig,
} from "./documents.js";

/** How many indexes deep resolution follows by default (the top index counts as 1). */
export const DEFAULT_MAX_INDEX_DEPTH = 4;
/** The most bytes of an image config read by default: 1 MiB. */
export const DEFAULT_MAX_CONFIG_BYTES = 1024 * 1024;

/** Options of {@link resolveImagePlatform}. */
export interface ResolvePlatformOptions extends RegistryCallOptions {
  /**
   * The node's platform, as a specifier (`linux/arm64/v8`) or a platform
   * object; the node's default comparer is built from it (containerd's
   * `Default()` on that node: `only`, or the Windows host comparer).
   */
  readonly platform?: string | PlatformInput;
  /** A ready comparer instead of `platform` (an `ordered` list, `onlyStrict`, …). */
  readonly matcher?: PlatformMatchComparer;
  /** The machine a one-part specifier or an empty OS is completed from. */
  readonly host?: HostPlatform;
  /** How many indexes deep to follow; default 4. */
  readonly maxIndexDepth?: number;
  /** The most bytes of the config blob to read; default 1 MiB. */
  readonly maxConfigBytes?: number;
}

/** One index on the way from the image to its manifest.
 *
 * @inline
 */
export interface ResolvedIndex {
  readonly digest: string;
  readonly mediaType: string;
  /** Every entry of the index, in index order. */
  readonly entries: readonly IndexEntry[];
  /** The positions of the entries the node would try, in the order it tries them. */
  readonly candidates: readonly number[];
  /** The position of the entry followed. */
  readonly chosen: number;
}

/** The manifest a node of the platform pulls, with its config. */
export interface PlatformResolution {
  /** The image as asked for, e.g. `127.0.0.1:5000/team/app:1.0`. */
  readonly image: string;
  /** The digest the image's tag points at (an index or a manifest). */
  readonly digest: string;
  /** The indexes followed, outermost first (empty for a single-manifest image). */
  readonly indexes: readonly ResolvedIndex[];
  /** The chosen manifest. */
  readonly manifest: {
    readonly digest: string;
    readonly mediaType: string;
    readonly size: number;
    /** The platform its index entry states, when one does. */
    readonly platform: PlatformInput | undefined;
  };
  /** The config blob's descriptor and what it declares. */
  readonly config: BlobDescriptor & ImageConfigSummary;
  /**
   * Whether the platform the config declares (OS, architecture, variant,
   * OS version and features) matches the node. For a single-manifest image
   * this is the only platform there is: containerd pulls it regardless, and
   * a mismatch ends in "exec format error" on the node.
   */
  readonly configMatches: boolean;
}

/** The client call options out of a function's options. */
export function callOptions(options: RegistryCallOptions): RegistryCallOptions {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
}

/** The index depth option, checked: a positive integer, default {@link DEFAULT_MAX_INDEX_DEPTH}. */
export function checkDepth(where: string, depth: unknown): number {
  if (depth === undefined) return DEFAULT_MAX_INDEX_DEPTH;
  if (typeof depth !== "number" || !Number.isSafeInteger(depth) || depth < 1) {
    throw new RegistryError(
      "INVALID_OPTION",
      `${where}: option maxIndexDepth must be a positive integer`,
    );
  }
  return depth;
}

/** Returns the comparer the options ask for. */
export function comparerFromOptions(options: {
  readonly platform?: string | PlatformInput | undefined;
  readonly matcher?: PlatformMatchComparer | undefined;
  readonly host?: HostPlatform | undefined;
}): PlatformMatchComparer {
  const matcher = options.matcher as unknown;
  if (matcher !== undefined) {
    const m = matcher as Record<string, unknown> | null;
    if (
      typeof m !== "object" ||
      m === null ||
      typeof m.match !== "function" ||
      typeof m.less !== "function"
    ) {
      throw new RegistryError(
        "INVALID_OPTION",
        "option matcher must be a platform comparer (match and less)",
      );
    }
    return options.matcher as PlatformMatchComparer;
  }
  if (options.platform === undefined) {
    throw new RegistryError(
      "INVALID_OPTION",
      "resolving an image for a platform needs the option platform or matcher",
    );
  }
  if (typeof options.platform !== "string") checkPlatformInput("option platform", options.platform);
  const host = options.host;
  if (host !== undefined) checkPlatformInput("option host", host);
  const platform =
    typeof options.platform === "string"
      ? parsePlatform(options.platform, { host })
      : options.platform;
  return defaultMatcher(normalizePlatform(platform, { host }), { host });
}

/** `index` or `manifest`, from the media type, or from the body's shape when the type is missing. */
export function documentKind(
  manifest: Pick<Manifest, "mediaType" | "manifest">,
): "index" | "manifest" | undefined {
  const type = manifest.mediaType;
  if (type !== undefined && INDEX_MEDIA_TYPES.has(type)) return "index";
  if (type !== undefined && IMAGE_MANIFEST_MEDIA_TYPES.has(type)) return "manifest";
  if (type === undefined || type === "application/json") {
    const body = manifest.manifest as Record<string, unknown> | null;
    if (body !== null && typeof body === "object") {
      if (Array.isArray(body.manifests)) return "index";
      if (body.config !== undefined) return "manifest";
    }
  }
  return undefined;
}

function unsupported(reference: string, what: string, mediaType: string | undefined): never {
  throw new RegistryError(
    "UNSUPPORTED",
    `${reference}: ${what} has unsupported media type ${mediaType ?? "(none)"}`,
    {
      reference,
    },
  );
}

/** Checks that a fetched child is the size its descriptor states. */
function checkSize(reference: string, what: string, stated: number, actual: number): void {
  if (stated !== actual) {
    throw new RegistryError(
      "DIGEST_MISMATCH",
      `${reference}: ${what} is ${actual} bytes, its descriptor says ${stated}`,
      {
        reference,
      },
    );
  }
}

/**
 * Returns the manifest a node of the given platform pulls for `image`, and
 * its config.
 *
 * @throws RegistryError `NO_MATCHING_PLATFORM` when an index offers nothing
 * for the platform (its message lists what the index has), `INDEX_TOO_DEEP`
 * past `maxIndexDepth` nested indexes, `INVALID_RESPONSE` for a malformed
 * index, manifest or config (naming the field), `DIGEST_MISMATCH` when a
 * child's bytes or size do not match its descriptor, `UNSUPPORTED` for a
 * chosen entry that is neither an index nor an image manifest, and the
 * client's own errors (`MANIFEST_UNKNOWN`, `UNAUTHORIZED`, …).
 *
 * @example
 * ```ts
 * import { type RegistryClient } from "@kubeimg/registry/client";
 * import { resolveImagePlatform } from "@kubeimg/registry/platform";
 *
 * declare const client: RegistryClient; // createRegistryClient(…)
 * const r = await resolveImagePlatform(client, { domain: "ghcr.io", path: "team/app", tag: "1.0" }, {
 *   platform: "linux/arm64",
 * });
 * r.manifest.digest; // the arm64 manifest
 * r.config.created; // "2025-01-31T12:00:00Z"
 * ```
 */
export async function resolveImagePlatform(
  client: RegistryClient,
  image: RegistryImage,
  options: ResolvePlatformOptions = {},
): Promise<PlatformResolution> {
  checkClient("resolveImagePlatform", client);
  checkOptionsObject("resolveImagePlatform", options);
  options ??= {};
  const comparer = comparerFromOptions(options);
  const maxDepth = checkDepth("resolveImagePlatform", options.maxIndexDepth);
  const call = callOptions(options);
  const top = await client.getManifest(image, call);
  const reference = imageString(image);
  const indexes: ResolvedIndex[] = [];
  let current: Manifest = top;
  let statedPlatform: PlatformInput | undefined;
  let viaIndex = false;
  for (;;) {
    const kind = documentKind(current);
    if (kind === undefined) unsupported(reference, `manifest ${current.digest}`, current.mediaType);
    if (kind === "manifest") break;
    if (indexes.length >= maxDepth) {
      throw new RegistryError(
        "INDEX_TOO_DEEP",
        `${reference}: more than ${maxDepth} nested indexes on the way to a manifest`,
        { reference },
      );
    }
    const entries = readIndex(current.manifest, { reference });
    const usable = entries.filter((e) => !e.attestation);
    const order = orderIndexEntries(comparer, usable);
    const first = order[0];
    if (first === undefined) throw noMatch(reference, top.digest, [...indexes, { entries }]);
    const chosen = usable[first] as IndexEntry;
    indexes.push({
      digest: current.digest,
      mediaType: current.mediaType ?? "",
      entries,
      candidates: order.map((i) => (usable[i] as IndexEntry).position),
      chosen: chosen.position,
    });
    const child = await client.getManifest(
      { domain: image.domain, path: image.path, digest: chosen.digest },
      call,
    );
    checkSize(reference, `manifest ${chosen.digest}`, chosen.size, child.bytes.byteLength);
    if (
      child.mediaType !== undefined &&
      child.mediaType !== chosen.mediaType &&
      chosen.mediaType !== ""
    ) {
      // The descriptor decides how containerd reads the child; a disagreement is a broken index.
      if (
        documentKind(child) !==
        documentKind({ mediaType: chosen.mediaType, manifest: child.manifest })
      ) {
        unsupported(reference, `manifest ${chosen.digest}`, chosen.mediaType);
      }
    }
    statedPlatform = chosen.platform;
    viaIndex = true;
    current = child;
  }

  const configDescriptor = readManifestConfig(current.manifest, { reference });
  const blob = await client.getBlob(
    { domain: image.domain, path: image.path, digest: configDescriptor.digest },
    { ...call, maxBytes: options.maxConfigBytes ?? DEFAULT_MAX_CONFIG_BYTES },
  );
  checkSize(reference, `config ${configDescriptor.digest}`, configDescriptor.size, blob.size);
  const config = readImageConfig(blob.bytes, { reference });
  // containerd's check for a manifest whose index entry states no platform: OS and architecture only.
  if (
    viaIndex &&
    statedPlatform === undefined &&
    !comparer.match(
      normalizePlatform(
        { os: config.os, architecture: config.architecture },
        { host: options.host },
      ),
    )
  ) {
    throw noMatch(reference, top.digest, indexes);
  }
  const configMatches = comparer.match(config);
  return {
    image: reference,
    digest: top.digest,
    indexes,
    manifest: {
      digest: current.digest,
      mediaType: current.mediaType ?? "",
      size: current.bytes.byteLength,
      platform: statedPlatform,
    },
    config: { ...configDescriptor, ...config },
    configMatches,
  };
}

function noMatch(
  reference: string,
  digest: string,
  indexes: readonly { readonly entries: readonly IndexEntry[] }[],
): RegistryError {
  const offered = indexes
    .flatMap((index) => index.entries)
    .filter((e) => !e.attestation && e.platform !== undefined)
    .map((e) => formatPlatform(e.platform as PlatformInput));
  return new RegistryError(
    "NO_MATCHING_PLATFORM",
    `${reference}: no match for platform in manifest ${digest} (it offers ${offered.length === 0 ? "no stated platform" : offered.join(", ")})`,
    { reference },
  );
}
