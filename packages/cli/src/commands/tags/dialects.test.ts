import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import { memoryIo } from "../../io/memory-io.test-support.js";
import { runCli } from "../../run.js";

const FLUX = `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: app, namespace: default }
spec:
  imageRepositoryRef: { name: app }
  policy: { semver: { range: ">=1.0.0" } }
`;
const IMAGE_UPDATER = `apiVersion: argocd-image-updater.argoproj.io/v1alpha1
kind: ImageUpdater
metadata: { name: app, namespace: argocd }
spec:
  commonUpdateSettings: { updateStrategy: semver }
  applicationRefs:
    - namePattern: "app-*"
      images:
        - alias: web
          imageName: ghcr.io/acme/app
          manifestTargets: { kustomize: { name: ghcr.io/acme/app } }
        - alias: newest
          imageName: ghcr.io/acme/app
          commonUpdateSettings: { updateStrategy: latest }
`;
const APPLICATION = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: app
  namespace: argocd
  annotations:
    argocd-image-updater.argoproj.io/image-list: web=ghcr.io/acme/app
    argocd-image-updater.argoproj.io/web.allow-tags: "^1"
spec: {}
`;
const WAREHOUSE = `apiVersion: kargo.akuity.io/v1alpha1
kind: Warehouse
metadata: { name: app, namespace: kargo-demo }
spec:
  interval: 5m0s
  subscriptions:
    - git: { repoURL: https://github.com/acme/app.git }
    - image:
        repoURL: ghcr.io/acme/app
        strictSemvers: false
    - image:
        repoURL: ghcr.io/acme/app
        imageSelectionStrategy: NewestBuild
`;

let files: TempFiles;
beforeAll(() => {
  files = tempFiles({
    "flux.yaml": FLUX,
    "updater.yaml": IMAGE_UPDATER,
    "app.yaml": APPLICATION,
    "warehouse.yaml": WAREHOUSE,
    "tags.txt": "1.2\n1.1.0\n1.3.0-rc.1\n",
    "tags.json": JSON.stringify([
      { name: "1.2", created: "2024-03-01T00:00:00Z", digest: `sha256:${"a".repeat(64)}` },
      { name: "1.1.0", created: "2024-05-01T00:00:00Z", digest: `sha256:${"b".repeat(64)}` },
      "1.3.0-rc.1",
    ]),
    "typo.yaml": IMAGE_UPDATER.replace("updateStrategy: latest", "updateStrategi: latest"),
    "kargo-typo.yaml": WAREHOUSE.replace("strictSemvers: false", "strictSemver: false"),
    "kargo-bad.yaml": WAREHOUSE.replace("strictSemvers: false", "discoveryLimit: 500"),
  });
});
afterAll(() => files.remove());

async function run(args: string[]) {
  const { io, out, err } = memoryIo({ tty: false, cwd: files.dir });
  const code = await runCli(args, io);
  return { code, out: out(), err: err() };
}

describe("kubeimg tags --dialect argocd", () => {
  it("picks from an ImageUpdater's first image, and explains", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "updater.yaml",
      "--tags-file",
      "tags.txt",
      "-o",
      "json",
    ]);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out);
    expect(data.tag).toBe("1.2");
    expect(data.source).toBe("ImageUpdater argocd/app image web");
  });

  it("takes the image by --alias, with the image-level strategy", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "updater.yaml",
      "--alias",
      "newest",
      "--tags-file",
      "tags.json",
      "-o",
      "json",
      "--explain",
    ]);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out);
    expect(data.tag).toBe("1.1.0");
    expect(data.tags.map((t: { verdict: string }) => t.verdict)).toEqual([
      "ranked",
      "selected",
      "ranked",
    ]);
  });

  it("reads an Application's annotations and prints the quirk that decided", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "app.yaml",
      "--tags-file",
      "tags.txt",
      "--explain",
      "-o",
      "table",
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("no `regexp:` prefix");
    expect(r.out).toMatch(/1\.2\s+not-allowed/);
  });

  it("refuses an unknown field with its path; the library's error: document, line and column of the field, and its code", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "typo.yaml",
      "--tags-file",
      "tags.txt",
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "ImageUpdater[0].spec.applicationRefs[0].images[1].commonUpdateSettings.updateStrategi: unknown field",
    );
    expect(r.err).toMatch(
      /^kubeimg tags: typo\.yaml: document 0, line 14, column \d+: ImageUpdater\[0\]\.spec\.applicationRefs\[0\]\.images\[1\]\.commonUpdateSettings\.updateStrategi: unknown field \(did you mean "updateStrategy"\?\) \(got "latest"\) \[UNKNOWN_FIELD\]\n$/,
    );
  });

  it("follows --validate: warn reports the unknown field and goes on, ignore says nothing", async () => {
    const warn = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "typo.yaml",
      "--alias",
      "newest",
      "--validate",
      "warn",
      "--tags-file",
      "tags.txt",
      "-o",
      "json",
    ]);
    expect(warn.code).toBe(0);
    expect(warn.err).toContain(
      'commonUpdateSettings.updateStrategi: unknown field (did you mean "updateStrategy"?), ignored',
    );
    // The misspelt strategy is not read: the default (semver) picks.
    expect(JSON.parse(warn.out).tag).toBe("1.2");
    const ignore = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "typo.yaml",
      "--validate",
      "ignore",
      "--tags-file",
      "tags.txt",
    ]);
    expect(ignore.code).toBe(0);
    expect(ignore.err).toBe("");
  });

  it("says when the files hold no Argo CD object", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "argocd",
      "-f",
      "flux.yaml",
      "--tags-file",
      "tags.txt",
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no ImageUpdater and no Application");
  });
});

describe("kubeimg tags --dialect kargo", () => {
  it("uses the first image subscription", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "kargo",
      "-f",
      "warehouse.yaml",
      "--tags-file",
      "tags.txt",
      "-o",
      "json",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      tag: "1.3.0-rc.1",
      source: "Warehouse kargo-demo/app subscription 1",
    });
  });

  it("uses --subscription N, and refuses one that is not an image subscription", async () => {
    const r = await run([
      "tags",
      "--dialect",
      "kargo",
      "-f",
      "warehouse.yaml",
      "--subscription",
      "2",
      "--tags-file",
      "tags.json",
      "-o",
      "json",
    ]);
    expect(JSON.parse(r.out).tag).toBe("1.1.0");
    const bad = await run([
      "tags",
      "--dialect",
      "kargo",
      "-f",
      "warehouse.yaml",
      "--subscription",
      "0",
      "--tags-file",
      "tags.txt",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Warehouse[0].spec.subscriptions[0]: is not an image subscription");
  });

  it("refuses unknown fields, and reports the webhook's rejection", async () => {
    const typo = await run([
      "tags",
      "--dialect",
      "kargo",
      "-f",
      "kargo-typo.yaml",
      "--tags-file",
      "tags.txt",
    ]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain(
      "Warehouse[0].spec.subscriptions[1].image.strictSemver: unknown field",
    );
    const bad = await run([
      "tags",
      "--dialect",
      "kargo",
      "-f",
      "kargo-bad.yaml",
      "--tags-file",
      "tags.txt",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("INVALID_CONFIG");
  });

  it("refuses an unknown dialect and stray arguments", async () => {
    expect((await run(["tags", "--dialect", "renovate", "-f", "x"])).code).toBe(2);
    const stray = await run(["tags", "explain", "-f", "flux.yaml"]);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain("the one subcommand is 'compare'");
  });
});

describe("kubeimg tags compare", () => {
  it("puts the three picks side by side with what separates them", async () => {
    const r = await run([
      "tags",
      "compare",
      "-o",
      "table",
      "-f",
      "flux.yaml",
      "-f",
      "app.yaml",
      "-f",
      "warehouse.yaml",
      "--tags-file",
      "tags.txt",
    ]);
    // The annotated Application allows nothing: Argo CD picks none.
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/flux\s+1\.1\.0/);
    expect(r.out).toMatch(/kargo\s+1\.3\.0-rc\.1/);
    expect(r.out).toMatch(/argocd-image-updater\s+none/);
  });

  it("gives three different tags for Flux, an ImageUpdater and a Warehouse", async () => {
    const r = await run([
      "tags",
      "compare",
      "-f",
      "flux.yaml",
      "-f",
      "updater.yaml",
      "-f",
      "warehouse.yaml",
      "--tags-file",
      "tags.txt",
      "-o",
      "json",
    ]);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out);
    expect(data.picks.map((p: { tag: string }) => p.tag)).toEqual(["1.1.0", "1.2", "1.3.0-rc.1"]);
    expect(data.differences).toHaveLength(3);
    for (const d of data.differences) expect(d.summary.length).toBeGreaterThan(10);
  });

  it("needs two configurations and a tags file", async () => {
    const one = await run(["tags", "compare", "-f", "flux.yaml", "--tags-file", "tags.txt"]);
    expect(one.code).toBe(2);
    expect(one.err).toContain("at least two");
    const noTags = await run(["tags", "compare", "-f", "flux.yaml", "-f", "warehouse.yaml"]);
    expect(noTags.code).toBe(2);
    expect(noTags.err).toContain("--tags-file");
  });
});
