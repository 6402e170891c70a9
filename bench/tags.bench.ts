/**
 * Tag selection speed: the whole pipeline of `selectLatestTag` (build the
 * policer, compile and apply the filter, select, map back) over generated
 * tag lists of 10,000 and 100,000 tags, the scenarios of the tagpolicy
 * suite's Go baseline.
 *
 * Targets at 100,000 tags (half of Go/Flux on the reference machine):
 * semver 39 ms, semver + filter + extract 26.5 ms, alphabetical 9.5 ms,
 * numerical 1.3 ms.
 */
import { selectLatestTag, type TagSelectionPolicy } from "@kubeimg/policy/tags";
import { runBenchmarks, seededRandom as seeded } from "./lib.js";

function semverTags(n: number, random: () => number): string[] {
  const int = (max: number) => Math.floor(random() * max);
  const hex = () => int(0x10000000).toString(16).padStart(7, "0");
  const tags: string[] = [];
  for (let i = 0; i < n; i++) {
    const v = `${int(8)}.${int(30)}.${int(50)}`;
    switch (i % 4) {
      case 0:
        tags.push(v);
        break;
      case 1:
        tags.push(`v${v}-rc.${int(20)}`);
        break;
      case 2:
        tags.push(`main-${hex()}-${1_600_000_000 + int(200_000_000)}`);
        break;
      default:
        tags.push(`${v}-alpine`);
    }
  }
  return tags;
}

function releaseTags(n: number, random: () => number): string[] {
  const int = (max: number) => Math.floor(random() * max);
  const two = (x: number) => String(x).padStart(2, "0");
  const tags: string[] = [];
  for (let i = 0; i < n; i++) {
    tags.push(
      `RELEASE.${2015 + int(10)}-${two(1 + int(12))}-${two(1 + int(28))}T${two(int(24))}-${two(int(60))}-${two(int(60))}Z`,
    );
  }
  return tags;
}

function numberTags(n: number, random: () => number): string[] {
  const tags: string[] = [];
  for (let i = 0; i < n; i++)
    tags.push(String(1_000_000_000 + Math.floor(random() * 8_999_999_999)));
  return tags;
}

const scenarios: { name: string; policy: TagSelectionPolicy; tags: (n: number) => string[] }[] = [
  {
    name: "semver >=1.0.0 <5.0.0",
    policy: { policy: { semver: { range: ">=1.0.0 <5.0.0" } } },
    tags: (n) => semverTags(n, seeded(1)),
  },
  {
    name: "semver ^3.x + filter + extract $v",
    policy: {
      policy: { semver: { range: "^3.x" } },
      filterTags: {
        pattern: "^v?(?P<v>[0-9]+\\.[0-9]+\\.[0-9]+)(-rc\\.[0-9]+)?$",
        extract: "$v",
      },
    },
    tags: (n) => semverTags(n, seeded(2)),
  },
  {
    name: "alphabetical asc",
    policy: { policy: { alphabetical: { order: "asc" } } },
    tags: (n) => releaseTags(n, seeded(3)),
  },
  {
    name: "alphabetical asc + filter + extract $ts",
    policy: {
      policy: { alphabetical: { order: "asc" } },
      filterTags: { pattern: "^RELEASE\\.(?P<ts>.*)Z$", extract: "$ts" },
    },
    tags: (n) => releaseTags(n, seeded(4)),
  },
  {
    name: "numerical asc",
    policy: { policy: { numerical: { order: "asc" } } },
    tags: (n) => numberTags(n, seeded(5)),
  },
  {
    name: "numerical asc + filter + extract $ts",
    policy: {
      policy: { numerical: { order: "asc" } },
      filterTags: { pattern: "^main-[0-9a-f]+-(?P<ts>[0-9]+)$", extract: "$ts" },
    },
    tags: (n) => semverTags(n, seeded(6)),
  },
];

const tasks = scenarios.flatMap((s) =>
  [10_000, 100_000].map((n) => {
    const tags = s.tags(n);
    return {
      name: `${s.name}, ${n.toLocaleString("en-US")} tags`,
      fn: () => selectLatestTag(tags, s.policy),
    };
  }),
);

await runBenchmarks("selectLatestTag: whole pipeline per call", tasks, { time: 1500 });
