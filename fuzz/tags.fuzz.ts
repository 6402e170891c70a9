/**
 * Long property runs of tag selection against independent oracles:
 *
 * - the selected tag is one of the input tags;
 * - `explainTagSelection` agrees with `selectLatestTag` (tag or error code)
 *   and marks exactly one tag selected;
 * - semver: the winner is in range and no tag in range ranks above it (by
 *   `compareVersions`), and it is the first of its equals;
 * - alphabetical: the winner is the byte-order extreme;
 * - numerical without NaN: the winner holds the extreme value, the last of
 *   its equals.
 *
 * `FUZZ_RUNS` sets the number of generated cases (default 1,000,000).
 */

import { strconv, strings } from "@kubeimg/core/internal";
import { compareVersions, parseConstraints, tryParseTagVersion } from "@kubeimg/policy/semver";
import {
  explainTagSelection,
  safeSelectLatestTag,
  type TagSelectionPolicy,
} from "@kubeimg/policy/tags";
import fc from "fast-check";

const runs = Number(process.env.FUZZ_RUNS ?? 1_000_000);

const versionish = fc
  .tuple(
    fc.constantFrom("", "v", "V"),
    fc.nat(12),
    fc.constantFrom(".", ""),
    fc.nat(12),
    fc.constantFrom(".", "", ".."),
    fc.nat(30),
    fc.constantFrom("", "-rc.1", "-rc.2", "-alpha", "-01", "+build", "-rc.1+b"),
  )
  .map(([v, a, d1, b, d2, c, suffix]) => `${v}${a}${d1}${b}${d2}${c}${suffix}`);
const numberish = fc.oneof(
  fc.integer({ min: -1000, max: 100000 }).map(String),
  fc.constantFrom("1e3", ".5", "5.", "+5", "010", "1_000", "0x1p4", "inf", "-Inf", "x", "1e400"),
);
const anyTag = fc.oneof(
  versionish,
  numberish,
  fc.string({ maxLength: 6 }),
  fc.constantFrom("😀", "\uFF01", "é"),
);
const tags = fc.array(anyTag, { minLength: 0, maxLength: 12 });
const range = fc.constantFrom(
  "*",
  ">=1.0.0",
  "<5",
  "~1.2",
  "^0.x",
  "1.x-0",
  ">=1 <3 || 5.x",
  "!=2.0.0",
  "*-*",
  "",
);
const policy: fc.Arbitrary<TagSelectionPolicy> = fc.oneof(
  range.map((r) => ({ policy: { semver: { range: r } } })),
  fc
    .constantFrom("asc", "desc", "Desc", "")
    .map((o) => ({ policy: { alphabetical: { order: o } } })),
  fc.constantFrom("asc", "desc").map((o) => ({ policy: { numerical: { order: o } } })),
  fc
    .tuple(
      fc.constantFrom("^v", "rc", "^[0-9]+$", "(?P<n>[0-9]+)", "[", ""),
      fc.constantFrom("", "$n", "$1", "x"),
    )
    .map(([pattern, extract]) => ({
      policy: { alphabetical: { order: "asc" } },
      filterTags: { pattern, extract },
    })),
);

fc.assert(
  fc.property(tags, policy, (list, p) => {
    const selected = safeSelectLatestTag(list, p);
    const explained = explainTagSelection(list, p);
    if (!selected.success) {
      if (explained.error?.code !== selected.error.code)
        throw new Error("explain disagrees (error)");
      return;
    }
    const tag = selected.tag;
    if (!list.includes(tag)) throw new Error(`selected ${tag} is not an input tag`);
    if (explained.tag !== tag) throw new Error("explain disagrees (tag)");
    if (explained.tags.filter((t) => t.verdict === "selected").length !== 1) {
      throw new Error("explain must select exactly one tag");
    }
    if (p.filterTags !== undefined) return;
    if (p.policy.semver !== undefined) {
      const c = parseConstraints(p.policy.semver.range);
      const winner = tryParseTagVersion(tag);
      if (winner === undefined || !c.check(winner)) throw new Error("winner out of range");
      for (const [i, t] of list.entries()) {
        const v = tryParseTagVersion(t);
        if (v === undefined || !c.check(v)) continue;
        const d = compareVersions(v, winner);
        if (d > 0 || (d === 0 && i < list.indexOf(tag)))
          throw new Error(`${t} should win over ${tag}`);
      }
    } else if (p.policy.alphabetical !== undefined) {
      const desc = p.policy.alphabetical.order?.toUpperCase() === "DESC";
      for (const t of list) {
        if (strings.Compare(t, tag) * (desc ? -1 : 1) > 0)
          throw new Error(`${t} should win over ${tag}`);
      }
    } else if (p.policy.numerical !== undefined) {
      const values = list.map((t) => strconv.ParseFloat(t) as number);
      if (values.some(Number.isNaN)) return;
      const desc = p.policy.numerical.order === "desc";
      const best = desc ? Math.min(...values) : Math.max(...values);
      if (strconv.ParseFloat(tag) !== best || values.lastIndexOf(best) !== list.lastIndexOf(tag)) {
        throw new Error(`${tag} is not the last extreme value`);
      }
    }
  }),
  { numRuns: runs },
);
console.log(`tags: ${runs.toLocaleString("en-US")} cases passed`);
