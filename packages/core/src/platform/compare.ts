/**
 * Matchers that also order: given the platforms of an image index, which
 * ones may run here and which one is preferred. This is what a runtime uses
 * to pick a manifest (see `order.ts`).
 *
 * Mirrors compare.go of containerd/platforms v1.0.0-rc.4 (`Only`,
 * `OnlyStrict`, `OnlyOS`, `Ordered`, `Any`, `All`) and the comparer a
 * Windows host uses as its default (platform_windows_compat.go). Each
 * comparer's `less` orders by a key: the position of the first preference a
 * candidate matches, then more OS features first, so any stable sort gives
 * containerd's order.
 *
 * @module
 */
import { Compare } from "../internal/strings.js";
import { normalizeArch } from "./database.js";
import {
  compileExact,
  osFeaturesMatch,
  type PlatformMatcher,
  type PreparedCandidate,
  prepareCandidate,
} from "./matcher.js";
import { normalizePlatform } from "./normalize.js";
import { type PlatformInput, type PlatformOptions, platformsRelease } from "./platform.js";
import { compareDecimalText, type Preference, platformPreferences } from "./platform-vector.js";
import { windowsVersionMatcher } from "./windows-version.js";

/** The kinds of comparer this module builds, named after their upstream constructors.
 *
 * @inline
 */
export type MatchComparerKind =
  | "only"
  | "onlyStrict"
  | "onlyOS"
  | "ordered"
  | "any"
  | "all"
  | "windowsHost";

/**
 * A matcher that also ranks: `less(a, b)` is true when `a` is preferred
 * over `b` (containerd's `MatchComparer`). Sorting an index's platforms
 * stably by `less` gives the order a runtime tries them in.
 *
 * @example
 * ```ts
 * import { only } from "@kubeimg/core/platform";
 *
 * const node = only({ os: "linux", architecture: "arm64" });
 * node.match({ os: "linux", architecture: "arm", variant: "v7" }); // true: arm64 nodes run 32-bit arm
 * node.less({ os: "linux", architecture: "arm64" }, { os: "linux", architecture: "arm", variant: "v7" }); // true
 * ```
 */
export interface PlatformMatchComparer extends PlatformMatcher {
  /** Which constructor built it. */
  readonly kind: MatchComparerKind;
  /** Returns true when `a` sorts strictly before `b`. */
  less(a: PlatformInput, b: PlatformInput): boolean;
}

/** Where a candidate ranks: the index of the first preference it matches, then its place in a variant run. */
interface Rank {
  readonly at: number;
  /** The variant number inside a run (higher is preferred), `""` for an exact preference. */
  readonly variant: string;
}

/**
 * A candidate's place in an ordered comparer's order, computed once: ranked
 * candidates (those it matches) first by {@link Rank}, more OS features
 * first among equals; then the others, by the rank they would have without
 * their OS features (unranked last). Comparing two keys answers
 * orderedPlatformComparer.Less for the two candidates, so sorting by keys is
 * sorting by `less`, with each candidate ranked once.
 */
export interface SortKey {
  /** Whether the comparer matches the candidate. */
  readonly matched: boolean;
  readonly rank: Rank | undefined;
  /** The candidate's OS-feature count when matched (more sorts first), else 0. */
  readonly features: number;
}

