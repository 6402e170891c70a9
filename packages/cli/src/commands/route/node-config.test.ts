import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIo } from "../../io/memory-io.test-support.js";
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
  writeFileSync(
    join(dir, "secret.yaml"),
    SECRET.replace("stringData", "data").replace(/'(.*)'/, (_, j) =>
      Buffer.from(j).toString("base64"),
    ),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function route(nodeConfig: string) {
  const { io, out, err } = memoryIo({ tty: false, cwd: dir });
  const code = await runCli(
    [
      "route",
      "-o",
      "json",
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
    ],
    io,
  );
  return { code, err: err(), json: out() === "" ? undefined : JSON.parse(out()) };
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
