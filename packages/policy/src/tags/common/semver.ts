/**
 * The two Masterminds readings the updaters apply to a tag, without throwing:
 * `NewVersion` (lenient: `v`, `1`, `1.2`, leading zeros; semver's own
 * `tryParseVersion`) and `StrictNewVersion`; and Flux's pre-release test,
 * which holds for the lenient reading too (same grammar up to the `-`).
 */

import { isSemverError } from "../../semver/errors.js";
import {
  type Constraints,
  parseStrictVersion,
  type SemverRelease,
  type Version,
} from "../../semver/index.js";
import { tryParseVersion as tryParseSemver } from "../../semver/version.js";

/**
 * The Masterminds/semver release each tool builds with, checked in its
 * `go.mod`: Flux image-reflector-controller v1.2.0 pins v3.5.0, Argo CD Image
 * Updater v1.3.0 (through its registry-scanner module) and Kargo v1.11.2 pin
 * v3.4.0. It decides how constraint errors quote their text and whether long
 * versions and constraints are refused (see `semver/release.ts`).
 */
export const dialectSemverReleases: Readonly<Record<"flux" | "argocd" | "kargo", SemverRelease>> =
  Object.freeze({ flux: "v3.5.0", argocd: "v3.4.0", kargo: "v3.4.0" });

/** What both updaters pass Masterminds (they pin the same release). */
export const updaterSemver = Object.freeze({ semver: dialectSemverReleases.argocd });

/** Masterminds `NewVersion` of the updaters' release, or undefined when it refuses `tag`. */
export function tryParseVersion(tag: string): Version | undefined {
  return tryParseSemver(tag, updaterSemver);
}

/** Whether `constraints` can accept a pre-release at all (Masterminds checks none otherwise). */
export function admitsPrerelease(constraints: Constraints): boolean {
  return constraints.includePrerelease || constraints.containsPrerelease.includes(true);
}

const maxUint64 = "18446744073709551615";

/** `[0-9A-Za-z-]`. */
function isIdentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45;
}

/**
 * Whether `s[start:end]` is one `StrictNewVersion` number: digits, no
 * leading zero, at most 2^64-1.
 */
function strictNumber(s: string, start: number, end: number): boolean {
  const n = end - start;
  if (n === 0 || (n > 1 && s.charCodeAt(start) === 48)) return false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return n < 20 || (n === 20 && s.slice(start, end) <= maxUint64);
}

/**
 * Whether `s[start:end]` is dot-separated identifiers, each non-empty;
 * `numeric` also refuses a numeric identifier with a leading zero
 * (Masterminds' pre-release rule).
 */
function identifiers(s: string, start: number, end: number, numeric: boolean): boolean {
  let from = start;
  let digits = true;
  for (let i = start; i <= end; i++) {
    const c = i === end ? 46 : s.charCodeAt(i);
    if (c === 46) {
      if (i === from) return false;
      if (numeric && digits && i - from > 1 && s.charCodeAt(from) === 48) return false;
      from = i + 1;
      digits = true;
    } else if (!isIdentChar(c)) {
      return false;
    } else if (c < 48 || c > 57) {
      digits = false;
    }
  }
  return true;
}

/**
 * Whether Masterminds `StrictNewVersion` accepts `s`, without building the
 * version or an error: what {@link tryParseStrictVersion} answers, at a
 * fraction of its cost on a miss. Held to it by a property test.
 */
export function isStrictVersion(s: string): boolean {
  const first = s.indexOf(".");
  const second = first < 0 ? -1 : s.indexOf(".", first + 1);
  if (second < 0) return false;
  // The third part runs to the end; metadata after the first `+`, then a
  // pre-release after the first `-` before it.
  let end = s.length;
  const plus = s.indexOf("+", second + 1);
  if (plus >= 0) {
    if (!identifiers(s, plus + 1, end, false)) return false;
    end = plus;
  }
  const dash = s.indexOf("-", second + 1);
  if (dash >= 0 && dash < end) {
    if (!identifiers(s, dash + 1, end, true)) return false;
    end = dash;
  }
  return (
    strictNumber(s, 0, first) &&
    strictNumber(s, first + 1, second) &&
    strictNumber(s, second + 1, end)
  );
}

/** Masterminds `StrictNewVersion`, or undefined when it refuses `tag`. */
export function tryParseStrictVersion(tag: string): Version | undefined {
  try {
    return parseStrictVersion(tag, updaterSemver);
  } catch (error) {
    if (isSemverError(error)) return undefined;
    throw error;
  }
}

/**
 * True when `tag`, read as a version, would carry a pre-release: the
 * character after `v?digits(.digits){0,2}` is `-`. (When the tag is not a
 * version at all the answer does not matter: it is skipped either way.)
 */
export function hasPrerelease(tag: string): boolean {
  let i = tag.charCodeAt(0) === 0x76 ? 1 : 0;
  for (let dots = 0; ; ) {
    const start = i;
    while (i < tag.length) {
      const c = tag.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      i++;
    }
    if (i === start) return false;
    if (tag.charCodeAt(i) !== 0x2e || dots === 2) break;
    dots++;
    i++;
  }
  return tag.charCodeAt(i) === 0x2d;
}