/** The variant number of `v<n>` (no leading zero), or `undefined`. */
function variantNumber(variant: string): string | undefined {
  if (variant.length < 2 || variant.charCodeAt(0) !== 0x76) return undefined;
  const first = variant.charCodeAt(1);
  if (first < 0x31 || first > 0x39) return undefined;
  for (let i = 2; i < variant.length; i++) {
    const c = variant.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  return variant.slice(1);
}

function rankOf(
  preferences: readonly Preference[],
  candidate: PreparedCandidate,
): Rank | undefined {
  for (let i = 0; i < preferences.length; i++) {
    const p = preferences[i] as Preference;
    const variant = p.matcher.variantOf(candidate);
    if (variant === undefined) continue;
    if (p.kind === "exact") {
      if (variant === p.matcher.platform.variant) return { at: i, variant: "" };
      continue;
    }
    let n: string | undefined;
    if (variant === "") n = p.emptyIsOne ? "1" : undefined;
    else if (!(p.emptyIsOne && variant === "v1")) n = variantNumber(variant);
    if (n === undefined) continue;
    if (compareDecimalText(n, String(p.lowest)) < 0 || compareDecimalText(n, p.highest) > 0)
      continue;
    return { at: i, variant: n };
  }
  return undefined;
}

function compareRank(a: Rank | undefined, b: Rank | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (a.at !== b.at) return a.at - b.at;
  // Inside a run, the higher variant comes first.
  return -compareDecimalText(a.variant, b.variant);
}

function featureCount(p: PlatformInput): number {
  return p.osFeatures?.length ?? 0;
}

function withoutFeatures(p: PlatformInput): PlatformInput {
  return { ...p, osFeatures: [] };
}

/** The key of a candidate no preference matches, with or without its features. */
const UNMATCHED: SortKey = { matched: false, rank: undefined, features: 0 };

/**
 * Returns `candidate` ready for {@link rankOf}, or `undefined` when no
 * preference names its architecture (none can match it; most index entries).
 */
function preparedIfPreferred(
  architectures: ReadonlySet<string>,
  hostOS: string | undefined,
  candidate: PlatformInput,
): PreparedCandidate | undefined {
  const arch = normalizeArch(candidate.architecture, candidate.variant ?? "");
  return architectures.has(arch[0]) ? prepareCandidate(candidate, hostOS, arch) : undefined;
}

/**
 * Returns the sort key of `candidate` under `preferences`, whose
 * architectures are `architectures` (see {@link SortKey}).
 */
function sortKeyOf(
  preferences: readonly Preference[],
  architectures: ReadonlySet<string>,
  hostOS: string | undefined,
  candidate: PlatformInput,
): SortKey {
  const prepared = preparedIfPreferred(architectures, hostOS, candidate);
  if (prepared === undefined) return UNMATCHED;
  const ranked = rankOf(preferences, prepared);
  if (ranked !== undefined)
    return { matched: true, rank: ranked, features: featureCount(candidate) };
  // Upstream compares two unmatched candidates again without their features.
  const withoutFeatures =
    featureCount(candidate) > 0
      ? rankOf(preferences, { ...prepared, osFeatures: undefined })
      : undefined;
  return { matched: false, rank: withoutFeatures, features: 0 };
}

/** Orders two sort keys: negative when the first candidate is preferred. */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (a.matched !== b.matched) return a.matched ? -1 : 1;
  const c = compareRank(a.rank, b.rank);
  if (c !== 0) return c;
  return b.features - a.features;
}

/**
 * Internal to this package: the sort key of a candidate under a comparer
 * that ranks by keys, so `order.ts` ranks each candidate once.
 */
export const sortKeyFor: unique symbol = /*#__PURE__*/ Symbol("sortKeyFor") as never;

/** A comparer whose order is a key per candidate. */
export interface KeyedComparer extends PlatformMatchComparer {
  readonly [sortKeyFor]: (candidate: PlatformInput) => SortKey;
}

/** Returns the key function of `comparer` when it orders by keys. */
export function keyFunctionOf(
  comparer: PlatformMatchComparer,
): ((candidate: PlatformInput) => SortKey) | undefined {
  return (comparer as Partial<KeyedComparer>)[sortKeyFor];
}

function orderedComparer(
  kind: MatchComparerKind,
  preferences: readonly Preference[],
  hostOS: string | undefined,
): KeyedComparer {
  const architectures = new Set<string>();
  for (let i = 0; i < preferences.length; i++) {
    architectures.add((preferences[i] as Preference).matcher.platform.architecture);
  }
  const keyOf = (candidate: PlatformInput) =>
    sortKeyOf(preferences, architectures, hostOS, candidate);
  return {
    kind,
    match: (candidate) => {
      const prepared = preparedIfPreferred(architectures, hostOS, candidate);
      return prepared !== undefined && rankOf(preferences, prepared) !== undefined;
    },
    less: (a, b) => compareSortKeys(keyOf(a), keyOf(b)) < 0,
    [sortKeyFor]: keyOf,
  };
}

