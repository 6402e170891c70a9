/**
 * Picking a manifest from an image index, as a runtime does: keep the
 * entries the node's comparer matches, sort them stably by its `less`, and
 * take the first. containerd does exactly this in `images.Manifest`
 * (an entry without a platform is kept and sorts after every entry with
 * one); a later entry wins only when the comparer prefers it.
 *
 * @module
 */
import type { PlatformMatchComparer } from "./compare.js";
import type { PlatformInput } from "./platform.js";

function byLess(comparer: PlatformMatchComparer, candidates: readonly PlatformInput[]) {
  return (i: number, j: number): number => {
    const a = candidates[i] as PlatformInput;
    const b = candidates[j] as PlatformInput;
    if (comparer.less(a, b)) return -1;
    if (comparer.less(b, a)) return 1;
    return 0;
  };
}

/**
 * Returns the positions of `candidates` stably sorted by `comparer.less`,
 * matching or not: the order in which a node of the comparer's platform
 * would try them.
 *
 * @example
 * ```ts
 * import { only, sortPlatforms } from "@kubeimg/core/platform";
 *
 * const node = only({ os: "linux", architecture: "arm64" });
 * sortPlatforms(node, [
 *   { os: "linux", architecture: "amd64" },
 *   { os: "linux", architecture: "arm", variant: "v7" },
 *   { os: "linux", architecture: "arm64", variant: "v8" },
 * ]); // [2, 1, 0]
 * ```
 */
export function sortPlatforms(
  comparer: PlatformMatchComparer,
  candidates: readonly PlatformInput[],
): number[] {
  return candidates.map((_, i) => i).sort(byLess(comparer, candidates));
}

/**
 * Returns the position of the platform a node of the comparer's platform
 * picks from an index's platforms (the first of the matching ones, sorted
 * stably by `less`), or `undefined` when none matches.
 *
 * @example
 * ```ts
 * import { only, selectPlatform } from "@kubeimg/core/platform";
 *
 * selectPlatform(only({ os: "linux", architecture: "amd64", variant: "v2" }), [
 *   { os: "linux", architecture: "386" },
 *   { os: "linux", architecture: "amd64" },
 * ]); // 1: amd64 v1 is preferred over 386
 * ```
 */
export function selectPlatform(
  comparer: PlatformMatchComparer,
  candidates: readonly PlatformInput[],
): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as PlatformInput;
    if (!comparer.match(c)) continue;
    // A strict weak order: the first minimum is what a stable sort puts first.
    if (best === undefined || comparer.less(c, candidates[best] as PlatformInput)) best = i;
  }
  return best;
}

/** An entry of an image index as far as choosing goes: its platform, when it states one. */
export interface IndexEntryPlatform {
  readonly platform?: PlatformInput | undefined;
}

/**
 * Returns the positions of the index entries a node would consider, in the
 * order it tries them: entries whose platform the comparer matches, sorted
 * stably by `less`, then entries that state no platform (containerd keeps
 * those: a nested index usually has none), in index order. Mirrors the
 * index step of containerd's `images.Manifest`.
 *
 * @example
 * ```ts
 * import { only, orderIndexEntries } from "@kubeimg/core/platform";
 *
 * orderIndexEntries(only({ os: "linux", architecture: "amd64" }), [
 *   {},
 *   { platform: { os: "linux", architecture: "arm64" } },
 *   { platform: { os: "linux", architecture: "amd64" } },
 * ]); // [2, 0]
 * ```
 */
export function orderIndexEntries(
  comparer: PlatformMatchComparer,
  entries: readonly IndexEntryPlatform[],
): number[] {
  const withPlatform: number[] = [];
  const without: number[] = [];
  const platforms: PlatformInput[] = [];
  for (let i = 0; i < entries.length; i++) {
    const p = (entries[i] as IndexEntryPlatform).platform;
    if (p === undefined) without.push(i);
    else if (comparer.match(p)) withPlatform.push(i);
    platforms[i] = p as PlatformInput;
  }
  withPlatform.sort(byLess(comparer, platforms));
  return [...withPlatform, ...without];
}
