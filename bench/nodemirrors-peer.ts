/**
 * The node mirror rows measured against the upstream Go code
 * (`pnpm bench nodemirrors --peer "<command>"`; `--emit-inputs <file>`
 * writes what the peer reads). The peer builds containerd v2.3.4's
 * `ConfigureHosts` and containers/image v5.36.1's `sysregistriesv2` outside
 * the repository and answers `bench/peer.ts`'s line protocol:
 *
 * - `hosts-memory`: resolve the hosts of 1,000 images, each parsing its
 *   directory's hosts.toml again, as a one-shot call does; the peer runs
 *   containerd's decision code over the same files held in memory;
 * - `hosts-disk`: the same call of ours, the peer reading the files from disk;
 * - `conf-parse`: load a registries.conf of 51 registries, two of them from
 *   the two drop-ins, the peer reading them from disk as containers/image does;
 * - `pull-sources`: the pull sources of one image (cycling through the
 *   list), each source checked against the blocked registries.
 *
 * `check` answers the first image's endpoints, the loaded registries, and
 * the first image's sources.
 */
import {
  type ContainerdHostsResult,
  loadRegistriesConf,
  NodeFiles,
  type PullSourcesResult,
  pullSources,
  type RegistriesConf,
  resolveContainerdHosts,
} from "@kubeimg/policy/node-mirrors";
import type { PeerRow } from "./peer.js";

type ContainerdEndpoint = ContainerdHostsResult["hosts"][number];

const root = "/etc/containerd/certs.d";

