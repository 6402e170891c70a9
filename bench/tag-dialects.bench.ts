/**
 * Argo CD Image Updater and Kargo selection over a repository's tag list as
 * a metadata source hands it over (every entry with `created` as RFC 3339
 * text and a digest, read from JSON), each strategy on a **raw** list (the
 * entries checked on every call) and on the same list **prepared** once
 * outside the timed call (`prepareTagList`). Goal: a raw list within 1.5x
 * of the prepared one. The strategies that read no metadata (semver,
 * alphabetical, Lexical) also run on the names alone (`{ name }` entries),
 * what a caller that fetched no metadata passes.
 *
 * With `--peer "<command>"` each row runs against the Go code it ports (see
 * `peer.ts`; `--emit-inputs <file>` writes the rows): Argo CD's `GetTags`
 * filtering and list building with the metadata cached, then
 * `GetNewestVersionFromTags`; Kargo's selector `Select` with the images
 * cached by tag. The Go side holds its metadata decoded (times and digests
 * as values), so both kubeimg forms are measured against the same Go figure.
 * Each peer answer is `{ tag, digest }` for Argo CD (digest empty unless the
 * strategy is `digest`) and the discovered tags for Kargo.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ArgoConfig, selectArgoTag } from "@kubeimg/policy/tags/argocd";
import { prepareTagList, type TagInfo } from "@kubeimg/policy/tags/dialects";
import { type KargoImageSubscription, selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { runBenchmarks, seededRandom as seeded } from "./lib.js";
import { comparePeer, type PeerRow, peerOptions, writeInputs } from "./peer.js";

const REPO = "ghcr.io/acme/app";
const DISCOVERY_LIMIT = 20;

type NameKind = "semver" | "release" | "build";

function tagName(kind: NameKind, i: number, random: () => number): string {
  const int = (max: number) => Math.floor(random() * max);
  const two = (x: number) => String(x).padStart(2, "0");
  switch (kind) {
    case "semver": {
      const v = `${int(8)}.${int(30)}.${int(50)}`;
      return i % 4 === 0
        ? v
        : i % 4 === 1
          ? `v${v}-rc.${int(20)}`
          : i % 4 === 2
            ? `main-${int(0x10000000).toString(16).padStart(7, "0")}`
            : `${v}-alpine`;
    }
    case "release":
      return `RELEASE.${2015 + int(10)}-${two(1 + int(12))}-${two(1 + int(28))}T${two(int(24))}-${two(int(60))}-${two(int(60))}Z`;
    default:
      return `build-${int(0x7fffffff).toString(16)}`;
  }
}

/** `n` entries named by `kind`, each with a distinct `created` and a digest, as JSON gives them. */
function registryTags(kind: NameKind, n: number, seed: number): TagInfo[] {
  const random = seeded(seed);
  const base = Date.UTC(2020, 0, 1);
  const tags: TagInfo[] = [];
  for (let i = 0; i < n; i++) {
    const name = tagName(kind, i, random);
    const created = new Date(base + Math.floor(random() * 150_000_000_000)).toISOString();
    tags.push({ name, created, digest: `sha256:${i.toString(16).padStart(64, "0")}` });
  }
  // Metadata arrives as JSON (a registry's answer, a cache): flat strings, as parsed.
  return JSON.parse(JSON.stringify(tags)) as TagInfo[];
}

interface Scenario {
  readonly label: string;
  readonly dialect: "argocd" | "kargo";
  readonly strategy: string;
  readonly kind: NameKind;
  readonly seed: number;
  /** Whether the strategy reads metadata (else a names-only row is added). */
  readonly metadata: boolean;
  /** The constraint as the peer reads it (Argo CD's `digest`: the tag it follows). */
  readonly constraint: (tags: readonly TagInfo[]) => string;
  readonly argocd?: (constraint: string) => ArgoConfig;
  readonly kargo?: (constraint: string) => KargoImageSubscription;
}

const range = ">=1.0.0 <5.0.0";
const scenarios: Scenario[] = [
  {
    label: "Argo CD semver",
    dialect: "argocd",
    strategy: "semver",
    metadata: false,
    kind: "semver",
    seed: 21,
    constraint: () => range,
    argocd: (c) => ({ imageName: `${REPO}:${c}` }),
  },
  {
    label: "Argo CD alphabetical",
    dialect: "argocd",
    strategy: "alphabetical",
    metadata: false,
    kind: "release",
    seed: 22,
    constraint: () => "",
    argocd: () => ({ imageName: REPO, settings: { image: { updateStrategy: "alphabetical" } } }),
  },
  {
    label: "Argo CD newest-build",
    dialect: "argocd",
    strategy: "newest-build",
    metadata: true,
    kind: "build",
    seed: 23,
    constraint: () => "",
    argocd: () => ({ imageName: REPO, settings: { image: { updateStrategy: "newest-build" } } }),
  },
  {
    label: "Argo CD digest",
    dialect: "argocd",
    strategy: "digest",
    metadata: true,
    kind: "build",
    seed: 24,
    // The tag it follows sits in the middle of the list.
    constraint: (tags) => (tags[tags.length >> 1] as TagInfo).name,
    argocd: (c) => ({
      imageName: `${REPO}:${c}`,
      settings: { image: { updateStrategy: "digest" } },
    }),
  },
  {
    label: "Kargo SemVer",
    dialect: "kargo",
    strategy: "SemVer",
    metadata: false,
    kind: "semver",
    seed: 25,
    constraint: () => range,
    kargo: (c) => ({ repoURL: REPO, constraint: c, discoveryLimit: DISCOVERY_LIMIT }),
  },
  {
    label: "Kargo Lexical",
    dialect: "kargo",
    strategy: "Lexical",
    metadata: false,
    kind: "release",
    seed: 26,
    constraint: () => "",
    kargo: () => ({
      repoURL: REPO,
      imageSelectionStrategy: "Lexical",
      discoveryLimit: DISCOVERY_LIMIT,
    }),
  },
  {
    label: "Kargo NewestBuild",
    dialect: "kargo",
    strategy: "NewestBuild",
    metadata: true,
    kind: "build",
    seed: 27,
    constraint: () => "",
    kargo: () => ({
      repoURL: REPO,
      imageSelectionStrategy: "NewestBuild",
      discoveryLimit: DISCOVERY_LIMIT,
    }),
  },
];

