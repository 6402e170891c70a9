/**
 * The exact matcher: does a candidate platform (an entry of an image index)
 * run on this platform, with no fallbacks? Every other matcher is built
 * from these.
 *
 * Mirrors NewMatcher of containerd/platforms v1.0.0-rc.4: both sides are
 * normalized; OS, architecture and variant must be equal; a Windows matcher
 * (its `os` written exactly `windows`) also checks the OS build (see
 * `windows-version.ts`) and ignores a `win32k` feature the candidate lists;
 * the candidate's OS features must all be among the matcher's.
 *
 * @module
 */

import { Compare } from "../internal/strings.js";
import { normalizeArch, normalizeOS } from "./database.js";
import { normalizeOSFeatures, normalizePlatform } from "./normalize.js";
import {
  type Platform,
  type PlatformInput,
  type PlatformOptions,
  platformsRelease,
} from "./platform.js";
import { windowsVersionMatcher } from "./windows-version.js";

/**
 * Answers whether a candidate platform matches.
 *
 * @example
 * ```ts
 * import { newMatcher } from "@kubeimg/core/platform";
 *
 * newMatcher({ os: "linux", architecture: "arm64" }).match({ os: "linux", architecture: "aarch64" }); // true
 * ```
 */
export interface PlatformMatcher {
  /** Returns true when `candidate` matches. */
  match(candidate: PlatformInput): boolean;
}

/** The compiled form of an exact matcher, shared by the comparers. */
export interface ExactMatcher extends PlatformMatcher {
  /** The matcher's platform, normalized. */
  readonly platform: Platform;
  /** The OS a candidate without one is read as (the `host` option's). */
  readonly hostOS: string | undefined;
  /**
   * Matches everything but the variant (the comparers' variant ranges decide
   * that part), on a candidate normalized once by {@link prepareCandidate}
   * with this matcher's `hostOS`: its normalized variant, or `undefined`.
   */
  variantOf(candidate: PreparedCandidate): string | undefined;
}

/**
 * A candidate with its OS, architecture and variant normalized, so that a
 * comparer holding several preferences normalizes it once, not once per
 * preference.
 */
export interface PreparedCandidate {
  readonly os: string;
  readonly architecture: string;
  readonly variant: string;
  readonly osVersion: string;
  readonly osFeatures: readonly string[] | undefined;
}

/**
 * Returns `candidate` ready for {@link ExactMatcher.variantOf}; `hostOS`
 * stands in for an empty OS. `normalizedArch`: its architecture and variant
 * normalized, when the caller has them already.
 */
export function prepareCandidate(
  candidate: PlatformInput,
  hostOS: string | undefined,
  normalizedArch: readonly [string, string] = normalizeArch(
    candidate.architecture,
    candidate.variant ?? "",
  ),
): PreparedCandidate {
  const [architecture, variant] = normalizedArch;
  return {
    os: normalizeOS(candidate.os, hostOS),
    architecture,
    variant,
    osVersion: candidate.osVersion ?? "",
    osFeatures: candidate.osFeatures,
  };
}

/** True when every feature of sorted `candidate` is in sorted `own` (both duplicate-free). */
function featuresSubset(candidate: readonly string[], own: readonly string[]): boolean {
  if (candidate.length === 0) return true;
  if (own.length < candidate.length) return false;
  let j = 0;
  for (const feature of candidate) {
    let found = false;
    for (; j < own.length; j++) {
      const c = Compare(feature, own[j] as string);
      if (c === 0) {
        found = true;
        j++;
        break;
      }
      if (c < 0) return false;
    }
    if (!found) return false;
  }
  return true;
}

/** Mirrors the feature-subset rule of both matcher.Match and onlyOSComparer.matchOS. */
export function osFeaturesMatch(
  candidate: readonly string[] | undefined,
  own: readonly string[],
): boolean {
  if (candidate === undefined || candidate.length === 0) return true;
  return featuresSubset(normalizeOSFeatures(candidate), own);
}

/** Drops the first feature spelled exactly `win32k`, as containerd's Windows matcher does. */
function withoutWin32k(features: readonly string[] | undefined): readonly string[] | undefined {
  if (features === undefined) return undefined;
  const i = features.indexOf("win32k");
  if (i < 0) return features;
  return [...features.slice(0, i), ...features.slice(i + 1)];
}

/** Builds the exact matcher; `os` is checked against the raw `windows` spelling as upstream does. */
export function compileExact(platform: PlatformInput, options: PlatformOptions): ExactMatcher {
  const release = platformsRelease(options);
  const own = normalizePlatform(platform, options);
  const hostOS = options.host?.os;
  const windows = platform.os === "windows";
  const versionOk = windows ? windowsVersionMatcher(platform.osVersion ?? "", release) : undefined;
  const variantOf = (candidate: PreparedCandidate): string | undefined => {
    if (candidate.os !== own.os || candidate.architecture !== own.architecture) return undefined;
    if (versionOk !== undefined && !versionOk(candidate.osVersion)) return undefined;
    const features = windows ? withoutWin32k(candidate.osFeatures) : candidate.osFeatures;
    if (!osFeaturesMatch(features, own.osFeatures)) return undefined;
    return candidate.variant;
  };
  return {
    platform: own,
    hostOS,
    variantOf,
    match: (candidate) => variantOf(prepareCandidate(candidate, hostOS)) === own.variant,
  };
}

/**
 * Returns the exact matcher of `platform`: a candidate matches when, both
 * normalized, OS, architecture and variant are equal, its OS features are
 * all among the matcher's, and, for a matcher whose `os` is written exactly
 * `windows`, its OS build is one a Windows host of the matcher's version
 * runs (`win32k` in the candidate's features is then ignored). Mirrors
 * NewMatcher.
 *
 * @example
 * ```ts
 * import { newMatcher } from "@kubeimg/core/platform";
 *
 * const m = newMatcher({ os: "linux", architecture: "arm", variant: "v7" });
 * m.match({ os: "linux", architecture: "armhf" }); // true
 * m.match({ os: "linux", architecture: "arm", variant: "v6" }); // false: exact, no fallbacks
 * ```
 */
export function newMatcher(
  platform: PlatformInput,
  options: PlatformOptions = {},
): PlatformMatcher {
  const exact = compileExact(platform, options);
  return { match: exact.match };
}
