/**
 * `kubeimg test` against the library it runs: 1,000 select cases over 100
 * Flux ImagePolicies (10 files), each case 20 tags, answered by
 * `runPolicyTests` and by the bare `safeSelectLatestTag` call the runner
 * makes for each case (policies parsed once, outside the timed call).
 *
 * The runner's whole call includes what every run pays once (reading the
 * resources, parsing the 100 policies) and what each case costs to load
 * (its YAML, its validation). To separate them, the same policies are run
 * with 1,000 and 2,000 cases, and the same two files with `run` matching no
 * case (read and validated, nothing evaluated): the difference of each pair
 * over 1,000 is the cost of one more case, and the running part of a case
 * is that of a run minus that of loading. Goal: within 2x of the bare call
 * once files are loaded (the runner adds comparing and reporting, not a
 * second evaluation).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPolicyTests } from "@kubeimg/cli";
import { parseImagePolicy, safeSelectLatestTag } from "@kubeimg/policy/tags";
import { median, seededRandom } from "./lib.js";

const POLICIES = 100;
const random = seededRandom(2029);
const int = (max: number) => Math.floor(random() * max);

/** One ImagePolicy: a semver range, some with a filter (a quarter) or a pre-release range. */
function policy(i: number): Record<string, unknown> {
  const major = i % 8;
  const spec: Record<string, unknown> = {
    imageRepositoryRef: { name: `app-${i}` },
    policy: { semver: { range: i % 5 === 0 ? `>=${major}.0.0-0` : `${major}.x` } },
  };
  if (i % 4 === 1)
    spec.filterTags = { pattern: "^v?(?P<v>[0-9.]+(-rc\\.[0-9]+)?)$", extract: "$v" };
  return {
    apiVersion: "image.toolkit.fluxcd.io/v1",
    kind: "ImagePolicy",
    metadata: { name: `app-${i}`, namespace: "flux-system" },
    spec,
  };
}

function tags(): string[] {
  return Array.from({ length: 20 }, (_, j) => {
    const v = `${int(8)}.${int(20)}.${int(30)}`;
    return j % 5 === 0 ? `v${v}` : j % 7 === 0 ? `${v}-rc.${int(5)}` : v;
  });
}

const policies = Array.from({ length: POLICIES }, (_, i) => policy(i));
const specs = policies.map((p) => parseImagePolicy(p).spec);
const cases = Array.from({ length: 2000 }, (_, i) => ({ policy: i % POLICIES, tags: tags() }));

