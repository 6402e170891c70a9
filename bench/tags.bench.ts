/**
 * Tag selection speed: the whole pipeline of `selectLatestTag` (build the
 * policer, compile and apply the filter, select, map back) over generated
 * tag lists of 10,000 and 100,000 tags, the scenarios of the tagpolicy
 * suite's Go baseline.
 *
 * Targets at 100,000 tags (half of Go/Flux on the reference machine):
 * semver 39 ms, semver + filter + extract 26.5 ms, alphabetical 9.5 ms,
 * numerical 1.3 ms.
 *
 * Then the Argo CD Image Updater and Kargo dialects, each next to the Flux
 * path on the same list in the same run (goal: within 1.5x of Flux): semver
 * with a constraint, lexical order, and newest-build with the metadata in
 * memory (Flux has no newest-build: its peer there is alphabetical order
 * over the same names, the cheapest Flux selection of one list). Newest-build
 * runs on three forms of the same metadata: `created` as RFC 3339 text with
 * a digest (as a registry reports them), as epoch milliseconds with a digest,
 * and as epoch milliseconds alone; beside each, its floor (a bare loop that
 * only checks each entry and keeps the latest), which shows what the input
 * form itself costs over Flux's name comparison.
 *
 * Then each dialect over the same list prepared once outside the timed call
 * (`prepareTagList`: the entries checked once, as a controller holding
 * cached metadata does between intervals), and one row timing the
 * preparation itself, which is what the raw rows pay on every call.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selectLatestTag, type TagSelectionPolicy } from "@kubeimg/policy/tags";
import { type ArgoConfig, selectArgoTag } from "@kubeimg/policy/tags/argocd";
import { prepareTagList, type TagInfo } from "@kubeimg/policy/tags/dialects";
import { type KargoImageSubscription, selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { runBenchmarks, seededRandom as seeded } from "./lib.js";
import { comparePeer, type PeerRow, peerOptions, writeInputs } from "./peer.js";

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
      scenario: s,
      tags,
    };
  }),
);

/**
 * The same rows against Flux's own policy code (see `peer.ts`): each row
 * carries its policy in Flux's terms (the ImagePolicy's policy kind and its
 * argument, upper-cased as Flux's controller passes it, the filterTags
 * pattern and extract) and its tag list.
 */
const options = peerOptions();
if (options.emitInputs !== undefined || options.peer !== undefined) {
  const fluxRow = (t: (typeof tasks)[number], id: string) => {
    const p = t.scenario.policy.policy;
    const [policy, arg] = p.semver
      ? ["semver", p.semver.range]
      : p.alphabetical
        ? ["alphabetical", (p.alphabetical.order ?? "asc").toUpperCase()]
        : ["numerical", (p.numerical?.order ?? "asc").toUpperCase()];
    const filter = t.scenario.policy.filterTags;
    return {
      id,
      name: t.name,
      policy,
      arg,
      pattern: filter?.pattern ?? "",
      extract: filter?.extract ?? "",
      tags: t.tags,
    };
  };
  const inputs = { rows: tasks.map((t, i) => fluxRow(t, `row-${i}`)) };
  if (options.emitInputs !== undefined) {
    writeInputs(options.emitInputs, inputs);
    console.log(`inputs written to ${options.emitInputs}`);
  } else if (options.peer !== undefined) {
    const file = join(mkdtempSync(join(tmpdir(), "kubeimg-tags-")), "inputs.json");
    writeInputs(file, inputs);
    const rows: PeerRow[] = tasks.map((t, i) => ({
      id: `row-${i}`,
      name: t.name,
      ours: t.fn,
      check: () => selectLatestTag(t.tags, t.scenario.policy),
    }));
    await comparePeer(
      "selectLatestTag, whole pipeline",
      options.peerName,
      options.peer,
      file,
      rows,
      {
        rounds: options.rounds,
      },
    );
  }
  process.exit(0);
}

await runBenchmarks("selectLatestTag: whole pipeline per call", tasks, { time: 1500 });

/**
 * Tags named by build, each with a distinct `created` and a digest, as a
 * metadata source fills them: `created` as registries write it (RFC 3339
 * text), or as epoch milliseconds, the form for metadata already in memory.
 */
function buildTags(
  n: number,
  random: () => number,
  form: { created: "text" | "epoch"; digest: boolean },
): TagInfo[] {
  const base = Date.UTC(2020, 0, 1);
  const tags: TagInfo[] = [];
  for (let i = 0; i < n; i++) {
    const ms = base + Math.floor(random() * 150_000_000_000);
    const name = `build-${Math.floor(random() * 0x7fffffff).toString(16)}`;
    const created = form.created === "text" ? new Date(ms).toISOString() : ms;
    tags.push(
      form.digest
        ? { name, created, digest: `sha256:${i.toString(16).padStart(64, "0")}` }
        : { name, created },
    );
  }
  return tags;
}

const named = (names: readonly string[]): TagInfo[] => names.map((name) => ({ name }));
const REPO = "ghcr.io/acme/app";

