/**
 * `@kubeimg/core/platform` on the work a node agent or an admission webhook
 * does per image: parse + normalize + match of realistic `--platform`
 * specifiers against an arm64 node's comparer, and choosing the manifest
 * for that node from an image index of 50 platforms (BuildKit-style, with
 * attestation entries and Windows builds).
 *
 * The first table's peer is containerd/platforms v1.0.0-rc.5 (the release kubeimg
 * reproduces by default) itself, when a Go harness
 * over it is at hand: set KUBEIMG_PLATFORMS_GO to an executable that reads
 * one JSON request a line on stdin (`{"op":"bench","inputs":[…],
 * "candidates":[…],"n":N}`) and answers `{"expect":{"parseMatchNs":…,
 * "selectNs":…}}`, timing the same two loops in Go. The repository does not
 * build or ship it (it is upstream code); without it only our figures print.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  formatAllPlatform,
  normalizePlatform,
  only,
  orderIndexEntries,
  type PlatformInput,
  parsePlatform,
  safeParsePlatform,
  selectPlatform,
} from "@kubeimg/core/platform";
import { runBenchmarks } from "./lib.js";
import { comparePeer, type PeerRow, peerOptions, writeInputs } from "./peer.js";

const SPECIFIERS = [
  "linux/amd64",
  "linux/arm64",
  "linux/arm64/v8",
  "linux/arm/v7",
  "linux/arm/v6",
  "linux/386",
  "linux/ppc64le",
  "linux/s390x",
  "linux/riscv64",
  "linux/amd64/v2",
  "linux/amd64/v3",
  "linux/arm64/v8.2",
  "linux/aarch64",
  "Linux/x86_64",
  "linux/armhf",
  "linux/armel",
  "darwin/arm64",
  "macos/arm64",
  "windows/amd64",
  "windows(10.0.17763)/amd64",
  "windows(10.0.20348.2227)/amd64",
  "windows(10.0.26100+win32k)/amd64",
  "linux(+gpu)/amd64",
  "freebsd/amd64",
  "linux/mips64le",
  "linux/loong64",
  "linux/arm64/v9",
  "linux/arm/5",
  "linux/i386",
  "linux/amd64/v1",
];

/** An index of 50 platforms, BuildKit-shaped: images, one attestation per image, Windows builds. */
function index50(): PlatformInput[] {
  const images: PlatformInput[] = [
    { os: "linux", architecture: "amd64" },
    { os: "linux", architecture: "amd64", variant: "v2" },
    { os: "linux", architecture: "amd64", variant: "v3" },
    { os: "linux", architecture: "386" },
    { os: "linux", architecture: "arm", variant: "v5" },
    { os: "linux", architecture: "arm", variant: "v6" },
    { os: "linux", architecture: "arm", variant: "v7" },
    { os: "linux", architecture: "arm64", variant: "v8" },
    { os: "linux", architecture: "ppc64le" },
    { os: "linux", architecture: "s390x" },
    { os: "linux", architecture: "riscv64" },
    { os: "linux", architecture: "mips64le" },
    { os: "linux", architecture: "loong64" },
    { os: "windows", architecture: "amd64", osVersion: "10.0.17763.6893" },
    { os: "windows", architecture: "amd64", osVersion: "10.0.20348.3207" },
    { os: "windows", architecture: "amd64", osVersion: "10.0.26100.3194" },
    { os: "windows", architecture: "arm64", osVersion: "10.0.26100.3194" },
    { os: "freebsd", architecture: "amd64" },
    { os: "freebsd", architecture: "arm64" },
    { os: "darwin", architecture: "arm64" },
  ];
  const out: PlatformInput[] = [];
  for (const p of images) {
    out.push(p);
    if (out.length < 50) out.push({ os: "unknown", architecture: "unknown" });
  }
  for (let i = 0; out.length < 50; i++) out.push({ os: "linux", architecture: `arch${i}` });
  // The arm64 image last but one among the images, so the choice walks the whole list.
  return out;
}

/**
 * Specifiers that `Parse` refuses, one per kind of error (Go's `%q` quoting
 * of non-ASCII and control characters included), in the proportion an
 * admission webhook sees them next to valid ones.
 */
const INVALID = [
  "linux/arm 64",
  "linux/*",
  "linux/amd64/v8/extra",
  "lin ux/amd64",
  "windows(10.0.17763%zz)/amd64",
  "windows(10.0.17763+win%2)/amd64",
  "plan10",
  "linux/arm64/v8@sha",
  "línux/amd64",
  "linux/amd64\t",
  "linux//amd64",
  "linux(10.0/amd64",
];

/**
 * 10,000 specifiers, 11 % of them invalid, from a fixed seed: the valid ones
 * drawn from the realistic list (plus a percent-encoded OS version now and
 * then), the invalid ones from {@link INVALID}.
 */
