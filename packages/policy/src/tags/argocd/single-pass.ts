/**
 * Argo CD's pick in one pass over the entries, for a selection without an
 * explain trace (`semver`, `alphabetical`, `newest-build`; see
 * `dialect/single-pass.ts` for when it hands over to the plain path).
 *
 * - `semver`: the constraint is read first (when it does not parse the plain
 *   path decides, as Masterminds reads it only once a version exists). A tag
 *   whose version would carry a pre-release is skipped unread when the
 *   constraint admits none, and a version is checked against the constraint
 *   only when it would beat the pick so far; the checks are a conjunction,
 *   so their order does not change the pick.
 * - `alphabetical`: the greatest tag in the native order.
 * - `newest-build`: the latest `created` (read without allocating; an
 *   index's clamped at Go's zero time as `argoCreated` does), ties by the
 *   tag; each entry's own platforms and time, then the pick must be its
 *   name's last occurrence.
 */
import { strings } from "@kubeimg/core/internal";
import { type Constraints, compareVersions, type Version } from "../../semver/index.js";
import { admitsPrerelease, hasPrerelease, tryParseVersion } from "../dialect/semver.js";
import { anyHighChars, nameRepeatsAfter } from "../dialect/single-pass.js";
import { checkEntry, type InstantSlot, ZERO_INSTANT } from "../dialect/tag-list.js";
import type { TagInfo } from "../dialect/types.js";

/** What the pass needs of the configuration, read once by the caller. */
export interface ArgoPassRules {
  readonly strategy: "semver" | "alphabetical" | "newest-build";
  /** `allow-tags` and `ignore-tags` together; undefined when every tag passes both. */
  readonly keeps: ((tag: string) => boolean) | undefined;
  /** `newest-build`: whether an index offering `platforms` offers a wanted one. */
  readonly platformsWanted: (platforms: readonly string[]) => boolean;
  /** `semver`: the parsed constraint (`*` for none). */
  readonly constraints: Constraints | undefined;
}

/**
 * Returns the index of Argo CD's pick in `tags`, checking every entry as
 * `readTagList` does (the same error for the same first bad entry), or
 * undefined when the plain path must decide.
 */
export function argoSinglePass(tags: readonly TagInfo[], rules: ArgoPassRules): number | undefined {
  if (!Array.isArray(tags)) return undefined;
  switch (rules.strategy) {
    case "semver":
      return rules.constraints === undefined
        ? undefined
        : semver(tags, rules.keeps, rules.constraints);
    case "alphabetical":
      return alphabetical(tags, rules.keeps);
    default:
      return newestBuild(tags, rules.keeps, rules.platformsWanted);
  }
}

function semver(
  tags: readonly TagInfo[],
  keeps: ((tag: string) => boolean) | undefined,
  constraints: Constraints,
): number | undefined {
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  const skipPrerelease = !admitsPrerelease(constraints);
  let best = -1;
  let bestName = "";
  let bestVersion: Version | undefined;
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    checkEntry(tag, i, slot);
    const name = tag.name;
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

function alphabetical(
  tags: readonly TagInfo[],
  keeps: ((tag: string) => boolean) | undefined,
): number | undefined {
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  let best = -1;
  let bestName = "";
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    checkEntry(tag, i, slot);
    const name = tag.name;
    if (keeps !== undefined && !keeps(name)) continue;
    if (best >= 0 && !(name > bestName)) continue;
    best = i;
    bestName = name;
  }
  return best < 0 || anyHighChars([bestName]) ? undefined : best;
}

function newestBuild(
  tags: readonly TagInfo[],
  keeps: ((tag: string) => boolean) | undefined,
  platformsWanted: (platforms: readonly string[]) => boolean,
): number | undefined {
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  let best = -1;
  let bestName = "";
  let bestMs = 0;
  let bestNanos = 0;
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    const dated = checkEntry(tag, i, slot);
    const name = tag.name;
    if (keeps !== undefined && !keeps(name)) continue;
    const platforms = tag.platforms;
    if (platforms !== undefined && !platformsWanted(platforms)) continue;
    // An index's time is kept from Go's zero time up (`argoCreated` in select.ts).
    const zero = !dated || (platforms !== undefined && slot.ms < ZERO_INSTANT.ms);
    const ms = zero ? ZERO_INSTANT.ms : slot.ms;
    const nanos = zero ? 0 : slot.subMsNanos;
    if (best >= 0) {
      if (ms < bestMs) continue;
      if (ms === bestMs) {
        if (nanos < bestNanos) continue;
        if (nanos === bestNanos && strings.Compare(name, bestName) <= 0) continue;
      }
    }
    best = i;
    bestName = name;
    bestMs = ms;
    bestNanos = nanos;
  }
  return best < 0 || nameRepeatsAfter(tags, best) ? undefined : best;
}