const dir = mkdtempSync(join(tmpdir(), "kubeimg-bench-policy-tests-"));
mkdirSync(join(dir, "flux"));
for (let f = 0; f < 10; f++) {
  writeFileSync(
    join(dir, "flux", `policies-${f}.yaml`),
    policies
      .slice(f * 10, f * 10 + 10)
      .map((p) => JSON.stringify(p))
      .join("\n---\n"),
  );
}
function testFile(name: string, count: number): string {
  const lines = [
    "apiVersion: kubeimg.dev/v1alpha1",
    "kind: PolicyTest",
    "resources: [flux/]",
    "cases:",
  ];
  cases.slice(0, count).forEach((c, i) => {
    const r = safeSelectLatestTag(c.tags, specs[c.policy] as (typeof specs)[number]);
    const expect = r.success ? `{ tag: ${JSON.stringify(r.tag)} }` : `{ error: ${r.error.code} }`;
    lines.push(
      `  - name: case ${i}`,
      `    select: { policy: ImagePolicy/flux-system/app-${c.policy}, tags: ${JSON.stringify(c.tags)} }`,
      `    expect: ${expect}`,
    );
  });
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
const file1000 = testFile("a.kubeimg-test.yaml", 1000);
const file2000 = testFile("b.kubeimg-test.yaml", 2000);

// Every case passes: the runner evaluated each one, and agreed with the bare call.
for (const [file, count] of [
  [file1000, 1000],
  [file2000, 2000],
] as const) {
  const report = await runPolicyTests([file], { cwd: dir });
  if (report.passed !== count) throw new Error(`${file}: ${report.passed} of ${count} passed`);
}

// Rounds rather than tinybench: a runner call of 2,000 cases takes long
// enough that tinybench's minimum of 64 samples per task would take minutes.
// Each round runs every variant once, in turn, timed in process CPU time
// (steadier than wall time on a shared machine); medians over the rounds.
let sink = 0;
const bareCalls = () => {
  for (let i = 0; i < 1000; i++) {
    const c = cases[i] as (typeof cases)[number];
    if (safeSelectLatestTag(c.tags, specs[c.policy] as (typeof specs)[number]).success) sink++;
  }
};
const variants: { name: string; cases: number; fn: () => unknown }[] = [
  { name: "library: safeSelectLatestTag, the bare call per case", cases: 1000, fn: bareCalls },
  {
    name: "runPolicyTests, 1,000 cases (read, validate, load policies, run)",
    cases: 1000,
    fn: () => runPolicyTests([file1000], { cwd: dir }),
  },
  {
    name: "runPolicyTests, 2,000 cases",
    cases: 2000,
    fn: () => runPolicyTests([file2000], { cwd: dir }),
  },
  {
    name: "runPolicyTests, 1,000 cases read and validated, none run",
    cases: 1000,
    fn: () => runPolicyTests([file1000], { cwd: dir, run: "^$" }),
  },
  {
    name: "runPolicyTests, 2,000 cases read and validated, none run",
    cases: 2000,
    fn: () => runPolicyTests([file2000], { cwd: dir, run: "^$" }),
  },
];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const ROUNDS = Number(process.env.KUBEIMG_BENCH_ROUNDS ?? 9);
const samples: number[][] = variants.map(() => []);
for (let round = 0; round <= ROUNDS; round++) {
  for (const [i, v] of variants.entries()) {
    const start = cpuMs();
    await v.fn();
    // Round 0 warms up and is not kept.
    if (round > 0) samples[i]?.push(cpuMs() - start);
  }
}
rmSync(dir, { recursive: true, force: true });

const callMs = variants.map((_, i) => median(samples[i] ?? []));
const spread = (i: number) => {
  const xs = samples[i] ?? [];
  return `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
};
const at = (i: number) => callMs[i] ?? Number.NaN;
console.log("\n### kubeimg test: 1,000 select cases over 100 Flux ImagePolicies\n");
console.log(`| call | CPU ms per call (median of ${ROUNDS}) | range | µs per case |`);
console.log("| --- | ---: | ---: | ---: |");
variants.forEach((v, i) => {
  console.log(
    `| ${v.name} | ${at(i).toFixed(1)} | ${spread(i)} | ${((at(i) / v.cases) * 1000).toFixed(2)} |`,
  );
});
const bare = at(0) / 1000;
const perCaseRun = (at(2) - at(1)) / 1000;
const perCaseLoad = (at(4) - at(3)) / 1000;
const running = perCaseRun - perCaseLoad;
const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;
const x = (ms: number) => `${(ms / bare).toFixed(2)}x`;
console.log("\n| per case | time | vs the bare call |");
console.log("| --- | ---: | ---: |");
console.log(`| bare library call | ${us(bare)} | 1.00x |`);
console.log(`| runner, one more case (load + run) | ${us(perCaseRun)} | ${x(perCaseRun)} |`);
console.log(
  `| runner, loading one more case (its YAML, its validation) | ${us(perCaseLoad)} | ${x(perCaseLoad)} |`,
);
console.log(`| runner once files are loaded (goal: within 2x) | ${us(running)} | ${x(running)} |`);
// One difference instead of two (steadier), but it keeps the fixed cost of
// reading and parsing the 100 policies, so it overstates a case's share.
const runningOf1000 = (at(1) - at(3)) / 1000;
console.log(
  `| runner once the test file is loaded, 1,000-case call (policies' loading included) | ${us(runningOf1000)} | ${x(runningOf1000)} |`,
);
console.log(`| runner, whole call of 1,000 cases | ${us(at(1) / 1000)} | ${x(at(1) / 1000)} |`);
if (sink < 0) console.log(sink);