/**
 * Returns a comparer over a preference list: a candidate matches when one
 * of the platforms matches it exactly, and ranks by the first that does
 * (earlier wins; between two caught by the same one, more OS features
 * first). This is `--platform a,b`. Mirrors Ordered.
 *
 * @example
 * ```ts
 * import { ordered } from "@kubeimg/core/platform";
 *
 * const c = ordered([{ os: "linux", architecture: "arm64" }, { os: "linux", architecture: "amd64" }]);
 * c.less({ os: "linux", architecture: "arm64" }, { os: "linux", architecture: "amd64" }); // true
 * ```
 */
export function ordered(
  platforms: readonly PlatformInput[],
  options: PlatformOptions = {},
): PlatformMatchComparer {
  return orderedComparer(
    "ordered",
    platforms.map((p) => ({ kind: "exact", matcher: compileExact(p, options) })),
    options.host?.os,
  );
}

/**
 * Returns the comparer of a machine of `platform`: the platform itself, then
 * the older ones it also runs (amd64 v3 runs v2, v1 and 386; arm64 runs
 * older arm64 variants and 32-bit arm v8 … v5; arm v7 runs v6 and v5), in
 * that order. This is containerd's default on a Linux node. An arm64
 * variant containerd does not know (`v8.10`, `v10`) matches nothing.
 * Mirrors Only.
 *
 * @example
 * ```ts
 * import { only } from "@kubeimg/core/platform";
 *
 * const node = only({ os: "linux", architecture: "amd64", variant: "v3" });
 * node.match({ os: "linux", architecture: "386" }); // true
 * node.match({ os: "linux", architecture: "amd64", variant: "v4" }); // false
 * ```
 */
