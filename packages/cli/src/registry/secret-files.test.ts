import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../files/temp-files.test-support.js";
import { memoryIo } from "../io/memory-io.test-support.js";
import { runCli } from "../run.js";
import { type ScriptedRegistry, startScriptedRegistry } from "./scripted-registry.test-support.js";

const SECRET = `apiVersion: v1
kind: Secret
metadata: { name: harbor, namespace: kuik-system }
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: eyJhdXRocyI6e319
`;

let registry: ScriptedRegistry;
let files: TempFiles;
beforeAll(async () => {
  registry = await startScriptedRegistry({ repositories: { "team/app": ["1.0"] } });
  const mirrors = `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: m }
spec:
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${registry.host}
      path: /cache
      credentialSecret: { name: harbor, namespace: kuik-system }
`;
  files = tempFiles({
    "mirrors.yaml": mirrors,
    "alias.yaml":
      "apiVersion: v1\nkind: Secret\nmetadata: { name: s }\nstringData:\n  password: *S3CRET-PASSWORD\n",
    "syntax.yaml":
      'apiVersion: v1\nkind: Secret\nmetadata: { name: s }\nstringData:\n  password: "S3CRET-VALUE\n',
    "configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\ndata: { a: b }\n",
    "secret.yaml": SECRET,
    "registries.conf": "",
    "bad-type.yaml": "apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ntype: 7\n",
    // Written as text: an object literal's __proto__ would set a prototype, not a key.
    "proto.json":
      '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"harbor","namespace":"kuik-system","__proto__":{"name":"other"}},"type":"kubernetes.io/dockerconfigjson","data":{".dockerconfigjson":"eyJhdXRocyI6e319"}}',
  });
});
afterAll(async () => {
  await registry.close();
  files.remove();
});

async function route(args: string[]) {
  const m = memoryIo({ tty: false, cwd: files.dir, fetch: globalThis.fetch });
  const code = await runCli(["route", "-f", "mirrors.yaml", "-n", "default", ...args], m.io);
  return { code, err: m.err(), out: m.out() };
}

function check(extra: string[]) {
  return route([
    "--image",
    `${registry.host}/team/app:1.0`,
    "--check",
    "--insecure-registry",
    registry.host,
    ...extra,
  ]);
}

describe("--secret-file", () => {
  it("an unresolved alias names the file and position, never the text", async () => {
    const r = await check(["--secret-file", "alias.yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "kubeimg route: alias.yaml:5:13: invalid YAML: an alias with no anchor before it [INVALID_YAML]\n",
    );
    expect(r.err).not.toContain("S3CRET");
  });

  it("a syntax error names the file, position and YAML code, never the text", async () => {
    const r = await check(["--secret-file", "syntax.yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^kubeimg route: syntax\.yaml:\d+:\d+: invalid YAML \([A-Z_]+\) \[INVALID_YAML\]\n$/,
    );
    expect(r.err).not.toContain("S3CRET");
  });

  it("a file holding no Secret is a warning, and so is a CR's secret nobody supplied", async () => {
    const r = await check(["--secret-file", "configmap.yaml"]);
    expect(r.err).toContain(
      "kubeimg route: warning: --secret-file configmap.yaml holds no Secret\n",
    );
    expect(r.err).toContain(
      "uses the credential secret kuik-system/harbor, which no --secret-file supplies; it is probed without it",
    );
  });

  it.each([
    { why: "without --check", args: ["--image", "example.com/team/app:1.0"] },
    { why: "for a skipped image", args: ["--image", `example.com/app@sha256:${"a".repeat(64)}`] },
    {
      why: "with --check and --node-config",
      args: ["--check", "--node-config", "registries.conf"],
    },
  ])("a file holding no Secret is one warning $why", async ({ args }) => {
    const image = args.includes("--check")
      ? ["--image", `${registry.host}/team/app:1.0`, "--insecure-registry", registry.host]
      : [];
    const r = await route([...image, ...args, "--secret-file", "configmap.yaml"]);
    expect(r.code).toBe(0);
    expect(r.err.split("\n").filter((line) => line.includes("configmap.yaml"))).toEqual([
      "kubeimg route: warning: --secret-file configmap.yaml holds no Secret",
    ]);
  });

  it("no warning when the Secret is supplied", async () => {
    const r = await check(["--secret-file", "secret.yaml"]);
    expect(r.err).not.toContain("warning");
  });

  it("a Secret with a field of the wrong type names the field and zod's English message", async () => {
    const r = await check(["--secret-file", "bad-type.yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "kubeimg route: bad-type.yaml: document 0: not a pull Secret: type: Invalid input: expected string, received number [MISSING_OBJECT]\n",
    );
  });

  it("__proto__ in a Secret is an unknown field, never a value", async () => {
    const strict = await check(["--secret-file", "proto.json"]);
    expect(strict.code).toBe(2);
    expect(strict.err).toContain('unknown field "metadata.__proto__" [UNKNOWN_FIELD]');
    const ignored = await check(["--secret-file", "proto.json", "--validate=ignore"]);
    expect(ignored.err).not.toContain("warning");
    expect(ignored.code).toBe(0);
  });
});
