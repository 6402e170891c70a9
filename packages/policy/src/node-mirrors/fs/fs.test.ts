import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveContainerdHosts } from "../containerd-hosts.js";
import { loadRegistriesConf, pullSources } from "../registries-conf.js";
import { readContainerdHostDirs, readRegistriesConf } from "./index.js";

let root: string;

function put(nodePath: string, text: string): void {
  const path = join(root, nodePath);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kubeimg-node-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("readContainerdHostDirs", () => {
  it("reads both CRI roots with containerd's precedence", async () => {
    put("/etc/docker/certs.d/docker.io/ca.crt", "PEM");
    put("/etc/containerd/certs.d/_default/hosts.toml", 'server = "https://default.example"\n');
    const node = await readContainerdHostDirs(undefined, { root });
    expect(node.files["/etc/docker/certs.d/docker.io/ca.crt"]).toBe("");
    const r = resolveContainerdHosts("docker.io", node.files, {
      configPath: node.configPath,
      certificateFiles: "check",
    });
    expect(r.dir).toBe("/etc/containerd/certs.d/_default");
    expect(r.hosts.map((h) => h.host)).toEqual(["default.example"]);
  });

  it("skips a FIFO named hosts.toml instead of blocking on it", async () => {
    mkdirSync(join(root, "/etc/containerd/certs.d/quay.io"), { recursive: true });
    execFileSync("mkfifo", [join(root, "/etc/containerd/certs.d/quay.io/hosts.toml")]);
    const node = await readContainerdHostDirs("/etc/containerd/certs.d", { root });
    expect(node.warnings.map((w) => w.code)).toEqual(["IGNORED_FILE"]);
  });

  it("refuses a file over the size cap", async () => {
    put("/etc/containerd/certs.d/quay.io/hosts.toml", "#".repeat(2048));
    await expect(
      readContainerdHostDirs("/etc/containerd/certs.d", { root, maxFileBytes: 1024 }),
    ).rejects.toMatchObject({
      code: "READ_ERROR",
      file: "/etc/containerd/certs.d/quay.io/hosts.toml",
    });
  });
});

describe("readRegistriesConf", () => {
  it("reads the main file and the .conf drop-ins only", async () => {
    put("/etc/containers/registries.conf", 'unqualified-search-registries = ["quay.io"]\n');
    put(
      "/etc/containers/registries.conf.d/10-mirror.conf",
      '[[registry]]\nlocation = "quay.io"\n[[registry.mirror]]\nlocation = "m.example"\n',
    );
    put("/etc/containers/registries.conf.d/README", "not read");
    const input = await readRegistriesConf(undefined, undefined, { root });
    expect(Object.keys(input.dropIns ?? {})).toEqual(["10-mirror.conf"]);
    const r = pullSources(loadRegistriesConf(input), "quay.io/a/b:1");
    expect(r.sources.map((s) => s.reference)).toEqual(["m.example/a/b:1", "quay.io/a/b:1"]);
  });

  it("treats a missing system file as empty but a missing explicit file as an error", async () => {
    expect(
      loadRegistriesConf(await readRegistriesConf(undefined, undefined, { root })).registries,
    ).toEqual([]);
    const explicit = await readRegistriesConf("/etc/crio/registries.conf", undefined, { root });
    expect(() => loadRegistriesConf(explicit)).toThrow(
      expect.objectContaining({ code: "NO_CONFIG_FILE" }),
    );
  });
});
