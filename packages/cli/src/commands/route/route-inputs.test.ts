import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import { memoryIo } from "../../io/memory-io.test-support.js";
import { runCli } from "../../run.js";

const MIRROR = `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: dockerhub }
spec:
  filter: { include: [{ image: "docker.io/.*" }] }
  mirrors:
    - registry: harbor.example.com
      path: /dockerhub-cache
      credentialSecret: { name: harbor, namespace: kuik-system }
`;
const TEAM = `apiVersion: kuik.enix.io/v1alpha1
kind: ImageSetMirror
metadata: { name: team, namespace: other }
spec:
  filter: { include: [{ image: ".*" }] }
  mirrors: [{ registry: team.example.com, path: /cache }]
`;
const QUAY_ONLY = `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: quay-only }
spec:
  filter: { include: [{ image: "quay.io/.*" }] }
  mirrors: [{ registry: q.example.com, path: /q }]
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec: { replicas: 1 }
`;
const TYPO = MIRROR.replace("registry: harbor.example.com", "registy: harbor.example.com");

let files: TempFiles;
beforeAll(() => {
  files = tempFiles({
    "mixed.yaml": `${DEPLOYMENT}---\n${MIRROR}---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n`,
    "typo.yaml": TYPO,
    "all.yaml": `${MIRROR}---\n${TEAM}---\n${QUAY_ONLY}`,
    "config-typo.yaml": "skipLabel: ['a=b']\n",
  });
  mkdirSync(join(files.dir, "manifests"));
  writeFileSync(join(files.dir, "manifests", "b-mirror.yml"), MIRROR);
  writeFileSync(join(files.dir, "manifests", "a-deploy.yaml"), DEPLOYMENT);
  writeFileSync(join(files.dir, "manifests", "notes.txt"), "not: [yaml");
});
afterAll(() => files.remove());

async function route(args: string[], stdin?: string) {
  const m = memoryIo({ tty: false, cwd: files.dir, ...(stdin === undefined ? {} : { stdin }) });
  const code = await runCli(["route", "-n", "default", "--image", "nginx:1.27", ...args], m.io);
  const out = m.out();
  return { code, out, err: m.err(), json: out === "" ? undefined : JSON.parse(out) };
}

describe("kubeimg route -f: files as kubectl reads them", () => {
  it("skips objects of other kinds, and says how many with --verbose", async () => {
    const quiet = await route(["-f", "mixed.yaml"]);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe("");
    expect(quiet.json.alternatives.map((a: { image: string }) => a.image)).toEqual([
      "docker.io/library/nginx:1.27",
      "harbor.example.com/dockerhub-cache/library/nginx:1.27",
    ]);
    const verbose = await route(["-f", "mixed.yaml", "--verbose"]);
    expect(verbose.err).toContain(
      "kubeimg route: mixed.yaml: skipped 2 object(s) of other kinds\n",
    );
    expect(verbose.err).toContain("read 1 routing object(s); skipped 2 object(s) of other kinds");
  });

  it("-f - reads standard input", async () => {
    const r = await route(["-f", "-"], MIRROR);
    expect(r.code).toBe(0);
    expect(r.json.alternatives).toHaveLength(2);
  });

  it("-f DIR reads its .yaml/.yml/.json files in name order, not other files", async () => {
    const r = await route(["-f", "manifests", "--verbose"]);
    expect(r.code).toBe(0);
    expect(r.json.alternatives).toHaveLength(2);
    expect(r.err).toContain(`${join("manifests", "a-deploy.yaml")}: skipped 1 object(s)`);
    expect(r.err).not.toContain("notes.txt");
  });
});

describe("kubeimg route --validate", () => {
  it("strict by default: the misspelled field, its path and a suggestion, exit 2", async () => {
    const r = await route(["-f", "typo.yaml"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      'kubeimg route: typo.yaml: document 0: ClusterImageSetMirror "dockerhub": unknown field "spec.mirrors[0].registy" (did you mean "registry"?) [UNKNOWN_FIELD]\n',
    );
  });

  it("warn: a warning, then no invalid alternative is ever printed: an error naming the CR and entry", async () => {
    const r = await route(["-f", "typo.yaml", "--validate=warn"]);
    expect(r.err).toContain("warning: typo.yaml: document 0: ClusterImageSetMirror");
    expect(r.err).toContain(
      'ClusterImageSetMirror dockerhub mirrors[0] builds "/dockerhub-cache/library/nginx:1.27", which is not a valid image reference',
    );
    expect(r.err).toContain("[INVALID_ALTERNATIVE]");
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
  });

  it("ignore: no warning either", async () => {
    const r = await route(["-f", "typo.yaml", "--validate", "ignore"]);
    expect(r.err).not.toContain("warning");
    expect(r.code).toBe(2);
  });

  it("applies to the kuik config too, and refuses an unknown mode", async () => {
    const r = await route(["-f", "mixed.yaml", "--config", "config-typo.yaml"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'unknown field "skipLabel" (did you mean "skipLabels"?) [UNKNOWN_FIELD]',
    );
    const bad = await route(["-f", "mixed.yaml", "--validate", "lax"]);
    expect(bad.err).toBe(
      'kubeimg route: --validate must be one of strict, warn, ignore, not "lax"\n',
    );
  });
});

describe("kubeimg route output", () => {
  it("without --check says the list would be probed", async () => {
    const m = memoryIo({ tty: true, cwd: files.dir, env: { NO_COLOR: "1" } });
    await runCli(
      ["route", "-f", "mixed.yaml", "-n", "default", "--image", "nginx:1.27", "--no-color"],
      m.io,
    );
    expect(m.out()).toMatch(
      /probed: +would probe 2 alternatives \(run with --check to probe them\)/,
    );
    expect(m.out()).not.toMatch(/probed: +yes/);
  });

  it("--explain lists every CR entry considered and why it applied or not", async () => {
    const r = await route(["-f", "all.yaml", "--explain"]);
    expect(r.code).toBe(0);
    expect(r.json.considered).toEqual([
      {
        resource: "ClusterImageSetMirror dockerhub",
        entry: "mirrors[0]",
        result: "applied",
        why: "gave harbor.example.com/dockerhub-cache/library/nginx:1.27",
      },
      {
        resource: "ImageSetMirror other/team",
        entry: "mirrors[0]",
        result: "skipped",
        why: "namespace: the CR is in other, the pod in default",
      },
      {
        resource: "ClusterImageSetMirror quay-only",
        entry: "mirrors[0]",
        result: "skipped",
        why: "filter: its spec.filter (or imageFilter) does not select this image in this namespace",
      },
    ]);
  });

  it("--explain names the pull policy when kuik leaves the container alone", async () => {
    const r = await route(["-f", "all.yaml", "--explain", "--pull-policy", "Never"]);
    expect(r.json.status).toBe("skipped");
    expect(r.json.considered[0].why).toMatch(/^pull policy: Never/);
  });
});
