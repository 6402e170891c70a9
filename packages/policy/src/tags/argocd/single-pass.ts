/**
 * Argo CD's pick in one pass, for a selection without an explain trace
 * (every strategy), over either form of a tag list:
 *
 * - **raw entries**: each is checked as it is read, as `readTags` checks it
 *   (in full where the strategy reads every entry's metadata, else its
 *   shape, and in full the one entry whose metadata is read), with its
 *   **own** metadata and the native string order; what that cannot be sure
 *   of is checked on the pick (see `common/single-pass.ts`), and the plain
 *   path decides otherwise;
 * - **a prepared list** (`prepareTagList`): checked when it was prepared, so
 *   the pass is a loop over its arrays; each entry reads its name's last
 *   occurrence and names compare in Go's byte order when any needs it, so
 *   the pass answers for every list.
 *
 * One loop per strategy serves both: it branches on the form per entry.
 *
 * - `semver`: the constraint is read first (when it does not parse the plain
 *   path decides, as Masterminds reads it only once a version exists). A tag
 *   whose version would carry a pre-release is skipped unread when the
 *   constraint admits none, and a version is checked against the constraint
 *   only when it would beat the pick so far; the checks are a conjunction,
 *   so their order does not change the pick.
 * - `alphabetical`: the greatest tag.
 * - `newest-build`: the latest `created` (an index's clamped at Go's zero
 *   time as `argoCreated` does), ties by the tag; a raw pick must be its
 *   name's last occurrence.
 * - `digest`: the constraint tag, read at its last occurrence (a raw list
 *   finds it while checking every entry's shape, and checks that entry in
 *   full once it passes the filters, as the plain path reads it), if it
 *   passes the filters and the platforms.
 *
 * It answers undefined (the plain path decides) when nothing is picked.
 */
import { strings } from "@kubeimg/core/internal";
import { type Constraints, compareVersions, type Version } from "../../semver/index.js";
import type { PreparedData } from "../common/prepared.js";
import { admitsPrerelease, hasPrerelease, tryParseVersion } from "../common/semver.js";
import { anyHighChars, nameAt, nameRepeatsAfter } from "../common/single-pass.js";
import { checkEntry, checkShape, type InstantSlot, ZERO_INSTANT } from "../common/tag-list.js";
import type { TagInfo } from "../common/types.js";

/** What the pass needs of the configuration, read once by the caller. */
export interface ArgoPassRules {
  readonly strategy: "semver" | "alphabetical" | "newest-build" | "digest";
  /** `allow-tags` and `ignore-tags` together; undefined when every tag passes both. */
  readonly keeps: ((tag: string) => boolean) | undefined;
  /** `newest-build`: whether an index offering `platforms` offers a wanted one. */
  readonly platformsWanted: (platforms: readonly string[]) => boolean;
  /** `semver`: the parsed constraint (`*` for none). */
  readonly constraints: Constraints | undefined;
  /** `digest`: the one tag it follows (the constraint text). */
  readonly constraintTag: string;
}

/**
 * Returns the index of Argo CD's pick in `source` (raw entries or a prepared
 * list's data), or undefined when the plain path must decide.
 */
export function argoSinglePass(
  source: readonly TagInfo[] | PreparedData,
  rules: ArgoPassRules,
): number | undefined {
  const prepared = Array.isArray(source) ? undefined : (source as PreparedData);
  if (prepared === undefined && !Array.isArray(source)) return undefined;
  switch (rules.strategy) {
    case "semver":
      return rules.constraints === undefined
        ? undefined
        : semver(source, prepared, rules.keeps, rules.constraints);
    case "alphabetical":
      return alphabetical(source, prepared, rules.keeps);
    case "digest":
      return digest(source, prepared, rules);
    default:
      return newestBuild(source, prepared, rules.keeps, rules.platformsWanted);
  }
}

