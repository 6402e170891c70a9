/**
 * Node mirror resolution speed (`pnpm bench nodemirrors`): one image against
 * a node with 200 containerd host directories, and against a registries.conf
 * with 500 registries (mirrors, wildcards, prefixes with paths). Target: a
 * few µs per resolution after load.
 *
 * Peers, measured in the same run: containerd's per-call work without the
 * loaded resolver (reading and parsing the host's hosts.toml each time, as
 * a one-shot call does), and containers/image's linear FindRegistry scan
 * over all 500 prefixes.
 *
 * With `--peer "<command>"` (or `--emit-inputs <file>`) the rows of
 * `nodemirrors-peer.ts` are measured against the upstream Go code instead.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeMirrors } from "@kubeimg/policy/internal";
import {
  createContainerdHostsResolver,
  findRegistry,
  loadRegistriesConf,
  NodeFiles,
  pullSources,
  type RegistryEntry,
  resolveContainerdHosts,
} from "@kubeimg/policy/node-mirrors";
import { runBenchmarks } from "./lib.js";
import { nodeMirrorsPeerRows } from "./nodemirrors-peer.js";
import { comparePeer, peerOptions, writeInputs } from "./peer.js";

const options = peerOptions();
if (options.emitInputs !== undefined || options.peer !== undefined) {
  const { rows, inputs } = nodeMirrorsPeerRows();
  if (options.emitInputs !== undefined) {
    writeInputs(options.emitInputs, inputs);
    console.log(`inputs written to ${options.emitInputs}`);
  }
  if (options.peer !== undefined) {
    const file = join(mkdtempSync(join(tmpdir(), "kubeimg-nodemirrors-")), "inputs.json");
    writeInputs(file, inputs);
    await comparePeer("node mirrors", options.peerName, options.peer, file, rows, {
      rounds: options.rounds,
    });
  }
  process.exit(0);
}

const { refMatchingPrefix } = nodeMirrors;

const certs = "/etc/containerd/certs.d";
const files: Record<string, string> = {};
for (let i = 0; i < 200; i++) {
  const host = i % 10 === 0 ? `registry-${i}.example.com:5000` : `registry-${i}.example.com`;
  const dir = host.replace(/:([0-9]+)$/, "_$1_");
  files[`${certs}/${dir}/hosts.toml`] = [
    `server = "https://${host}"`,
    `[host."https://mirror-a.internal/v2/cache-${i}"]`,
    '  capabilities = ["pull", "resolve"]',
    "  override_path = true",
    `[host."http://mirror-b.internal:5000"]`,
    '  capabilities = ["pull"]',
    "  skip_verify = true",
    '  [host."http://mirror-b.internal:5000".header]',
    `    x-cache = "node-${i}"`,
    "",
  ].join("\n");
  if (i % 20 === 0) files[`${certs}/${dir}/ca.crt`] = "";
}
files[`${certs}/_default/hosts.toml`] =
  '[host."https://node-mirror.internal"]\ncapabilities = ["pull", "resolve"]\n';
const nodeFiles = new NodeFiles(files);
const resolver = createContainerdHostsResolver(nodeFiles, {
  preload: true,
  certificateFiles: "assume-present",
});

const conf: string[] = [
  'unqualified-search-registries = ["quay.io", "docker.io"]',
  'short-name-mode = "enforcing"',
];
for (let i = 0; i < 500; i++) {
  const prefix =
    i % 50 === 0
      ? `*.zone-${i}.example.net`
      : i % 3 === 0
        ? `registry-${i}.example.com/team-${i % 7}`
        : `registry-${i}.example.com`;
  conf.push("[[registry]]", `prefix = "${prefix}"`, `location = "backend-${i}.example.org"`);
  if (i % 2 === 0) conf.push("[[registry.mirror]]", `location = "mirror-${i}.internal/cache"`);
  if (i % 4 === 0)
    conf.push(
      "[[registry.mirror]]",
      `location = "mirror-${i}.internal:5000"`,
      'pull-from-mirror = "digest-only"',
    );
}
const registries = loadRegistriesConf({ conf: conf.join("\n") });
if (registries.registries.length !== 500) throw new Error("expected 500 registries");

const image = "registry-123.example.com/team-4/app:1.2.3";
const host = "registry-120.example.com:5000";
function linearFindRegistry(list: readonly RegistryEntry[], name: string): RegistryEntry | null {
  let found: RegistryEntry | null = null;
  let length = 0;
  for (const reg of list) {
    if (refMatchingPrefix(name, reg.prefix) !== -1 && reg.prefix.length > length) {
      found = reg;
      length = reg.prefix.length;
    }
  }
  return found;
}
// Both answer the same before anything is timed.
if (
  findRegistry(registries, "registry-123.example.com/team-4/app") !==
  linearFindRegistry(registries.registries, "registry-123.example.com/team-4/app")
) {
  throw new Error("the index and the linear scan disagree");
}
if (resolver.resolve(host).hosts.length !== 3) throw new Error("expected 3 endpoints");

await runBenchmarks("Node mirror resolution (200 host directories, 500 registries)", [
  { name: "containerd: resolve a host (loaded resolver)", fn: () => resolver.resolve(host) },
  {
    name: "peer: containerd one-shot (parse hosts.toml per call)",
    fn: () => resolveContainerdHosts(host, nodeFiles, { certificateFiles: "assume-present" }),
  },
  { name: "registries.conf: pull sources of an image", fn: () => pullSources(registries, image) },
  {
    name: "registries.conf: FindRegistry (prefix index)",
    fn: () => findRegistry(registries, "registry-123.example.com/team-4/app"),
  },
  {
    name: "peer: FindRegistry as containers/image (linear scan)",
    fn: () => linearFindRegistry(registries.registries, "registry-123.example.com/team-4/app"),
  },
]);
