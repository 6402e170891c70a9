import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIo } from "../../io/memory-io.test-support.js";
import { unsafeCharacters } from "../../output/unsafe-chars.test-support.js";
import { runCli } from "../../run.js";

const MIRROR = `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: global-mirror }
spec:
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: harbor.example.com
      path: /global-mirror
      credentialSecret: { name: harbor-secret, namespace: kuik-system }
`;
const SECRET = `
apiVersion: v1
kind: Secret
metadata: { name: harbor-secret, namespace: kuik-system }
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '{"auths":{"harbor.example.com":{"username":"robot","password":"x"}}}'
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-node-config-"));
  mkdirSync(join(dir, "certs.d/harbor.example.com"), { recursive: true });
  writeFileSync(join(dir, "mirrors.yaml"), MIRROR);
  writeFileSync(
    join(dir, "certs.d/harbor.example.com/hosts.toml"),
    '[host."https://cache.internal"]\ncapabilities = ["pull", "resolve"]\n',
  );
  writeFileSync(
    join(dir, "registries.conf"),
    '[[registry]]\nlocation = "harbor.example.com"\nblocked = true\n',
  );
  writeFileSync(join(dir, "v1.conf"), '[registries.block]\nregistries = ["harbor.example.com"]\n');
  writeFileSync(
    join(dir, "secret.yaml"),
    SECRET.replace("stringData", "data").replace(/'(.*)'/, (_, j) =>
      Buffer.from(j).toString("base64"),
    ),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function route(nodeConfig: string, output = "json", extra: readonly string[] = []) {
  const { io, out, err } = memoryIo({ tty: false, cwd: dir });
  const code = await runCli(
    [
      "route",
      "-o",
      output,
      "-f",
      "mirrors.yaml",
      "-n",
      "default",
      "--image",
      "nginx:1.27",
      "--node-config",
      nodeConfig,
      "--secret-file",
      "secret.yaml",
      ...extra,
    ],
    io,
  );
  const text = out();
  return {
    code,
    err: err(),
    text,
    json: output !== "json" || text === "" ? undefined : JSON.parse(text),
  };
}

describe("kubeimg route --node-config", () => {
  it("shows containerd's endpoints for each alternative, with the kuik secret's credential", async () => {
    const { code, json, err } = await route("certs.d");
    expect(err).toBe("");
    expect(code).toBe(0);
    const [original, mirror] = json.node.alternatives;
    expect(mirror.endpoints.map((e: { endpoint: string }) => e.endpoint)).toEqual([
      "https://cache.internal/v2",
      "https://harbor.example.com/v2",
    ]);
    expect(mirror.endpoints[0].credentials).toMatchObject({
      source: "kubelet-keyring",
      matchedKey: "harbor.example.com",
    });
    expect(original.endpoints.map((e: { endpoint: string }) => e.endpoint)).toEqual([
      "https://registry-1.docker.io/v2",
    ]);
  });

  it("reads a registries.conf file as CRI-O does", async () => {
    const { code, json } = await route("registries.conf");
    expect(code).toBe(0);
    const [original, mirror] = json.node.alternatives;
    expect(original.endpoints[0]).toMatchObject({
      reference: "docker.io/library/nginx:1.27",
      blocked: false,
    });
    expect(mirror.endpoints[0]).toMatchObject({
      reference: "harbor.example.com/global-mirror/library/nginx:1.27",
      blocked: true,
    });
  });

  it("fails only the alternative whose host directory is a symlink loop", async () => {
    mkdirSync(join(dir, "looped.d/harbor.example.com"), { recursive: true });
    symlinkSync("docker.io", join(dir, "looped.d/docker.io"));
    const { code, json } = await route("looped.d");
    expect(code).toBe(0);
    const [original, mirror] = json.node.alternatives;
    expect(original.error).toMatchObject({ code: "HOST_DIR_ERROR" });
    expect(original.error.message).toContain("too many levels of symbolic links");
    expect(mirror.endpoints.map((e: { endpoint: string }) => e.endpoint)).toEqual([
      "https://harbor.example.com/v2",
    ]);
  });

  it("names a missing node config", async () => {
    const { code, err } = await route("nope");
    expect(code).not.toBe(0);
    expect(err).toContain("--node-config nope");
  });

  it("says why a node config cannot be read, in a sentence (not as missing)", async () => {
    symlinkSync("loop.conf", join(dir, "loop.conf"));
    const { code, err } = await route("loop.conf");
    expect(code).not.toBe(0);
    expect(err).toBe(
      "kubeimg route: --node-config loop.conf: cannot be read: too many levels of symbolic links [FILE_UNREADABLE]\n",
    );
  });
});

describe("kubeimg route --node-config text output", () => {
  // OSC retitle and clipboard, CSI erase and conceal, a C1 CSI and DEL, as TOML escapes.
  const hostile =
    "\\u001b]0;pwned\\u0007\\u001b]52;c;Zm9v\\u0007\\u001b[2K\\u001b[8m\\u009b1;31m\\u007f";
  const raw = "\u001b]0;pwned\u0007\u001b]52;c;Zm9v\u0007\u001b[2K\u001b[8m\u009b1;31m\u007f";
  let hostileDir: string;
  beforeAll(() => {
    hostileDir = join(dir, "hostile.d");
    mkdirSync(join(hostileDir, "docker.io"), { recursive: true });
    mkdirSync(join(hostileDir, "harbor.example.com"), { recursive: true });
    writeFileSync(join(hostileDir, "docker.io", `ca${raw}.crt`), "");
    writeFileSync(
      join(hostileDir, "docker.io/hosts.toml"),
      `[host."https://cache.internal"]\nca = "ca${hostile}.crt"\n[host."https://cache.internal".header]\n"X-${hostile}" = "v"\n`,
    );
    writeFileSync(
      join(hostileDir, "harbor.example.com/hosts.toml"),
      `server = "https://harbor.example.com/${hostile}"\n`,
    );
  });

  it("passes header names, unparsable server URLs and CA paths through the sanitizer", async () => {
    const { code, text } = await route("hostile.d", "table");
    expect(code).toBe(0);
    expect(text).toContain("extra headers: X-?]0;pwned??]52;c;Zm9v??[2K?[8m?1;31m?");
    expect(text).toContain("ca?]0;pwned??]52;c;Zm9v??[2K?[8m?1;31m?.crt");
    expect(text).toContain("unable to parse server https://harbor.example.com/?]0;pwned?");
    expect(unsafeCharacters(text, { newlines: true })).toEqual([]);
  });

  it("refuses a v1 registries.conf as containers/image 5.40 does, and reads it as 5.36", async () => {
    const refused = await route("v1.conf");
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `loading registries configuration ${JSON.stringify(join(dir, "v1.conf"))}: registries.conf must be in v2 format but is in v1`,
    );
    expect(refused.err).toContain('containersImage: "5.36"');
    const read = await route("v1.conf", "json", ["--upstream", "containers-image=5.36"]);
    expect(read.err).toBe("");
    expect(read.code).toBe(0);
    expect(read.json.node.alternatives[1].endpoints[0]).toMatchObject({
      reference: "harbor.example.com/global-mirror/library/nginx:1.27",
      blocked: true,
    });
  });

  it("names the containers/image release it reproduced in the node explain", async () => {
    const newest = await route("registries.conf");
    expect(newest.json.node.explain[0]).toMatch(/^containers\/image 5\.40: /);
    const older = await route("registries.conf", "json", ["--upstream", "containers-image=5.36"]);
    expect(older.json.node.explain[0]).toMatch(/^containers\/image 5\.36: /);
  });

  it("takes --upstream platforms=…, which --check --platform uses", async () => {
    const run = await route("registries.conf", "json", ["--upstream", "platforms=rc.4"]);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
  });
});

describe("kubeimg route --node-root", () => {
  const reg = (prefix: string, mirror: string, extra = "") =>
    `[[registry]]\nprefix = "${prefix}"\nlocation = "${prefix}"\n${extra}[[registry.mirror]]\nlocation = "${mirror}"\n`;
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  beforeAll(() => {
    root = join(dir, "node");
    write("etc/containers/registries.conf", 'unqualified-search-registries = ["docker.io"]\n');
    // Read by basename across /etc and /usr/share: 10 (usr), 20 (etc), 30 (etc, masking usr's 30).
    write("usr/share/containers/registries.conf.d/10.conf", reg("harbor.example.com", "usr-10.io"));
    write("usr/share/containers/registries.conf.d/30.conf", reg("harbor.example.com", "usr-30.io"));
    write("etc/containers/registries.conf.d/20.conf", reg("harbor.example.com", "etc-20.io"));
    write("etc/containers/registries.conf.d/30.conf", reg("docker.io", "etc-30.io"));
    write(
      "etc/containers/registries.rootless.conf.d/1000/40.conf",
      reg("harbor.example.com", "rootless.io"),
    );
    write("home/u/.config/containers/registries.conf", "");
    write("srv/override.conf", reg("harbor.example.com", "override.io", "blocked = true\n"));
    write(
      "v1/etc/containers/registries.conf",
      '[registries.block]\nregistries = ["harbor.example.com"]\n',
    );
    writeFileSync(join(dir, "not-a-dir"), "");
  });

  async function routeNode(extra: readonly string[]) {
    const { io, out, err } = memoryIo({ tty: false, cwd: dir });
    const args = [
      "route",
      "-o",
      "json",
      "-f",
      "mirrors.yaml",
      "-n",
      "default",
      "--image",
      "nginx:1.27",
    ];
    const code = await runCli([...args, "--secret-file", "secret.yaml", ...extra], io);
    const text = out();
    return { code, err: err(), json: text === "" ? undefined : JSON.parse(text) };
  }
  const mirrorEndpoints = (json: {
    node: { alternatives: { endpoints: { endpoint: string; blocked: boolean }[] }[] };
  }) => json.node.alternatives[1]?.endpoints.map((e) => [e.endpoint, e.blocked]);

  it("reads drop-ins by basename across /etc and /usr/share, and lists the files in order", async () => {
    const { code, err, json } = await routeNode(["--node-root", "node"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(json.node.explain).toEqual(
      expect.arrayContaining([
        `registries.conf file 1 of 4: ${join(root, "etc/containers/registries.conf")}`,
        `registries.conf file 2 of 4: ${join(root, "usr/share/containers/registries.conf.d/10.conf")}`,
        `registries.conf file 3 of 4: ${join(root, "etc/containers/registries.conf.d/20.conf")}`,
        `registries.conf file 4 of 4: ${join(root, "etc/containers/registries.conf.d/30.conf")}`,
      ]),
    );
    expect(json.node.explain[0]).toMatch(/^containers\/image 5\.40: /);
    // 20.conf (etc) is read after 10.conf (usr) and wins; usr's 30.conf is masked.
    expect(mirrorEndpoints(json)).toEqual([
      ["etc-20.io", false],
      ["harbor.example.com", false],
    ]);
    expect(json.node.alternatives[0].endpoints[0].endpoint).toBe("etc-30.io");
  });

  it("reads the override file named by --node-env, under the root, last", async () => {
    const { code, json } = await routeNode([
      "--node-root",
      "node",
      "--node-env",
      "CONTAINERS_REGISTRIES_CONF_OVERRIDE=/srv/override.conf",
    ]);
    expect(code).toBe(0);
    expect(json.node.explain).toContain(
      `registries.conf file 5 of 5: ${join(root, "srv/override.conf")}`,
    );
    expect(mirrorEndpoints(json)).toEqual([
      ["override.io", false],
      ["harbor.example.com", true],
    ]);
  });

  it("reads a rootless user's files for --node-uid, with HOME on the node", async () => {
    const { code, err, json } = await routeNode([
      "--node-root",
      join(dir, "node"),
      "--node-uid",
      "1000",
      "--node-env",
      "HOME=/home/u",
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    // The user's (empty) main file is the first found; the per-uid rootless drop-in is read.
    expect(json.node.explain).toContain(
      `registries.conf file 1 of 5: ${join(root, "home/u/.config/containers/registries.conf")}`,
    );
    expect(mirrorEndpoints(json)?.[0]).toEqual(["rootless.io", false]);
  });

  it("takes the containers/image release: a v1 main file is refused by 5.40, read by 5.36", async () => {
    const refused = await routeNode(["--node-root", "node/v1"]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `loading registries configuration ${JSON.stringify(join(root, "v1/etc/containers/registries.conf"))}: registries.conf must be in v2 format but is in v1`,
    );
    const read = await routeNode(["--node-root", "node/v1", "--upstream", "containers-image=5.36"]);
    expect(read.err).toBe("");
    expect(read.code).toBe(0);
    expect(read.json.node.explain[0]).toMatch(/^containers\/image 5\.36: /);
    expect(mirrorEndpoints(read.json)?.[0]).toEqual(["harbor.example.com", true]);
  });

  it.each([
    [["--node-root", "nope"], "--node-root nope: no such file or directory [FILE_NOT_FOUND]"],
    [["--node-root", "not-a-dir"], "--node-root not-a-dir: not a directory"],
    [["--node-root", "node", "--node-config", "registries.conf"], "give one"],
    [["--node-uid", "1000"], "--node-uid needs --node-root"],
    [["--node-env", "HOME=/root"], "--node-env needs --node-root"],
    [
      ["--node-root", "node", "--node-uid", "1e3"],
      '--node-uid must be a uid (an integer, 0 or more), not "1e3"',
    ],
    [["--node-root", "node", "--node-uid", "1000"], "--node-uid 1000 needs --node-env HOME=PATH"],
    [["--node-root", "node", "--node-env", "PATH=/bin"], 'not "PATH=/bin"'],
    [
      ["--node-root", "node", "--node-env", "HOME=home/u"],
      '--node-env HOME must be an absolute path on the node, not "home/u"',
    ],
    [
      ["--node-root", "node", "--node-env", "HOME=/a", "--node-env", "HOME=/b"],
      "--node-env HOME is given twice",
    ],
  ])("refuses %j with exit 2", async (extra, message) => {
    const { code, err, json } = await routeNode(extra);
    expect(json).toBeUndefined();
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it("is in --help", async () => {
    const { io, out } = memoryIo({ tty: false, cwd: dir });
    expect(await runCli(["route", "--help"], io)).toBe(0);
    for (const flag of ["--node-root DIR", "--node-uid N", "--node-env NAME=PATH"]) {
      expect(out()).toContain(flag);
    }
  });
});