function semver(
  source: readonly TagInfo[] | PreparedData,
  prepared: PreparedData | undefined,
  keeps: ((tag: string) => boolean) | undefined,
  constraints: Constraints,
): number | undefined {
  const raw = source as readonly TagInfo[];
  const names = prepared?.names;
  const n = names !== undefined ? names.length : raw.length;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  const skipPrerelease = !admitsPrerelease(constraints);
  let best = -1;
  let bestName = "";
  let bestVersion: Version | undefined;
  for (let i = 0; i < n; i++) {
    const name = nameAt(raw, names, i, slot, false);
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
  source: readonly TagInfo[] | PreparedData,
  prepared: PreparedData | undefined,
  keeps: ((tag: string) => boolean) | undefined,
): number | undefined {
  const raw = source as readonly TagInfo[];
  const names = prepared?.names;
  const n = names !== undefined ? names.length : raw.length;
  // Go's byte order only where the native one can differ (a prepared list knows).
  const go = prepared?.highChars === true;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  let best = -1;
  let bestName = "";
  for (let i = 0; i < n; i++) {
    const name = nameAt(raw, names, i, slot, false);
    if (best >= 0 && (go ? strings.Compare(name, bestName) <= 0 : !(name > bestName))) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    best = i;
    bestName = name;
  }
  // Raw: the native order decided; it is Go's unless the pick holds U+D800 up.
  return best < 0 || (names === undefined && anyHighChars([bestName])) ? undefined : best;
}

function newestBuild(
  source: readonly TagInfo[] | PreparedData,
  prepared: PreparedData | undefined,
  keeps: ((tag: string) => boolean) | undefined,
  platformsWanted: (platforms: readonly string[]) => boolean,
): number | undefined {
  const raw = source as readonly TagInfo[];
  const n = prepared !== undefined ? prepared.names.length : raw.length;
  const zeroMs = ZERO_INSTANT.ms;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  let best = -1;
  let bestName = "";
  let bestMs = 0;
  let bestNanos = 0;
  for (let i = 0; i < n; i++) {
    let name: string;
    let ms: number;
    let nanos: number;
    let platforms: readonly string[] | undefined;
    let platform: string | undefined;
    if (prepared !== undefined) {
      // Every entry of a name reads its last occurrence's metadata.
      const at = prepared.last[i] as number;
      name = prepared.names[i] as string;
      ms = prepared.ms[at] as number;
      nanos = prepared.nanos[at] as number;
      platforms = prepared.platforms[at];
      platform = prepared.platform[at];
    } else {
      const tag = raw[i] as TagInfo;
      const dated = checkEntry(tag, i, slot);
      name = tag.name;
      ms = dated ? slot.ms : zeroMs;
      nanos = dated ? slot.subMsNanos : 0;
      platforms = tag.platforms;
      platform = tag.platform;
    }
    // An index's time is kept from Go's zero time up (`argoCreated` in select.ts).
    if (platforms !== undefined && ms < zeroMs) {
      ms = zeroMs;
      nanos = 0;
    }
    if (best >= 0) {
      if (ms < bestMs) continue;
      if (ms === bestMs) {
        if (nanos < bestNanos) continue;
        if (nanos === bestNanos && strings.Compare(name, bestName) <= 0) continue;
      }
    }
    if (keeps !== undefined && !keeps(name)) continue;
    if (platforms !== undefined && !platformsWanted(platforms)) continue;
    // A single image is checked as Argo CD checks an index entry.
    if (platforms === undefined && platform !== undefined && !platformsWanted([platform])) continue;
    best = i;
    bestName = name;
    bestMs = ms;
    bestNanos = nanos;
  }
  // Raw: each entry read its own metadata, so the pick must be its name's last occurrence.
  return best < 0 || (prepared === undefined && nameRepeatsAfter(raw, best)) ? undefined : best;
}

function digest(
  source: readonly TagInfo[] | PreparedData,
  prepared: PreparedData | undefined,
  rules: ArgoPassRules,
): number | undefined {
  const wanted = rules.constraintTag;
  let at: number;
  let platforms: readonly string[] | undefined;
  let platform: string | undefined;
  if (prepared !== undefined) {
    const last = prepared.lastByName.get(wanted);
    if (last === undefined) return undefined;
    at = last;
    platforms = prepared.platforms[at];
    platform = prepared.platform[at];
  } else {
    const raw = source as readonly TagInfo[];
    at = -1;
    for (let i = 0; i < raw.length; i++) {
      const tag = raw[i] as TagInfo;
      checkShape(tag, i);
      if (tag.name === wanted) at = i;
    }
    if (at < 0) return undefined;
    if (rules.keeps !== undefined && !rules.keeps(wanted)) return undefined;
    // The one entry whose metadata is read, checked in full where the plain path reads it.
    const tag = raw[at] as TagInfo;
    checkEntry(tag, at, { ms: 0, subMsNanos: 0 });
    platforms = tag.platforms;
    platform = tag.platform;
  }
  if (prepared !== undefined && rules.keeps !== undefined && !rules.keeps(wanted)) {
    return undefined;
  }
  if (platforms !== undefined && !rules.platformsWanted(platforms)) return undefined;
  if (platforms === undefined && platform !== undefined && !rules.platformsWanted([platform])) {
    return undefined;
  }
  return at;
}