const dialectScenarios: {
  name: string;
  tags: (n: number) => TagInfo[];
  flux: TagSelectionPolicy;
  argocd: ArgoConfig;
  kargo: KargoImageSubscription;
}[] = [
  {
    name: "semver >=1.0.0 <5.0.0",
    tags: (n) => named(semverTags(n, seeded(11))),
    flux: { policy: { semver: { range: ">=1.0.0 <5.0.0" } } },
    argocd: { imageName: `${REPO}:>=1.0.0 <5.0.0` },
    kargo: { repoURL: REPO, constraint: ">=1.0.0 <5.0.0" },
  },
  {
    name: "lexical / alphabetical",
    tags: (n) => named(releaseTags(n, seeded(12))),
    flux: { policy: { alphabetical: { order: "asc" } } },
    argocd: { imageName: REPO, settings: { image: { updateStrategy: "alphabetical" } } },
    kargo: { repoURL: REPO, imageSelectionStrategy: "Lexical" },
  },
  ...(
    [
      ["", { created: "text", digest: true }],
      [", created as epoch ms", { created: "epoch", digest: true }],
      [", created as epoch ms, no digest", { created: "epoch", digest: false }],
    ] as const
  ).map(([form, shape]) => ({
    // The first keeps the row name it had before the other forms came, so
    // that `pnpm bench --baseline` pairs it with an older checkout's.
    name: `newest-build (metadata in memory${form})`,
    tags: (n: number) => buildTags(n, seeded(13), shape),
    flux: { policy: { alphabetical: { order: "asc" } } } as TagSelectionPolicy,
    argocd: { imageName: REPO, settings: { image: { updateStrategy: "newest-build" } } },
    kargo: { repoURL: REPO, imageSelectionStrategy: "NewestBuild" },
  })),
];

const digestShape = /^sha256:[0-9a-f]{64}$/;
const utcShape = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * The floor of newest-build over objects: the least an exact selection does
 * per entry (check the digest's 64 hex digits, check the time's shape and
 * keep the latest), with none of the dialects' rules and not even the time's
 * ranges. What this costs per tag beyond Flux's name comparison no engine
 * that validates its input can avoid.
 */
function newestBuildFloor(tags: readonly TagInfo[]): string | undefined {
  let pick: string | undefined;
  let bestText = "";
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const t of tags) {
    if (typeof t.name !== "string") throw new Error("name");
    if (t.digest !== undefined && !digestShape.test(t.digest)) throw new Error("digest");
    const c = t.created;
    if (typeof c === "number") {
      if (c > bestMs) {
        bestMs = c;
        pick = t.name;
      }
    } else if (typeof c === "string") {
      // One shape and one length here, so the text order is the time order.
      if (!utcShape.test(c)) throw new Error("created");
      if (c > bestText) {
        bestText = c;
        pick = t.name;
      }
    }
  }
  return pick;
}

const dialectTasks = dialectScenarios.flatMap((s) =>
  [10_000, 100_000].flatMap((n) => {
    const infos = s.tags(n);
    const names = infos.map((t) => t.name);
    const prepared = prepareTagList(infos);
    const size = n.toLocaleString("en-US");
    return [
      { name: `${s.name}, ${size} tags: flux`, fn: () => selectLatestTag(names, s.flux) },
      { name: `${s.name}, ${size} tags: argocd`, fn: () => selectArgoTag(s.argocd, infos) },
      { name: `${s.name}, ${size} tags: kargo`, fn: () => selectKargoTag(s.kargo, infos) },
      ...(s.name.startsWith("newest-build")
        ? [{ name: `${s.name}, ${size} tags: floor`, fn: () => newestBuildFloor(infos) }]
        : []),
      {
        name: `${s.name}, ${size} tags, prepared: argocd`,
        fn: () => selectArgoTag(s.argocd, prepared),
      },
      {
        name: `${s.name}, ${size} tags, prepared: kargo`,
        fn: () => selectKargoTag(s.kargo, prepared),
      },
      { name: `${s.name}, ${size} tags: prepareTagList`, fn: () => prepareTagList(infos) },
    ];
  }),
);

const rows = await runBenchmarks(
  "tag dialects next to Flux on the same list (one call each, no explain trace)",
  dialectTasks,
  { time: 1500 },
);
console.log(
  "\n| scenario | argocd / flux | kargo / flux | floor / flux | prepared argocd / flux | prepared kargo / flux | prepareTagList / flux |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
);
const byName = new Map(rows.map((r) => [r.name, r]));
for (const flux of rows.filter((r) => r.name.endsWith(": flux"))) {
  const base = flux.name.slice(0, -": flux".length);
  const ratio = (suffix: string) => {
    const r = byName.get(`${base}${suffix}`);
    return r === undefined ? "—" : `${(r.p50Ms / flux.p50Ms).toFixed(2)}x`;
  };
  console.log(
    `| ${base} | ${ratio(": argocd")} | ${ratio(": kargo")} | ${ratio(": floor")} | ${ratio(", prepared: argocd")} | ${ratio(", prepared: kargo")} | ${ratio(": prepareTagList")} |`,
  );
}
