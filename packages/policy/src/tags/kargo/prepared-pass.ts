/**
 * Kargo's discovered tags over a prepared tag list, for a selection without
 * an explain trace (`SemVer`, `Lexical`, `NewestBuild`, with or without a
 * platform). The entries were checked when the list was prepared, so this
 * is a loop over its arrays, and it answers for every list the plain path
 * answers for:
 *
 * - every entry of a repeated name is ranked, under its last occurrence's
 *   metadata, and entries that rank equal keep their list order, as the
 *   plain path's insertion does;
 * - names are compared natively unless a name of the list holds a character
 *   from U+D800 up, and then in Go's byte order.
 *
 * The best `discoveryLimit` entries are kept in order as the list is read;
 * an entry that does not beat the last kept one (once the limit is reached)
 * is dropped before any filter is asked about it, as the filters are a
 * conjunction. It answers undefined only when nothing is discovered (the
 * plain path then says why).
 */
import { strings } from "@kubeimg/core/internal";
import { compareVersions, type Version } from "../../semver/index.js";
import type { PreparedData } from "../dialect/prepared.js";
import {
  admitsPrerelease,
  hasPrerelease,
  isStrictVersion,
  tryParseVersion,
} from "../dialect/semver.js";
import type { KargoPassRules } from "./single-pass.js";

/** The pass's rules: the single pass's, and the platform test. */
export interface KargoPreparedRules extends KargoPassRules {
  /** With `platform`: whether an index offering these platforms matches it exactly. */
  readonly platformMatches: ((platforms: readonly string[]) => boolean) | undefined;
}

/** Returns the indices Kargo discovers in the prepared list, best first, or undefined (see above). */
export function kargoPreparedPass(
  d: PreparedData,
  rules: KargoPreparedRules,
): number[] | undefined {
  if (!(rules.discoveryLimit >= 1)) return undefined;
  const top =
    rules.strategy === "SemVer"
      ? semver(d, rules)
      : rules.strategy === "Lexical"
        ? lexical(d, rules)
        : newestBuild(d, rules);
  return top.length === 0 ? undefined : top;
}

/** Whether entry `i` passes the platform test (its last occurrence's platforms). */
function platformOk(d: PreparedData, rules: KargoPreparedRules, i: number): boolean {
  if (rules.platformMatches === undefined) return true;
  const platforms = d.platforms[d.last[i] as number];
  return platforms !== undefined && rules.platformMatches(platforms);
}

/** Go's byte order of two names when the list needs it, else the native order (same answer then). */
function greater(d: PreparedData, a: string, b: string): boolean {
  return d.highChars ? strings.Compare(a, b) > 0 : a > b;
}

function semver(d: PreparedData, rules: KargoPreparedRules): number[] {
  const { keeps, constraints, strictSemvers, discoveryLimit: limit } = rules;
  const names = d.names;
  const skipPrerelease = constraints !== undefined && !admitsPrerelease(constraints);
  const top: number[] = [];
  const topNames: string[] = [];
  const topVersions: Version[] = [];
  const before = (v: Version, name: string, k: number): boolean => {
    const order = compareVersions(v, topVersions[k] as Version);
    return order > 0 || (order === 0 && strings.Compare(name, topNames[k] as string) > 0);
  };
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (keeps !== undefined && !keeps(name)) continue;
    if (skipPrerelease && hasPrerelease(name)) continue;
    const v = tryParseVersion(name);
    if (v === undefined) continue;
    if (top.length === limit && !before(v, name, limit - 1)) continue;
    if (strictSemvers && !isStrictVersion(name.charCodeAt(0) === 0x76 ? name.slice(1) : name)) {
      continue;
    }
    if (constraints !== undefined && !constraints.check(v)) continue;
    if (!platformOk(d, rules, i)) continue;
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
  return top;
}

function lexical(d: PreparedData, rules: KargoPreparedRules): number[] {
  const { keeps, discoveryLimit: limit } = rules;
  const names = d.names;
  const top: number[] = [];
  const topNames: string[] = [];
  // The last kept name once the limit is reached: a name must beat it.
  let floor: string | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (floor !== undefined && !greater(d, name, floor)) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    if (!platformOk(d, rules, i)) continue;
    let at = top.length;
    while (at > 0 && greater(d, name, topNames[at - 1] as string)) at--;
    top.splice(at, 0, i);
    topNames.splice(at, 0, name);
    if (top.length > limit) {
      top.pop();
      topNames.pop();
    }
    if (top.length === limit) floor = topNames[limit - 1];
  }
  return top;
}

function newestBuild(d: PreparedData, rules: KargoPreparedRules): number[] {
  const { keeps, discoveryLimit: limit } = rules;
  const { names, ms: times, nanos: subMs, last } = d;
  const top: number[] = [];
  const topNames: string[] = [];
  const topMs: number[] = [];
  const topNanos: number[] = [];
  const before = (ms: number, nanos: number, name: string, k: number): boolean => {
    const kms = topMs[k] as number;
    if (ms !== kms) return ms > kms;
    const knanos = topNanos[k] as number;
    if (nanos !== knanos) return nanos > knanos;
    return greater(d, name, topNames[k] as string);
  };
  // The last kept entry's time once the limit is reached: an entry must reach it.
  let floorMs = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < names.length; i++) {
    const at0 = last[i] as number;
    const ms = times[at0] as number;
    if (ms < floorMs) continue;
    const nanos = subMs[at0] as number;
    const name = names[i] as string;
    if (top.length === limit && !before(ms, nanos, name, limit - 1)) continue;
    if (keeps !== undefined && !keeps(name)) continue;
    if (!platformOk(d, rules, i)) continue;
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
    if (top.length === limit) floorMs = topMs[limit - 1] as number;
  }
  return top;
}
