/**
 * Kargo's discovered tags in one pass, for a selection without an explain
 * trace (every strategy), over either form of a tag list:
 *
 * - **raw entries**: each is checked as it is read, as `readTags` checks it
 *   (in full with a platform or for NewestBuild, else its shape; the caller
 *   checks the pick's last entry in full), with its **own** metadata and the
 *   native string order; what that cannot be sure of is checked on the kept
 *   tags (see `common/single-pass.ts`), and the plain path decides otherwise;
 * - **a prepared list** (`prepareTagList`):
 *   checked when it was prepared, so the pass is a loop over its arrays;
 *   every entry of a repeated name ranks under its last occurrence's
 *   metadata (entries that rank equal keep their list order, as the plain
 *   path's insertion does) and names compare in Go's byte order when any
 *   needs it, so the pass answers for every list.
 *
 * One loop per strategy serves both: it branches on the form per entry.
 * The best `discoveryLimit` tags are kept in order as the entries are read;
 * a tag that does not beat the last kept one (once the limit is reached) is
 * dropped before anything costly is asked of it. The filters are a
 * conjunction, so they run cheapest first: for `SemVer` a tag whose version
 * would carry a pre-release is skipped unread when the constraint admits
 * none, and the strict reading, the constraint and the platform are asked
 * only of a version that would be kept. `Digest` looks up one tag.
 *
 * It answers undefined (the plain path decides) when nothing is discovered.
 */
import { strings } from "@kubeimg/core/internal";
import { type Constraints, compareVersions, type Version } from "../../semver/index.js";
import type { PreparedData } from "../common/prepared.js";
import {
  admitsPrerelease,
  hasPrerelease,
  isStrictVersion,
  tryParseVersion,
} from "../common/semver.js";
import { anyHighChars, keptNamesRepeat, nameAt } from "../common/single-pass.js";
import { checkEntry, checkShape, type InstantSlot, ZERO_INSTANT } from "../common/tag-list.js";
import type { TagInfo } from "../common/types.js";

/** What the pass needs of the subscription, read once by the caller. */
export interface KargoPassRules {
  readonly strategy: "SemVer" | "Lexical" | "NewestBuild" | "Digest";
  /** The ignore and allow regexes together; undefined when there are none. */
  readonly keeps: ((tag: string) => boolean) | undefined;
  /** `SemVer`: the constraint; undefined when there is none (Kargo checks nothing). */
  readonly constraints: Constraints | undefined;
  readonly strictSemvers: boolean;
  readonly discoveryLimit: number;
  /** `Digest`: the one tag it looks up (the constraint text). */
  readonly constraintTag: string;
  /** With `platform`: whether an index offering these platforms matches it exactly. */
  readonly platformMatches: ((platforms: readonly string[]) => boolean) | undefined;
}

/**
 * Returns the indices of the tags Kargo discovers in `source` (raw entries
 * or a prepared list's data), best first, or undefined when the plain path
 * must decide.
 */
export function kargoSinglePass(
  source: readonly TagInfo[] | PreparedData,
  rules: KargoPassRules,
): number[] | undefined {
  const prepared = Array.isArray(source) ? undefined : (source as PreparedData);
  if (prepared === undefined && !Array.isArray(source)) return undefined;
  if (!(rules.discoveryLimit >= 1)) return undefined;
  const raw = source as readonly TagInfo[];
  const n = prepared !== undefined ? prepared.names.length : raw.length;
  const matches = rules.platformMatches;
  // Called once entry `i` has been checked: a raw entry answers with its own platforms.
  const platformOk =
    matches === undefined
      ? undefined
      : prepared !== undefined
        ? (i: number): boolean => {
            const platforms = prepared.platforms[prepared.last[i] as number];
            return platforms !== undefined && matches(platforms);
          }
        : (i: number): boolean => {
            const platforms = (raw[i] as TagInfo).platforms;
            return platforms !== undefined && matches(platforms);
          };
  if (rules.strategy === "Digest") return digest(raw, prepared, rules.constraintTag, platformOk);
  const top =
    rules.strategy === "SemVer"
      ? semver(raw, prepared, n, rules, platformOk)
      : rules.strategy === "Lexical"
        ? lexical(raw, prepared, n, rules, platformOk)
        : newestBuild(raw, prepared, n, rules, platformOk);
  // Raw with a platform: each kept tag was judged by its own platforms, so
  // no kept name may occur again (`newestBuild` checks that itself).
  if (
    prepared === undefined &&
    platformOk !== undefined &&
    rules.strategy !== "NewestBuild" &&
    keptNamesRepeat(raw, top)
  ) {
    return undefined;
  }
  return top.length === 0 ? undefined : top;
}

