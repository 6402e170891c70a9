/**
 * Kargo's discovered tags in one pass over the entries, for a selection
 * without an explain trace and without a platform (`SemVer`, `Lexical`,
 * `NewestBuild`; see `dialect/single-pass.ts` for when it hands over to the
 * plain path).
 *
 * The best `discoveryLimit` tags are kept in order as the entries are read;
 * a tag that does not beat the last kept one (once the limit is reached) is
 * dropped before anything costly is asked of it. For `SemVer` the filters
 * are a conjunction, so they run cheapest first: a tag whose version would
 * carry a pre-release is skipped unread when the constraint admits none,
 * and the strict reading and the constraint are asked only of a version
 * that would be kept.
 */
import { strings } from "@kubeimg/core/internal";
import { type Constraints, compareVersions, type Version } from "../../semver/index.js";
import {
  admitsPrerelease,
  hasPrerelease,
  isStrictVersion,
  tryParseVersion,
} from "../dialect/semver.js";
import { anyHighChars, keptNamesRepeat } from "../dialect/single-pass.js";
import { checkEntry, type InstantSlot, ZERO_INSTANT } from "../dialect/tag-list.js";
import type { TagInfo } from "../dialect/types.js";

/** What the pass needs of the subscription, read once by the caller. */
export interface KargoPassRules {
  readonly strategy: "SemVer" | "Lexical" | "NewestBuild";
  /** The ignore and allow regexes together; undefined when there are none. */
  readonly keeps: ((tag: string) => boolean) | undefined;
  /** `SemVer`: the constraint; undefined when there is none (Kargo checks nothing). */
  readonly constraints: Constraints | undefined;
  readonly strictSemvers: boolean;
  readonly discoveryLimit: number;
}

/**
 * Returns the indices of the tags Kargo discovers in `tags`, best first,
 * checking every entry as `readTagList` does (the same error for the same
 * first bad entry), or undefined when the plain path must decide.
 */
export function kargoSinglePass(
  tags: readonly TagInfo[],
  rules: KargoPassRules,
): number[] | undefined {
  if (!Array.isArray(tags)) return undefined;
  switch (rules.strategy) {
    case "SemVer":
      return semver(tags, rules);
    case "Lexical":
      return lexical(tags, rules);
    default:
      return newestBuild(tags, rules);
  }
}

function semver(tags: readonly TagInfo[], rules: KargoPassRules): number[] | undefined {
  const { keeps, constraints, strictSemvers, discoveryLimit: limit } = rules;
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
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    checkEntry(tag, i, slot);
    const name = tag.name;
    if (keeps !== undefined && !keeps(name)) continue;
    if (skipPrerelease && hasPrerelease(name)) continue;
    const v = tryParseVersion(name);
    if (v === undefined) continue;
    if (top.length === limit && !before(v, name, limit - 1)) continue;
    if (strictSemvers && !isStrictVersion(name.charCodeAt(0) === 0x76 ? name.slice(1) : name)) {
      continue;
    }
    if (constraints !== undefined && !constraints.check(v)) continue;
    let at = top.length;
    while (at > 0 && before(v, name, at - 1)) at--;
    top.splice(at, 0, i);
    topNames.splice(at, 0, name);
    topVersions.splice(at, 0, v);
    if (top.length > limit) {
      top.pop();
      topNames.pop();
      topVersions.pop();
    }
  }
  return top.length === 0 ? undefined : top;
}

function lexical(tags: readonly TagInfo[], rules: KargoPassRules): number[] | undefined {
  const { keeps, discoveryLimit: limit } = rules;
  const slot: InstantSlot = { ms: 0, subMsNanos: 0 };
  const top: number[] = [];
  const topNames: string[] = [];
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    checkEntry(tag, i, slot);
    const name = tag.name;
    if (keeps !== undefined && !keeps(name)) continue;
    if (top.length === limit && !(name > (topNames[limit - 1] as string))) continue;
    let at = top.length;
    while (at > 0 && name > (topNames[at - 1] as string)) at--;
    top.splice(at, 0, i);
    topNames.splice(at, 0, name);
    if (top.length > limit) {
      top.pop();
      topNames.pop();
    }
  }
  return top.length === 0 || anyHighChars(topNames) ? undefined : top;
}

function newestBuild(tags: readonly TagInfo[], rules: KargoPassRules): number[] | undefined {
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
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    const dated = checkEntry(tag, i, slot);
    const name = tag.name;
    if (keeps !== undefined && !keeps(name)) continue;
    const ms = dated ? slot.ms : ZERO_INSTANT.ms;
    const nanos = dated ? slot.subMsNanos : 0;
    if (top.length === limit && !before(ms, nanos, name, limit - 1)) continue;
    let at = top.length;
    while (at > 0 && before(ms, nanos, name, at - 1)) at--;
    top.splice(at, 0, i);
    topNames.splice(at, 0, name);
    topMs.splice(at, 0, ms);
    topNanos.splice(at, 0, nanos);
    if (top.length > limit) {
      top.pop();
      topNames.pop();
      topMs.pop();
      topNanos.pop();
    }
  }
  return top.length === 0 || keptNamesRepeat(tags, top) ? undefined : top;
}
