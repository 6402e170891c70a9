/**
 * What loading kubeimg costs a fresh process: for each public subpath of the
 * built packages (every entry of every package's `exports` map that is a
 * module), the CPU time (user + system, read by the child itself at exit)
 * of `node` importing it, against `node` importing nothing, in alternating
 * rounds. The fraction is (import − bare) ÷ bare; the bound is 25 %.
 *
 * Then, per main operation, the first call in a fresh process (imports and
 * inputs ready) against the same operation's steady state in that process
 * (the median per-call time of batches run after a warm-up); the issue's
 * bound is 3×. Two rows measure Node's own parsers the same way, as peers:
 * the one-time cost of a first call is the engine's, whatever the code.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./lib.js";

const root = join(import.meta.dirname, "..");
const rounds = Number(process.env.KUBEIMG_COLD_ROUNDS ?? 5);

function subpaths(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, "packages")).sort()) {
    const pkg = JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8")) as {
      private?: boolean;
      exports: Record<string, unknown>;
    };
    if (pkg.private === true) continue;
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (typeof target === "object") out.push(`@kubeimg/${name}${key.slice(1)}`);
    }
  }
  return out;
}

/**
 * CPU milliseconds of one fresh `node` that imports `specifier` (nothing
 * when undefined), run in the package's own folder so that it resolves by
 * self-reference whether or not the workspace root depends on it.
 */
