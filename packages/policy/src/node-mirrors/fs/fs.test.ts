import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveContainerdHosts } from "../containerd-hosts.js";
import { isNodeMirrorsError, type NodeMirrorsError } from "../errors.js";
import { loadRegistriesConf, pullSources } from "../registries-conf.js";
import {
  DEFAULT_MAX_FILES,
  DEFAULT_MAX_TOTAL_BYTES,
  readContainerdHostDirs,
  readRegistriesConf,
} from "./read.js";

function thrown(fn: () => unknown): NodeMirrorsError {
  try {
    fn();
  } catch (error) {
    if (isNodeMirrorsError(error)) return error;
    throw error;
  }
  throw new Error("expected a NodeMirrorsError");
}

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

  it("answers LIMIT_EXCEEDED naming maxFileBytes for the host of a hosts.toml over the cap, and reads the rest", async () => {
    put("/etc/containerd/certs.d/quay.io/hosts.toml", "#".repeat(2048));
    put("/etc/containerd/certs.d/docker.io/hosts.toml", 'server = "https://m.example"\n');
    const node = await readContainerdHostDirs("/etc/containerd/certs.d", {
      root,
      maxFileBytes: 1024,
    });
    expect(node.warnings.map((w) => [w.code, w.file])).toEqual([
      ["UNREADABLE_PATH", "/etc/containerd/certs.d/quay.io/hosts.toml"],
    ]);
    const options = { configPath: node.configPath, unreadable: node.unreadable };
    expect(resolveContainerdHosts("docker.io", node.files, options).hosts[0]?.host).toBe(
      "m.example",
    );
    const error = thrown(() => resolveContainerdHosts("quay.io", node.files, options));
    expect(error).toMatchObject({
      code: "LIMIT_EXCEEDED",
      file: "/etc/containerd/certs.d/quay.io/hosts.toml",
    });
    expect(error.message).toContain(
      "2048 bytes, over the 1024-byte cap on one file (maxFileBytes)",
    );
  });

  it("treats a hosts.toml that is not UTF-8 as containerd does: ignored for the certificate files, with a warning", async () => {
    put("/etc/containerd/certs.d/docker.io/hosts.toml", 'server = "https://m.example"\n');
    put("/etc/containerd/certs.d/quay.io/ca.crt", "PEM");
    writeFileSync(
      join(root, "/etc/containerd/certs.d/quay.io/hosts.toml"),
      Buffer.from([0x23, 0xff, 0x0a, 0x73, 0x3d, 0x31]),
    );
    const node = await readContainerdHostDirs("/etc/containerd/certs.d", { root });
    expect(node.warnings.map((w) => w.code)).toEqual(["HOSTS_TOML_IGNORED"]);
    const options = { configPath: node.configPath, unreadable: node.unreadable };
    expect(resolveContainerdHosts("docker.io", node.files, options).hosts[0]?.host).toBe(
      "m.example",
    );
    const quay = resolveContainerdHosts("quay.io", node.files, options);
    expect(quay.hosts.map((h) => [h.host, h.ca])).toEqual([
      ["quay.io", ["/etc/containerd/certs.d/quay.io/ca.crt"]],
    ]);
    expect(quay.warnings.map((w) => w.code)).toEqual(["HOSTS_TOML_IGNORED"]);
  });

  it("fails only the hosts whose lookup meets a symlink loop, as containerd does", async () => {
    const certs = "/etc/containerd/certs.d";
    const loop = (nodePath: string) => {
      mkdirSync(join(root, nodePath, ".."), { recursive: true });
      symlinkSync(basename(nodePath), join(root, nodePath));
    };
    put(`${certs}/ghcr.io/hosts.toml`, 'server = "https://g.example"\n');
    loop(`${certs}/ghcr.io/deeper/loop`);
    loop(`${certs}/loop.example`);
    loop(`${certs}/docker.io/hosts.toml`);
    loop(`${certs}/quay.io/ca.crt`);
    loop("/loop");
    const node = await readContainerdHostDirs(`${certs}:/loop`, { root });
    expect(node.warnings.map((w) => [w.code, w.file])).toEqual([
      ["UNREADABLE_PATH", `${certs}/docker.io/hosts.toml`],
      ["UNREADABLE_PATH", `${certs}/loop.example`],
      ["UNREADABLE_PATH", `${certs}/quay.io/ca.crt`],
      ["UNREADABLE_PATH", "/loop"],
    ]);
    const options = { configPath: node.configPath, unreadable: node.unreadable };
    const resolve = (host: string) => resolveContainerdHosts(host, node.files, options);
    expect(resolve("ghcr.io").hosts[0]?.host).toBe("g.example");
    const loops = "too many levels of symbolic links";
    expect(thrown(() => resolve("loop.example"))).toMatchObject({
      code: "HOST_DIR_ERROR",
      message: `stat ${certs}/loop.example: ${loops}`,
    });
    expect(thrown(() => resolve("docker.io"))).toMatchObject({
      code: "LOAD_ERROR",
      message: `open ${certs}/docker.io/hosts.toml: ${loops}`,
    });
    expect(thrown(() => resolve("quay.io"))).toMatchObject({
      code: "LOAD_ERROR",
      message: `unable to read CA cert "${certs}/quay.io/ca.crt": open ${certs}/quay.io/ca.crt: ${loops}`,
    });
    // Not under the first root: containerd's stat of /loop/elsewhere.example meets the loop.
    expect(thrown(() => resolve("elsewhere.example"))).toMatchObject({
      code: "HOST_DIR_ERROR",
      message: `stat /loop/elsewhere.example: ${loops}`,
    });
  });

  it("stops at maxFiles entries or maxTotalBytes bytes, naming the bound and its option", async () => {
    for (let i = 0; i < 30; i++) {
      put(`/etc/containerd/certs.d/r${i}.example/hosts.toml`, `# ${"x".repeat(100)}\n`);
    }
    await expect(
      readContainerdHostDirs("/etc/containerd/certs.d", { root, maxFiles: 40 }),
    ).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("more than 40 files and directories to read (maxFiles)"),
    });
    await expect(
      readContainerdHostDirs("/etc/containerd/certs.d", { root, maxTotalBytes: 1000 }),
    ).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("more than 1000 bytes to read in total (maxTotalBytes)"),
    });
    const all = await readContainerdHostDirs("/etc/containerd/certs.d", {
      root,
      maxFiles: 60,
      maxTotalBytes: 30 * 104,
    });
    expect(Object.keys(all.files)).toHaveLength(30);
  });

  it("has defaults that bound a read of many large host directories", () => {
    expect(DEFAULT_MAX_FILES).toBe(10_000);
    expect(DEFAULT_MAX_TOTAL_BYTES).toBe(16 * 1024 * 1024);
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

describe("readRegistriesConf bounds", () => {
  it("stops at maxFiles drop-in entries or maxTotalBytes bytes, naming the bound and its option", async () => {
    for (let i = 0; i < 30; i++) {
      put(`/etc/containers/registries.conf.d/${i}.conf`, `# ${"x".repeat(100)}\n`);
    }
    await expect(
      readRegistriesConf(undefined, undefined, { root, maxFiles: 20 }),
    ).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("(maxFiles)"),
    });
    await expect(
      readRegistriesConf(undefined, undefined, { root, maxTotalBytes: 1000 }),
    ).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: expect.stringContaining("(maxTotalBytes)"),
    });
    const all = await readRegistriesConf(undefined, undefined, { root });
    expect(Object.keys(all.dropIns ?? {})).toHaveLength(30);
  });
});
