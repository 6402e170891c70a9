/**
 * Can this image serve a node of this platform? The question behind a
 * platform-aware availability check: a mirror that holds only the amd64
 * image of a multi-platform tag answers a manifest HEAD with 200, and an
 * arm64 pod routed to it then fails to start. The answer follows containerd's
 * choice (see `resolve.ts`): the index entries the node's comparer matches
 * come first; failing those, the first entry that states no platform is
 * followed (a nested index is looked into; a manifest needs its config).
 */
import {
  defaultMatcher,
  formatPlatform,
  type HostPlatform,
  normalizePlatform,
  orderIndexEntries,
  type PlatformInput,
  type PlatformMatchComparer,
  type PlatformsRelease,
  parsePlatform,
} from "@kubeimg/core/platform";
import type { RegistryCallOptions } from "../client/options.js";
import type { RegistryClient } from "../client/registry-client.js";
import { isRegistryError } from "../errors/index.js";
import type { RegistryImage } from "../image/image-name.js";
import {
  checkClient,
  checkOptionsObject,
  checkPlatformInput,
  checkPlatformList,
} from "./checks.js";
import type { ImagePlatforms, ListedEntry } from "./list.js";
import { listImagePlatforms } from "./list.js";
import { documentKind, resolveImagePlatform } from "./resolve.js";

/** `yes`, `no`, or `config` when only the config of a manifest without a stated platform can tell. */
type Served = "yes" | "no" | "config";

function servedBy(entries: readonly ListedEntry[], comparer: PlatformMatchComparer): Served {
  const usable = entries.filter((e) => !e.attestation);
  const first = orderIndexEntries(comparer, usable)[0];
  if (first === undefined) return "no";
  const entry = usable[first] as ListedEntry;
  if (documentKind({ mediaType: entry.mediaType, manifest: undefined }) === "index") {
    return servedBy(entry.children ?? [], comparer);
  }
  return entry.platform === undefined ? "config" : "yes";
}

/**
 * Returns the comparer of a node of platform `platform` (containerd's
 * default there), from a specifier or a platform object, as the
 * containerd/platforms release `options.platforms` decides (default the newest).
 */
export function nodeComparer(
  platform: string | PlatformInput,
  host?: HostPlatform,
  options: { readonly platforms?: PlatformsRelease } = {},
): PlatformMatchComparer {
  if (typeof platform !== "string") checkPlatformInput("nodeComparer: platform", platform);
  if (host !== undefined) checkPlatformInput("nodeComparer: host", host);
  checkOptionsObject("nodeComparer", options);
  const release = { host, platforms: options.platforms };
  const p = typeof platform === "string" ? parsePlatform(platform, release) : platform;
  return defaultMatcher(normalizePlatform(p, release), release);
}

/** What {@link imageServesPlatforms} found: the platforms the image cannot serve (empty when it serves all). */
export interface PlatformsServed {
  readonly missing: readonly PlatformInput[];
  readonly listing: ImagePlatforms;
}

/**
 * Returns which of `platforms` the image cannot serve, reading its index
 * (one request, plus one per nested index) or, for a single manifest, its
 * config. Only a manifest listed without a platform costs a further
 * resolution.
 */
export async function imageServesPlatforms(
  client: RegistryClient,
  image: RegistryImage,
  platforms: readonly PlatformInput[],
  options: RegistryCallOptions & {
    readonly host?: HostPlatform;
    /** The containerd/platforms release whose matching to reproduce; default the newest. */
    readonly platformsRelease?: PlatformsRelease;
  } = {},
): Promise<PlatformsServed> {
  checkClient("imageServesPlatforms", client);
  checkPlatformList("imageServesPlatforms: platforms", platforms);
  checkOptionsObject("imageServesPlatforms", options);
  const { host, platformsRelease, ...call } = options ?? {};
  const listing = await listImagePlatforms(client, image, call);
  const missing: PlatformInput[] = [];
  for (const platform of platforms) {
    const comparer = nodeComparer(platform, host, { platforms: platformsRelease });
    let served: Served;
    if (listing.kind === "manifest") {
      served = comparer.match(listing.config) ? "yes" : "no";
    } else {
      served = servedBy(listing.entries, comparer);
      if (served === "config") {
        try {
          await resolveImagePlatform(client, image, { ...call, matcher: comparer });
          served = "yes";
        } catch (error) {
          if (!isRegistryError(error) || error.code !== "NO_MATCHING_PLATFORM") throw error;
          served = "no";
        }
      }
    }
    if (served === "no") missing.push(platform);
  }
  return { missing, listing };
}

/**
 * Returns the reason a platform-aware check gives when the image exists but
 * not for every platform: `available, but no linux/arm64 manifest`.
 */
export function missingPlatformsReason(missing: readonly PlatformInput[]): string {
  checkPlatformList("missingPlatformsReason: missing", missing);
  return `available, but no ${missing.map((p) => formatPlatform(p)).join(" or ")} manifest`;
}