function cpuMs(specifier: string | undefined): number {
  const load = specifier === undefined ? "" : `await import(${JSON.stringify(specifier)});`;
  const script = `${load}const u=process.cpuUsage();process.stdout.write(String((u.user+u.system)/1000));`;
  const name = specifier === undefined ? undefined : /^@kubeimg\/([^/]+)/.exec(specifier)?.[1];
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: name === undefined ? root : join(root, "packages", name),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${specifier}: ${run.stderr}`);
  return Number(run.stdout);
}

const ROUTING_SETUP = `import { compileRouting, parseRoutingResource, routeContainer } from "@kubeimg/policy/routing";
const resources = [
  { apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror", metadata: { name: "all" },
    spec: { priority: 0, filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "mirror.example.com", path: "/cache" }] } },
  { apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterReplicatedImageSet", metadata: { name: "hub" },
    spec: { upstreams: [{ registry: "docker.io", path: "/library" }, { registry: "replica.example.com", path: "/library" }] } },
].map((o) => parseRoutingResource(o));
const routing = compileRouting(resources);
const pod = { namespace: "team-1", labels: { app: "web" }, annotations: {} };
const images = Array.from({ length: 64 }, (_, k) => k % 2 === 0 ? \`nginx:1.\${k}\` : \`registry-\${k}.example.com/team/app:\${k}\`);`;

const targets = subpaths();
const samples = new Map<string | undefined, number[]>([[undefined, []]]);
for (const t of targets) samples.set(t, []);
for (let r = 0; r < rounds; r++) {
  for (const t of [undefined, ...targets]) samples.get(t)?.push(cpuMs(t));
}
const bare = median(samples.get(undefined) ?? []);
console.log(`\n### cold start: CPU of a fresh node importing one subpath (${rounds} rounds)\n`);
console.log("| subpath | CPU ms (median) | import ÷ `node -e 0` |");
console.log("| --- | ---: | ---: |");
console.log(`| (nothing: \`node -e 0\`) | ${bare.toFixed(1)} | 0 % |`);
for (const t of targets) {
  const ms = median(samples.get(t) ?? []);
  console.log(`| ${t} | ${ms.toFixed(1)} | ${(((ms - bare) / bare) * 100).toFixed(0)} % |`);
}

/** One operation: its imports and inputs (`setup`), and the call (`op`, an expression of `i`). */
interface Operation {
  readonly name: string;
  readonly setup: string;
  readonly op: string;
}

const operations: Operation[] = [
  {
    name: "parse a reference (@kubeimg/core/reference)",
    setup: `import { parseNormalizedNamed } from "@kubeimg/core/reference";
const inputs = Array.from({ length: 64 }, (_, k) => \`registry-\${k}.example.com:5000/team-\${k % 7}/app-\${k}:1.\${k}.0\`);`,
    op: "parseNormalizedNamed(inputs[i % 64])",
  },
  {
    name: "platform match (@kubeimg/core/platform)",
    setup: `import { normalizePlatform, only, parsePlatform } from "@kubeimg/core/platform";
const comparer = only({ os: "linux", architecture: "arm64", variant: "v8" });
const inputs = ["linux/arm64", "linux/amd64", "linux/arm64/v8", "windows/amd64", "linux/arm/v7", "darwin/arm64"];`,
    op: "comparer.match(normalizePlatform(parsePlatform(inputs[i % 6])))",
  },
  {
    name: "select a tag (@kubeimg/policy/tags, semver, 100 tags)",
    setup: `import { selectLatestTag } from "@kubeimg/policy/tags";
const tags = Array.from({ length: 100 }, (_, k) => \`\${k % 6}.\${k % 13}.\${k}\`);
const policies = [">=1.0.0 <5.0.0", ">=2.0.0", "~3.1"].map((range) => ({ policy: { semver: { range } } }));`,
    op: "selectLatestTag(tags, policies[i % 3])",
  },
  {
    name: "route a pod's container (@kubeimg/policy/routing, compiled)",
    setup: ROUTING_SETUP,
    op: "routeContainer(routing, { pod, container: { name: 'app', image: images[i % 64], imagePullPolicy: 'IfNotPresent' } })",
  },
  {
    name: "plan a pull (@kubeimg/policy/node-mirrors, containerd)",
    setup: `${ROUTING_SETUP}
import { planPull } from "@kubeimg/policy/node-mirrors";
const node = { runtime: "containerd", files: { "/etc/containerd/certs.d/mirror.example.com/hosts.toml": 'server = "https://mirror.example.com"\\n[host."https://cache.internal"]\\ncapabilities = ["pull"]\\n' } };`,
    op: "planPull({ routing, pod, container: { name: 'app', image: images[i % 64], imagePullPolicy: 'IfNotPresent' }, node })",
  },
  // Peers: Node's own parsers, whose first call pays the same one-time costs
  // (lazy compilation, inline caches, the first allocation of their shapes).
  {
    name: "peer: Node's URL parser (`new URL`)",
    setup:
      "const inputs = Array.from({ length: 64 }, (_, k) => 'https://registry-' + k + '.example.com:5000/team/app');",
    op: "new URL(inputs[i % 64]).host",
  },
  {
    name: "peer: `JSON.parse` of a small object",
    setup:
      "const inputs = Array.from({ length: 64 }, (_, k) => JSON.stringify({ name: 'app-' + k, tag: '1.' + k + '.0' }));",
    op: "JSON.parse(inputs[i % 64]).tag",
  },
];

/** First-call and steady-state microseconds of one operation in a fresh process. */
function firstCall(operation: Operation): { first: number; steady: number } {
  const script = `${operation.setup}
let sink = 0;
const now = () => Number(process.hrtime.bigint()) / 1000;
const t0 = now();
sink += (${operation.op.replaceAll("i %", "0 %")}) ? 1 : 0;
const first = now() - t0;
for (let i = 0; i < 2000; i++) sink += (${operation.op}) ? 1 : 0;
const batches = [];
for (let b = 0; b < 21; b++) {
  const s = now();
  for (let i = 0; i < 200; i++) sink += (${operation.op}) ? 1 : 0;
  batches.push((now() - s) / 200);
}
batches.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ first, steady: batches[10], sink }));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${operation.name}: ${run.stderr}`);
  return JSON.parse(run.stdout) as { first: number; steady: number };
}

const firsts = new Map<string, { first: number[]; steady: number[] }>();
for (const o of operations) firsts.set(o.name, { first: [], steady: [] });
for (let r = 0; r < rounds; r++) {
  for (const o of operations) {
    const { first, steady } = firstCall(o);
    firsts.get(o.name)?.first.push(first);
    firsts.get(o.name)?.steady.push(steady);
  }
}
console.log(
  `\n### cold start: first call against steady state, fresh processes (${rounds} rounds)\n`,
);
console.log(
  "| operation | first call µs (median) | steady µs per call (median) | first ÷ steady |",
);
console.log("| --- | ---: | ---: | ---: |");
for (const o of operations) {
  const f = firsts.get(o.name);
  const first = median(f?.first ?? []);
  const steady = median(f?.steady ?? []);
  console.log(
    `| ${o.name} | ${first.toFixed(1)} | ${steady.toFixed(2)} | ${(first / steady).toFixed(1)}× |`,
  );
}