interface Row {
  readonly id: string;
  readonly scenario: Scenario;
  readonly size: string;
  readonly constraint: string;
  readonly tags: TagInfo[];
  readonly raw: () => unknown;
  readonly prepared: () => unknown;
  /** The raw list of names alone, for a strategy that reads no metadata. */
  readonly names: (() => unknown) | undefined;
  /** The answer in the peer's terms, for every form alike. */
  readonly answer: (form: Form) => unknown;
}

type Form = "raw" | "prepared" | "names";

const rows: Row[] = scenarios.flatMap((s, k) =>
  [10_000, 100_000].map((n, j): Row => {
    const tags = registryTags(s.kind, n, s.seed);
    const prepared = prepareTagList(tags);
    const named: TagInfo[] = tags.map((t) => ({ name: t.name }));
    const constraint = s.constraint(tags);
    const select = (list: readonly TagInfo[] | typeof prepared) => {
      if (s.argocd !== undefined) {
        const r = selectArgoTag(s.argocd(constraint), list);
        return { tag: r.tag ?? "", digest: r.digest ?? "" };
      }
      return selectKargoTag((s.kargo as NonNullable<Scenario["kargo"]>)(constraint), list)
        .discovered;
    };
    return {
      id: `row-${k}-${j}`,
      scenario: s,
      size: n.toLocaleString("en-US"),
      constraint,
      tags,
      raw: () => select(tags),
      prepared: () => select(prepared),
      names: s.metadata ? undefined : () => select(named),
      answer: (form) => select(form === "raw" ? tags : form === "names" ? named : prepared),
    };
  }),
);

const options = peerOptions();
if (options.emitInputs !== undefined || options.peer !== undefined) {
  const inputs = {
    rows: rows.map((r) => ({
      id: r.id,
      name: `${r.scenario.label}, ${r.size} tags`,
      dialect: r.scenario.dialect,
      strategy: r.scenario.strategy,
      constraint: r.constraint,
      discoveryLimit: DISCOVERY_LIMIT,
      tags: r.tags,
    })),
  };
  if (options.emitInputs !== undefined) {
    writeInputs(options.emitInputs, inputs);
    console.log(`inputs written to ${options.emitInputs}`);
  } else if (options.peer !== undefined) {
    const file = join(mkdtempSync(join(tmpdir(), "kubeimg-tag-dialects-")), "inputs.json");
    writeInputs(file, inputs);
    const peerRows: PeerRow[] = rows.flatMap((r) =>
      (r.names === undefined
        ? (["raw", "prepared"] as const)
        : (["raw", "prepared", "names"] as const)
      ).map((form) => ({
        id: r.id,
        name: `${r.scenario.label}, ${r.size} tags, ${form === "names" ? "raw names only" : form}`,
        ours: form === "raw" ? r.raw : form === "names" ? (r.names as () => unknown) : r.prepared,
        check: () => r.answer(form),
      })),
    );
    await comparePeer(
      "Argo CD and Kargo selection, raw and prepared lists",
      options.peerName,
      options.peer,
      file,
      peerRows,
      { rounds: options.rounds },
    );
  }
  process.exit(0);
}

const results = await runBenchmarks(
  "Argo CD and Kargo selection over registry metadata (one call, no explain trace)",
  rows.flatMap((r) => [
    { name: `${r.scenario.label}, ${r.size} tags, raw`, fn: r.raw },
    { name: `${r.scenario.label}, ${r.size} tags, prepared`, fn: r.prepared },
  ]),
  { time: 1000 },
);
console.log("\n| row | raw ÷ prepared |\n| --- | ---: |");
for (let i = 0; i + 1 < results.length; i += 2) {
  const raw = results[i] as (typeof results)[number];
  const prepared = results[i + 1] as (typeof results)[number];
  console.log(
    `| ${raw.name.slice(0, -", raw".length)} | ${(raw.p50Ms / prepared.p50Ms).toFixed(2)}x |`,
  );
}