/**
 * `Digest`: the constraint tag, judged (platform) and reported (digest) at
 * its last occurrence, the entry whose index is returned; a raw list is
 * checked whole on the way.
 */
function digest(
  raw: readonly TagInfo[],
  prepared: PreparedData | undefined,
  wanted: string,
  platformOk: ((i: number) => boolean) | undefined,
): number[] | undefined {
  let at = -1;
  if (prepared !== undefined) {
    at = prepared.lastByName.get(wanted) ?? -1;
  } else {
    // With a platform every entry's is read; else only the pick's (its caller checks it).
    const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
    const full = platformOk !== undefined;
    for (let i = 0; i < raw.length; i++) {
      const tag = raw[i] as TagInfo;
      if (full) checkEntry(tag, i, slot);
      else checkShape(tag, i);
      if (tag.name === wanted) at = i;
    }
  }
  if (at < 0 || (platformOk !== undefined && !platformOk(at))) return undefined;
  return [at];
}

function semver(
  raw: readonly TagInfo[],
  prepared: PreparedData | undefined,
  n: number,
  rules: KargoPassRules,
  platformOk: ((i: number) => boolean) | undefined,
): number[] {
  const { keeps, constraints, strictSemvers, discoveryLimit: limit } = rules;
  const names = prepared?.names;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  const skipPrerelease = constraints !== undefined && !admitsPrerelease(constraints);
  const top: number[] = [];
  const topNames: string[] = [];
  const topVersions: Version[] = [];
  // Whether (v, name) ranks before the kept tag at `k`: greater version, then greater tag.
  const before = (v: Version, name: string, k: number): boolean => {
    const order = compareVersions(v, topVersions[k] as Version);
    return order > 0 || (order === 0 && strings.Compare(name, topNames[k] as string) > 0);
  };
  for (let i = 0; i < n; i++) {
    const name = nameAt(raw, names, i, slot, platformOk !== undefined);
    if (keeps !== undefined && !keeps(name)) continue;
    if (skipPrerelease && hasPrerelease(name)) continue;
    const v = tryParseVersion(name);
    if (v === undefined) continue;
    if (top.length === limit && !before(v, name, limit - 1)) continue;
    if (strictSemvers && !isStrictVersion(name.charCodeAt(0) === 0x76 ? name.slice(1) : name)) {
      continue;
    }
    if (constraints !== undefined && !constraints.check(v)) continue;
    if (platformOk !== undefined && !platformOk(i)) continue;
    // Full: the last kept tag (which this one beats) falls off first.
    if (top.length === limit) {
      top.pop();
      topNames.pop();
      topVersions.pop();
    }
    // Shift the kept tags this one beats down by one, without allocating.
    let at = top.length;
    for (; at > 0 && before(v, name, at - 1); at--) {
      top[at] = top[at - 1] as number;
      topNames[at] = topNames[at - 1] as string;
      topVersions[at] = topVersions[at - 1] as Version;
    }
    top[at] = i;
    topNames[at] = name;
    topVersions[at] = v;
  }
  return top;
}