export function only(
  platform: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatchComparer {
  return orderedComparer(
    "only",
    platformPreferences(normalizePlatform(platform, options), options),
    options.host?.os,
  );
}

/**
 * Returns the comparer that matches the normalized platform alone, with no
 * older fallbacks: containerd's `DefaultStrict()`. Mirrors OnlyStrict.
 *
 * @example
 * ```ts
 * import { onlyStrict } from "@kubeimg/core/platform";
 *
 * onlyStrict({ os: "linux", architecture: "amd64", variant: "v3" }).match({ os: "linux", architecture: "amd64" }); // false
 * ```
 */
export function onlyStrict(
  platform: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatchComparer {
  return orderedComparer(
    "onlyStrict",
    [{ kind: "exact", matcher: compileExact(normalizePlatform(platform, options), options) }],
    options.host?.os,
  );
}

/**
 * Returns a comparer for which every candidate that one of the platforms
 * matches ranks the same (more OS features first), before all others.
 * Mirrors Any.
 *
 * @example
 * ```ts
 * import { anyOf } from "@kubeimg/core/platform";
 *
 * const c = anyOf([{ os: "linux", architecture: "arm64" }, { os: "linux", architecture: "amd64" }]);
 * c.less({ os: "linux", architecture: "amd64" }, { os: "linux", architecture: "arm64" }); // false: equal rank
 * ```
 */
export function anyOf(
  platforms: readonly PlatformInput[],
  options: PlatformOptions = {},
): PlatformMatchComparer {
  const matchers = platforms.map((p) => compileExact(p, options));
  const matchesAny = (p: PlatformInput) => matchers.some((m) => m.match(p));
  const less = (a: PlatformInput, b: PlatformInput): boolean => {
    const ma = matchesAny(a);
    const mb = matchesAny(b);
    if (ma && mb) return featureCount(a) > featureCount(b);
    if (!ma && !mb && (featureCount(a) > 0 || featureCount(b) > 0)) {
      return less(withoutFeatures(a), withoutFeatures(b));
    }
    return ma && !mb;
  };
  return { kind: "any", match: matchesAny, less };
}

/**
 * The comparer that matches every platform and prefers none: an index's
 * own order decides. Mirrors All.
 *
 * @example
 * ```ts
 * import { allPlatforms } from "@kubeimg/core/platform";
 *
 * allPlatforms.match({ os: "plan9", architecture: "386" }); // true
 * ```
 */
export const allPlatforms: PlatformMatchComparer = {
  kind: "all",
  match: () => true,
  less: () => false,
};

/**
 * Returns a comparer that requires the OS alone (with the Windows build rule
 * when the OS is `windows`, and the OS-feature rule), any architecture;
 * among matching candidates, the exact platform first. Mirrors OnlyOS.
 *
 * @example
 * ```ts
 * import { onlyOS } from "@kubeimg/core/platform";
 *
 * onlyOS({ os: "linux", architecture: "amd64" }).match({ os: "linux", architecture: "s390x" }); // true
 * ```
 */
export function onlyOS(
  platform: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatchComparer {
  const own = normalizePlatform(platform, options);
  const versionOk =
    own.os === "windows"
      ? windowsVersionMatcher(own.osVersion, platformsRelease(options))
      : undefined;
  const archOrder = orderedComparer(
    "onlyOS",
    [{ kind: "exact", matcher: compileExact(own, options) }],
    options.host?.os,
  );
  const matchOS = (candidate: PlatformInput): boolean => {
    if (normalizePlatform(candidate, options).os !== own.os) return false;
    if (versionOk !== undefined && !versionOk(candidate.osVersion ?? "")) return false;
    return osFeaturesMatch(candidate.osFeatures, own.osFeatures);
  };
  return {
    kind: "onlyOS",
    match: matchOS,
    less: (a, b) => {
      const ma = matchOS(a);
      if (ma && !matchOS(b)) return true;
      if (!ma) return false;
      return archOrder.less(a, b);
    },
  };
}

/**
 * Returns what containerd's `Default()` is on a Windows machine whose own
 * platform is `host`: candidates match as {@link newMatcher} of it decides,
 * and among matching ones the greater `osVersion` (compared as text) comes
 * first, so the newest compatible build wins.
 *
 * @example
 * ```ts
 * import { windowsHost } from "@kubeimg/core/platform";
 *
 * const c = windowsHost({ os: "windows", architecture: "amd64", osVersion: "10.0.20348.100" });
 * c.less(
 *   { os: "windows", architecture: "amd64", osVersion: "10.0.20348.2" },
 *   { os: "windows", architecture: "amd64", osVersion: "10.0.20348.10" },
 * ); // true: "…2" > "…10" as text
 * ```
 */
export function windowsHost(
  host: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatchComparer {
  const exact = compileExact(host, options);
  return {
    kind: "windowsHost",
    match: exact.match,
    less: (a, b) => {
      const ma = exact.match(a);
      const mb = exact.match(b);
      if (ma && mb) return Compare(a.osVersion ?? "", b.osVersion ?? "") > 0;
      return ma && !mb;
    },
  };
}

/**
 * Returns the comparer containerd uses by default on a machine of platform
 * `host`: {@link windowsHost} on Windows, {@link only} everywhere else.
 *
 * @example
 * ```ts
 * import { defaultMatcher } from "@kubeimg/core/platform";
 *
 * defaultMatcher({ os: "linux", architecture: "arm64", variant: "v8" }).kind; // "only"
 * ```
 */
export function defaultMatcher(
  host: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatchComparer {
  return host.os === "windows" ? windowsHost(host, options) : only(host, options);
}

/**
 * Returns containerd's `DefaultStrict()` for a machine of platform `host`:
 * that platform alone ({@link onlyStrict}).
 */
export function defaultStrictMatcher(
  host: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatchComparer {
  return onlyStrict(host, options);
}
