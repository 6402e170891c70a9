/**
 * Argo CD's pick over a prepared tag list, for a selection without an explain
 * trace (`semver`, `alphabetical`, `newest-build`). The entries were checked
 * when the list was prepared, so this is a loop over its arrays, and it
 * answers for every list the plain path answers for, repeated names and
 * non-ASCII ones included (the prepared list knows both):
 *
 * - a repeated name is read with the metadata of its last occurrence, as the
 *   plain path does, so every entry of a name carries the same key;
 * - names are compared natively unless a name of the list holds a character
 *   from U+D800 up, and then in Go's byte order.
 *
 * It answers undefined only when nothing is picked (the plain path then says
 * why) or, for `semver`, when the constraint does not parse.
 */
import { strings } from "@kubeimg/core/internal";
import { type Constraints, compareVersions, type Version } from "../../semver/index.js";
import type { PreparedData } from "../dialect/prepared.js";
import { admitsPrerelease, hasPrerelease, tryParseVersion } from "../dialect/semver.js";
import { ZERO_INSTANT } from "../dialect/tag-list.js";
import type { ArgoPassRules } from "./single-pass.js";

/** Returns the index of Argo CD's pick in the prepared list, or undefined (see above). */
export function argoPreparedPass(d: PreparedData, rules: ArgoPassRules): number | undefined {
  switch (rules.strategy) {
    case "semver":
      return rules.constraints === undefined
        ? undefined
        : semver(d.names, rules.keeps, rules.constraints);
    case "alphabetical":
      return d.highChars
        ? alphabeticalGo(d.names, rules.keeps)
        : alphabetical(d.names, rules.keeps);
    default:
      return newestBuild(d, rules.keeps, rules.platformsWanted);
  }
}

function semver(
  names: readonly string[],
  keeps: ((tag: string) => boolean) | undefined,
  constraints: Constraints,
): number | undefined {
  const skipPrerelease = !admitsPrerelease(constraints);
  let best = -1;
  let bestName = "";
  let bestVersion: Version | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (keeps !== undefined && !keeps(name)) continue;
    if (skipPrerelease && hasPrerelease(name)) continue;
    const v = tryParseVersion(name);
    if (v === undefined) continue;
    if (bestVersion !== undefined) {
      const order = compareVersions(v, bestVersion);
      if (order < 0 || (order === 0 && strings.Compare(name, bestName) <= 0)) continue;
    }
    if (!constraints.check(v)) continue;
    best = i;
    bestName = name;
    bestVersion = v;
  }
  return best < 0 ? undefined : best;
}

/** The greatest name in the native order (which is Go's byte order when no name holds U+D800 up). */
function alphabetical(
  names: readonly string[],
  keeps: ((tag: string) => boolean) | undefined,
): number | undefined {
  let best = -1;
  let bestName = "";
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (best >= 0 && !(name > bestName)) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    best = i;
    bestName = name;
  }
  return best < 0 ? undefined : best;
}

/** The greatest name in Go's byte order. */
function alphabeticalGo(
  names: readonly string[],
  keeps: ((tag: string) => boolean) | undefined,
): number | undefined {
  let best = -1;
  let bestName = "";
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (best >= 0 && strings.Compare(name, bestName) <= 0) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    best = i;
    bestName = name;
  }
  return best < 0 ? undefined : best;
}

function newestBuild(
  d: PreparedData,
  keeps: ((tag: string) => boolean) | undefined,
  platformsWanted: (platforms: readonly string[]) => boolean,
): number | undefined {
  const { names, ms: times, nanos: subMs, platforms: allPlatforms, last, highChars } = d;
  const zeroMs = ZERO_INSTANT.ms;
  let best = -1;
  let bestName = "";
  let bestMs = 0;
  let bestNanos = 0;
  for (let i = 0; i < names.length; i++) {
    // Every entry of a name reads its last occurrence's metadata.
    const at = last[i] as number;
    let ms = times[at] as number;
    let nanos = subMs[at] as number;
    const platforms = allPlatforms[at];
    // An index's time is kept from Go's zero time up (`argoCreated` in select.ts).
    if (platforms !== undefined && ms < zeroMs) {
      ms = zeroMs;
      nanos = 0;
    }
    const name = names[i] as string;
    if (best >= 0) {
      if (ms < bestMs) continue;
      if (ms === bestMs) {
        if (nanos < bestNanos) continue;
        if (
          nanos === bestNanos &&
          (highChars ? strings.Compare(name, bestName) <= 0 : !(name > bestName))
        ) {
          continue;
        }
      }
    }
    if (keeps !== undefined && !keeps(name)) continue;
    if (platforms !== undefined && !platformsWanted(platforms)) continue;
    best = i;
    bestName = name;
    bestMs = ms;
    bestNanos = nanos;
  }
  return best < 0 ? undefined : best;
}