function lexical(
  raw: readonly TagInfo[],
  prepared: PreparedData | undefined,
  n: number,
  rules: KargoPassRules,
  platformOk: ((i: number) => boolean) | undefined,
): number[] {
  const { keeps, discoveryLimit: limit } = rules;
  const names = prepared?.names;
  // Go's byte order only where the native one can differ (a prepared list knows).
  const go = prepared?.highChars === true;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  const top: number[] = [];
  const topNames: string[] = [];
  // Once the limit is reached (`full`), a name must beat the last kept one.
  let full = false;
  let floor = "";
  for (let i = 0; i < n; i++) {
    const name = nameAt(raw, names, i, slot, platformOk !== undefined);
    if (full && (go ? strings.Compare(name, floor) <= 0 : !(name > floor))) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    if (platformOk !== undefined && !platformOk(i)) continue;
    // Full: the last kept name (which this one beats) falls off first.
    if (top.length === limit) {
      top.pop();
      topNames.pop();
    }
    // Shift the kept names this one beats down by one, without allocating.
    let at = top.length;
    for (; at > 0; at--) {
      const kept = topNames[at - 1] as string;
      if (go ? strings.Compare(name, kept) <= 0 : !(name > kept)) break;
      top[at] = top[at - 1] as number;
      topNames[at] = kept;
    }
    top[at] = i;
    topNames[at] = name;
    if (top.length === limit) {
      full = true;
      floor = topNames[limit - 1] as string;
    }
  }
  // Raw: the native order decided; it is Go's unless a kept name holds U+D800 up.
  return names === undefined && anyHighChars(topNames) ? [] : top;
}

function newestBuild(
  raw: readonly TagInfo[],
  prepared: PreparedData | undefined,
  n: number,
  rules: KargoPassRules,
  platformOk: ((i: number) => boolean) | undefined,
): number[] {
  const { keeps, discoveryLimit: limit } = rules;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  const top: number[] = [];
  const topNames: string[] = [];
  const topMs: number[] = [];
  const topNanos: number[] = [];
  // Whether the time (ms, nanos) and name rank before the kept tag at `k`: later, then greater tag.
  const before = (ms: number, nanos: number, name: string, k: number): boolean => {
    const kms = topMs[k] as number;
    if (ms !== kms) return ms > kms;
    const knanos = topNanos[k] as number;
    if (nanos !== knanos) return nanos > knanos;
    return strings.Compare(name, topNames[k] as string) > 0;
  };
  for (let i = 0; i < n; i++) {
    let name: string;
    let ms: number;
    let nanos: number;
    if (prepared !== undefined) {
      // Every entry of a name ranks under its last occurrence's time.
      const at = prepared.last[i] as number;
      name = prepared.names[i] as string;
      ms = prepared.ms[at] as number;
      nanos = prepared.nanos[at] as number;
    } else {
      const tag = raw[i] as TagInfo;
      const dated = checkEntry(tag, i, slot);
      name = tag.name;
      ms = dated ? slot.ms : ZERO_INSTANT.ms;
      nanos = dated ? slot.subMsNanos : 0;
    }
    if (top.length === limit && !before(ms, nanos, name, limit - 1)) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    if (platformOk !== undefined && !platformOk(i)) continue;
    // Full: the last kept tag (which this one beats) falls off first.
    if (top.length === limit) {
      top.pop();
      topNames.pop();
      topMs.pop();
      topNanos.pop();
    }
    // Shift the kept tags this one beats down by one, without allocating.
    let at = top.length;
    for (; at > 0 && before(ms, nanos, name, at - 1); at--) {
      top[at] = top[at - 1] as number;
      topNames[at] = topNames[at - 1] as string;
      topMs[at] = topMs[at - 1] as number;
      topNanos[at] = topNanos[at - 1] as number;
    }
    top[at] = i;
    topNames[at] = name;
    topMs[at] = ms;
    topNanos[at] = nanos;
  }
  // Raw: each entry ranked under its own time, so no kept name may occur again.
  return prepared === undefined && keptNamesRepeat(raw, top) ? [] : top;
}
