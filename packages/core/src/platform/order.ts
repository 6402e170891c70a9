/**
 * Picking a manifest from an image index, as a runtime does: keep the
 * entries the node's comparer matches, sort them stably by its `less`, and
 * take the first. containerd does exactly this in `images.Manifest`
 * (an entry without a platform is kept and sorts after every entry with
 * one); a later entry wins only when the comparer prefers it.
 *
 * @module
 */
import {
  compareSortKeys,
  keyFunctionOf,
  type PlatformMatchComparer,
  type SortKey,
} from "./compare.js";
import type { PlatformInput } from "./platform.js";

/**
 * Sorts `items` stably by `less`, a strict weak order, asking it once per
 * comparison (`less(later, earlier)`, as Go's stable sort does): insertion
 * into runs, then merging. Any stable sort by the same order gives the same
 * result, which is why this matches sort.SliceStable.
 */
function sortStable<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  const n = items.length;
  const run = 8;
  for (let from = 0; from < n; from += run) {
    const to = Math.min(from + run, n);
    for (let i = from + 1; i < to; i++) {
      const x = items[i] as T;
      let j = i;
      while (j > from && less(x, items[j - 1] as T)) {
        items[j] = items[j - 1] as T;
        j--;
      }
      items[j] = x;
    }
  }
  let source = items;
  let target: T[] = new Array<T>(n);
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      // The right element goes first only when strictly preferred: stability.
      while (i < mid && j < hi) {
        target[k++] = less(source[j] as T, source[i] as T)
          ? (source[j++] as T)
          : (source[i++] as T);
      }
      while (i < mid) target[k++] = source[i++] as T;
      while (j < hi) target[k++] = source[j++] as T;
    }
    [source, target] = [target, source];
  }
  if (source !== items) for (let i = 0; i < n; i++) items[i] = source[i] as T;
  return items;
}

/**
 * Returns `positions` sorted stably by the comparer's order of their
 * platforms. A comparer that orders by a key per candidate has each
 * candidate ranked once (decorate, sort, undecorate); any other is asked
 * `less` once per comparison.
 */
function sortPositions(
  comparer: PlatformMatchComparer,
  positions: number[],
  platforms: readonly PlatformInput[],
  keys?: readonly SortKey[],
): number[] {
  const keyOf = keyFunctionOf(comparer);
  if (keyOf === undefined) {
    return sortStable(positions, (i, j) =>
      comparer.less(platforms[i] as PlatformInput, platforms[j] as PlatformInput),
    );
  }
  const decorated = positions.map((at) => ({
    at,
    key: keys?.[at] ?? keyOf(platforms[at] as PlatformInput),
  }));
  sortStable(decorated, (a, b) => compareSortKeys(a.key, b.key) < 0);
  for (let i = 0; i < decorated.length; i++) positions[i] = (decorated[i] as { at: number }).at;
  return positions;
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
  return sortPositions(
    comparer,
    candidates.map((_, i) => i),
    candidates,
  );
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
  const keyOf = keyFunctionOf(comparer);
  let best: number | undefined;
  let bestKey: SortKey | undefined;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as PlatformInput;
    if (keyOf !== undefined) {
      // One ranking per candidate answers both "matches?" and "preferred?".
      const key = keyOf(c);
      if (!key.matched) continue;
      if (bestKey === undefined || compareSortKeys(key, bestKey) < 0) {
        best = i;
        bestKey = key;
      }
      continue;
    }
    if (!comparer.match(c)) continue;
    // A strict weak order: the first minimum is what a stable sort puts first.
    if (best === undefined || comparer.less(c, candidates[best] as PlatformInput)) best = i;
  }
  return best;
}

/** An entry of an image index as far as choosing goes: its platform, when it states one.
 *
 * @inline
 */
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
  const keyOf = keyFunctionOf(comparer);
  const withPlatform: number[] = [];
  const without: number[] = [];
  const platforms: PlatformInput[] = [];
  const keys: SortKey[] = [];
  for (let i = 0; i < entries.length; i++) {
    const p = (entries[i] as IndexEntryPlatform).platform;
    platforms[i] = p as PlatformInput;
    if (p === undefined) without.push(i);
    else if (keyOf !== undefined) {
      // Matching and ranking are one computation: keep the key for the sort.
      const key = keyOf(p);
      keys[i] = key;
      if (key.matched) withPlatform.push(i);
    } else if (comparer.match(p)) withPlatform.push(i);
  }
  sortPositions(comparer, withPlatform, platforms, keys);
  return [...withPlatform, ...without];
}