/** 200 host directories (every tenth with a port), a `_default`, and the hosts of 1,000 images. */
function containerdNode(): { files: Record<string, string>; hosts: string[] } {
  const files: Record<string, string> = {};
  const hostOf = (i: number) =>
    i % 10 === 0 ? `registry-${i}.example.com:5000` : `registry-${i}.example.com`;
  for (let i = 0; i < 200; i++) {
    const host = hostOf(i);
    const dir = host.replace(/:([0-9]+)$/, "_$1_");
    files[`${root}/${dir}/hosts.toml`] = [
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
  }
  files[`${root}/_default/hosts.toml`] =
    '[host."https://node-mirror.internal"]\ncapabilities = ["pull", "resolve"]\n';
  // Most images name a configured registry; the rest fall to `_default`.
  const hosts = Array.from({ length: 1000 }, (_, i) =>
    i % 10 === 9 ? "docker.io" : i % 10 === 8 ? `other-${i}.example.org` : hostOf((i * 7) % 200),
  );
  return { files, hosts };
}

/** A main file of 45 registries and two drop-ins (one replacing 3 of them, one adding 6): 51 in all. */
function registriesFiles(): { conf: string; dropIns: Record<string, string>; images: string[] } {
  const registry = (i: number, extra: string[] = []) => {
    const prefix =
      i % 15 === 0
        ? `*.zone-${i}.example.net`
        : i % 3 === 0
          ? `registry-${i}.example.com/team-${i % 7}`
          : `registry-${i}.example.com`;
    const lines = ["[[registry]]", `prefix = "${prefix}"`, `location = "backend-${i}.example.org"`];
    if (i % 11 === 5) lines.push("blocked = true");
    if (i % 13 === 4) lines.push("insecure = true");
    lines.push(...extra);
    if (i % 2 === 0) lines.push("[[registry.mirror]]", `location = "mirror-${i}.internal/cache"`);
    if (i % 4 === 0)
      lines.push(
        "[[registry.mirror]]",
        `location = "mirror-${i}.internal:5000"`,
        'pull-from-mirror = "digest-only"',
      );
    return lines.join("\n");
  };
  const conf = [
    'unqualified-search-registries = ["quay.io", "docker.io"]',
    'short-name-mode = "enforcing"',
    ...Array.from({ length: 45 }, (_, i) => registry(i)),
  ].join("\n\n");
  const dropIns = {
    "50-replace.conf": [3, 7, 8]
      .map((i) => registry(i, ["mirror-by-digest-only = false"]))
      .join("\n\n"),
    "60-add.conf": [
      'unqualified-search-registries = ["registry.internal"]',
      ...Array.from({ length: 6 }, (_, k) => registry(45 + k)),
    ].join("\n\n"),
  };
  const images: string[] = [];
  for (let i = 0; i < 100; i++) {
    const n = (i * 17) % 51;
    const host =
      n % 15 === 0
        ? `cache.zone-${n}.example.net`
        : n % 3 === 0
          ? `registry-${n}.example.com/team-${n % 7}`
          : `registry-${n}.example.com`;
    if (i % 10 === 9) images.push(`nginx:1.${i}`);
    else if (i % 10 === 8) images.push(`unlisted-${i}.example.org/app/svc:${i}`);
    else if (i % 5 === 1)
      images.push(`${host}/app-${i}@sha256:${i.toString(16).padStart(64, "0")}`);
    else images.push(`${host}/app-${i}:v${i}`);
  }
  return { conf, dropIns, images };
}

/** An endpoint as the peer writes containerd's `RegistryHost` (headers and capabilities only). */
function endpointAnswer(e: ContainerdEndpoint) {
  return {
    scheme: e.scheme,
    host: e.host,
    path: e.path,
    capabilities: [...e.capabilities],
    header: Object.fromEntries(Object.entries(e.header).map(([k, v]) => [k, [...v]])),
    skipVerify: e.skipVerify,
    httpFallback: e.httpFallback,
  };
}

function registriesAnswer(conf: RegistriesConf) {
  return conf.registries.map((r) => ({
    prefix: r.prefix,
    location: r.location,
    insecure: r.insecure,
    blocked: r.blocked,
    mirrorByDigestOnly: r.mirrorByDigestOnly,
    mirrors: r.mirrors.map((m) => ({
      location: m.location,
      insecure: m.insecure,
      pullFromMirror: m.pullFromMirror,
    })),
  }));
}

function sourcesAnswer(result: PullSourcesResult) {
  return result.sources.map((s) => ({
    location: s.location,
    insecure: s.insecure,
    pullFromMirror: s.pullFromMirror,
    reference: s.reference,
    blocked: s.blocked,
  }));
}

/** The rows and the inputs file the peer reads. */
export function nodeMirrorsPeerRows(): { rows: PeerRow[]; inputs: unknown } {
  const node = containerdNode();
  const files = new NodeFiles(node.files);
  const registries = registriesFiles();
  const load = () => loadRegistriesConf({ conf: registries.conf, dropIns: registries.dropIns });
  const loaded = load();
  if (loaded.registries.length !== 51) throw new Error("expected 51 registries");
  const resolveAll = () => {
    let n = 0;
    for (const host of node.hosts) n += resolveContainerdHosts(host, files).hosts.length;
    return n;
  };
  const checkHosts = () =>
    resolveContainerdHosts(node.hosts[0] as string, files).hosts.map(endpointAnswer);
  let next = 0;
  const rows: PeerRow[] = [
    {
      id: "hosts-memory",
      name: "containerd hosts, resolve 1,000 images, parsing each time (Go: files in memory)",
      ours: resolveAll,
      check: checkHosts,
    },
    {
      id: "hosts-disk",
      name: "containerd hosts, resolve 1,000 images, parsing each time (Go: reading disk)",
      ours: resolveAll,
      check: checkHosts,
    },
    {
      id: "conf-parse",
      name: "registries.conf parse (51 registries, 2 drop-ins)",
      ours: load,
      check: () => registriesAnswer(load()),
    },
    {
      id: "pull-sources",
      name: "registries.conf pull sources, per image",
      ours: () =>
        pullSources(loaded, registries.images[next++ % registries.images.length] as string),
      check: () => sourcesAnswer(pullSources(loaded, registries.images[0] as string)),
    },
  ];
  return {
    rows,
    inputs: {
      containerd: { root, files: node.files, hosts: node.hosts },
      registries,
      rows: rows.map(({ id, name }) => ({ id, name })),
    },
  };
}