function specifiers10k(): string[] {
  let state = 20261129;
  const random = (): number => {
    // mulberry32: a small deterministic generator, so every run and the peer read the same list.
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const out: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    if (i % 100 < 11) out.push(pick(INVALID));
    else if (i % 97 === 0) out.push("windows(10.0.20348%2E2227+win32k)/amd64");
    else out.push(pick(SPECIFIERS));
  }
  // Shuffle so the invalid ones are spread through the list, not in runs.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}

const node = { os: "linux", architecture: "arm64", variant: "v8" };
const comparer = only(node);
const specifiers = JSON.parse(JSON.stringify(SPECIFIERS)) as string[];
const candidates = index50();
let sink = 0;

function parseNormalizeMatch(): void {
  for (let i = 0; i < specifiers.length; i++) {
    const p = normalizePlatform(parsePlatform(specifiers[i] as string));
    if (comparer.match(p)) sink++;
  }
}

function choose(): void {
  sink += selectPlatform(comparer, candidates) ?? -1;
}

function chooseWithNewComparer(): void {
  sink += selectPlatform(only(node), candidates) ?? -1;
}

/** The host a one-part specifier takes its missing half from: the Go peer's own (linux/amd64). */
const host = { os: "linux", architecture: "amd64" };
const many = JSON.parse(JSON.stringify(specifiers10k())) as string[];
const entries = candidates.map((platform) => ({ platform }));

const withHost = { host };

/** Parse + normalize every specifier; a refused one costs its error object, as in Go. */
function parseNormalize10k(): void {
  for (let i = 0; i < many.length; i++) {
    const r = safeParsePlatform(many[i] as string, withHost);
    if (r.success) sink += normalizePlatform(r.data, withHost).architecture.length;
    else sink += r.error.code.length;
  }
}

function onlySort50(): void {
  sink += orderIndexEntries(only(node), entries).length;
}

/**
 * `--emit-inputs <file>` / `--peer "<command>"` (see `peer.ts`): the rows of
 * the comparison with containerd/platforms' Go code. The inputs: `host`
 * (the peer's own platform, which a one-part specifier completes from),
 * `specifiers` (10,000, 11 % invalid: Parse then Normalize each; the check
 * answer is FormatAll of each result or the error's text), `node` and
 * `index` (Only(node), keep the entries it matches, sort them stably by its
 * Less; the check answer is their positions).
 */
const options = peerOptions();
if (options.emitInputs !== undefined || options.peer !== undefined) {
  const peerRows: PeerRow[] = [
    {
      id: "parse-normalize",
      name: "platforms parse + normalize, 10,000 specifiers, 11 % invalid",
      ours: parseNormalize10k,
      check: () =>
        many.map((s) => {
          const r = safeParsePlatform(s, { host });
          return r.success
            ? formatAllPlatform(normalizePlatform(r.data, { host }))
            : r.error.message;
        }),
    },
    {
      id: "only-sort",
      name: "platforms Only(linux/arm64/v8) + sort a 50-entry index",
      ours: onlySort50,
      check: () => orderIndexEntries(only(node), entries),
    },
  ];
  const inputs = {
    host,
    specifiers: many,
    node,
    index: candidates.map((c) => ({ variant: "", osVersion: "", ...c })),
    rows: peerRows.map(({ id, name }) => ({ id, name })),
  };
  if (options.emitInputs !== undefined) {
    writeInputs(options.emitInputs, inputs);
    console.log(`inputs written to ${options.emitInputs}`);
  } else if (options.peer !== undefined) {
    const file = join(mkdtempSync(join(tmpdir(), "kubeimg-platforms-")), "inputs.json");
    writeInputs(file, inputs);
    await comparePeer("platforms", options.peerName, options.peer, file, peerRows, {
      rounds: options.rounds,
    });
  }
  process.exit(0);
}

const rows = await runBenchmarks(
  "platforms: realistic specifiers and an index of 50 (tinybench, wall clock)",
  [
    {
      name: "parse + normalize + match (per specifier)",
      opsPerCall: specifiers.length,
      fn: parseNormalizeMatch,
    },
    { name: "choose from an index of 50 (comparer built once)", fn: choose },
    { name: "build only(linux/arm64/v8) + choose from 50", fn: chooseWithNewComparer },
    {
      name: "parse + normalize, 10,000 specifiers, 11 % invalid (per specifier)",
      opsPerCall: many.length,
      fn: parseNormalize10k,
    },
    { name: "only(linux/arm64/v8) + sort a 50-entry index", fn: onlySort50 },
  ],
  { time: 1500, warmupTime: 300 },
);

const nsOf = (name: string) =>
  1e9 / (rows.find((r) => r.name.startsWith(name))?.opsPerSecond ?? Number.NaN);
const ours = { parseMatchNs: nsOf("parse + normalize"), selectNs: nsOf("choose from an index") };
console.log("\n### ns per operation\n");
console.log("| operation | @kubeimg/core (ns) | containerd/platforms rc.5, Go (ns) | Go ÷ ours |");
console.log("| --- | ---: | ---: | ---: |");

const goBinary = process.env.KUBEIMG_PLATFORMS_GO;
let go: { parseMatchNs: number; selectNs: number } | undefined;
if (goBinary) {
  const request = {
    op: "bench",
    inputs: specifiers,
    candidates: candidates.map((c) => ({ variant: "", osVersion: "", ...c })),
    n: 20000,
  };
  const run = spawnSync(goBinary, {
    input: `${JSON.stringify(request)}\n`,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`${goBinary} failed: ${run.stderr}`);
  go = (JSON.parse(run.stdout.trim()) as { expect: { parseMatchNs: number; selectNs: number } })
    .expect;
}
for (const [label, key] of [
  ["parse + normalize + match", "parseMatchNs"],
  ["choose from an index of 50", "selectNs"],
] as const) {
  const theirs = go?.[key];
  console.log(
    `| ${label} | ${ours[key].toFixed(0)} | ${theirs === undefined ? "(set KUBEIMG_PLATFORMS_GO)" : theirs.toFixed(0)} | ${theirs === undefined ? "-" : (theirs / ours[key]).toFixed(2)} |`,
  );
}
if (sink === 0) console.log("(no work done?)");
