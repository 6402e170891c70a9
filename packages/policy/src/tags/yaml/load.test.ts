import { describe, expect, it } from "vitest";
import { TagDialectError } from "../common/errors.js";
import { TagPolicyError } from "../flux/errors.js";
import { resolveImagePolicy } from "../flux/resolve.js";
import { TagObjectError } from "./errors.js";
import { loadTagObjects, type TagObject } from "./load.js";

const POLICY = `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: podinfo, namespace: apps }
spec:
  imageRepositoryRef: { name: podinfo }
  policy:
    semver: { range: 5.x }
`;
const REPOSITORY = `apiVersion: image.toolkit.fluxcd.io/v1beta2
kind: ImageRepository
metadata: { name: podinfo, namespace: apps }
spec:
  image: ghcr.io/stefanprodan/podinfo
  interval: 5m
  exclusionList: ["^.*-rc$"]
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
  subscriptions:
    - git: { repoURL: https://github.com/acme/app.git }
    - image:
        repoURL: ghcr.io/acme/app
        strictSemvers: yes
`;

/** Returns what `loadTagObjects` throws (failing when it does not throw). */
function thrown(text: string, options: Parameters<typeof loadTagObjects>[1] = {}): TagObjectError {
  try {
    loadTagObjects(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(TagObjectError);
    return error as TagObjectError;
  }
  throw new Error("expected loadTagObjects to throw");
}

function kinds(objects: readonly TagObject[]): string[] {
  return objects.map((o) => `${o.document}:${o.kind}:${o.namespace}/${o.name}`);
}

describe("loadTagObjects", () => {
  it("reads a Flux ImagePolicy, validated and defaulted", () => {
    const [policy] = loadTagObjects(POLICY);
    expect(policy?.kind).toBe("ImagePolicy");
    if (policy?.kind !== "ImagePolicy") return;
    expect(policy.object.spec.policy.semver?.range).toBe("5.x");
    expect(policy.object.spec.digestReflectionPolicy).toBe("Never");
    expect(policy).toMatchObject({ document: 0, name: "podinfo", namespace: "apps" });
  });

  it("reads an ImageRepository converted to v1", () => {
    const [repository] = loadTagObjects(REPOSITORY);
    expect(repository?.kind).toBe("ImageRepository");
    if (repository?.kind !== "ImageRepository") return;
    expect(repository.object.apiVersion).toBe("image.toolkit.fluxcd.io/v1");
    expect(repository.object.spec.exclusionList).toEqual(["^.*-rc$"]);
  });

  it("reads an ImageUpdater down to one image: the first, or the alias asked for", () => {
    const [first] = loadTagObjects(IMAGE_UPDATER);
    expect(first).toMatchObject({
      kind: "ImageUpdater",
      object: { source: "ImageUpdater argocd/app image web", image: "ghcr.io/acme/app" },
    });
    const [newest] = loadTagObjects(IMAGE_UPDATER, { alias: "newest" });
    expect(newest?.object).toMatchObject({ source: "ImageUpdater argocd/app image newest" });
  });

  it("reads the updater's annotations of an Application", () => {
    const [app] = loadTagObjects(APPLICATION);
    expect(app).toMatchObject({
      kind: "Application",
      object: {
        config: {
          annotations: {
            "argocd-image-updater.argoproj.io/image-list": "web=ghcr.io/acme/app",
          },
        },
      },
    });
  });

  it("reads a Warehouse's first image subscription, scalars as YAML 1.1", () => {
    const [warehouse] = loadTagObjects(WAREHOUSE);
    expect(warehouse).toMatchObject({
      kind: "Warehouse",
      object: {
        source: "Warehouse kargo-demo/app subscription 1",
        // `yes` is a boolean, as kubectl reads it.
        subscription: { repoURL: "ghcr.io/acme/app", strictSemvers: true },
      },
    });
  });

  it("reads every kind of a mixed file, in order, empty documents skipped, a List expanded", () => {
    const list = `apiVersion: v1
kind: List
items:
  - ${REPOSITORY.trimEnd().replaceAll("\n", "\n    ")}
`;
    const text = [POLICY, "", IMAGE_UPDATER, APPLICATION, WAREHOUSE, list].join("---\n");
    expect(kinds(loadTagObjects(text))).toEqual([
      "0:ImagePolicy:apps/podinfo",
      "2:ImageUpdater:argocd/app",
      "3:Application:argocd/app",
      "4:Warehouse:kargo-demo/app",
      "5:ImageRepository:apps/podinfo",
    ]);
  });

  it("gives the pair an ImagePolicy and its ImageRepository make to resolveImagePolicy", async () => {
    const objects = loadTagObjects(`${REPOSITORY}---\n${POLICY}`);
    const policy = objects.find((o) => o.kind === "ImagePolicy")?.object;
    const repository = objects.find((o) => o.kind === "ImageRepository")?.object;
    if (policy === undefined || repository === undefined) throw new Error("missing");
    const resolution = await resolveImagePolicy({
      spec: policy.spec,
      image: repository.spec.image,
      exclusionList: repository.spec.exclusionList,
      tagLister: { listTags: async () => ["5.1.0", "5.2.0-rc", "5.1.2"] },
    });
    // 5.2.0-rc is not a prerelease of 5.x's range here: the exclusion list drops it first.
    expect(resolution.tag).toBe("5.1.2");
    expect(resolution.tags).toEqual(["5.1.0", "5.1.2"]);
  });

  it("refuses bad YAML naming the document, line and column", () => {
    const e = thrown(`${POLICY}---\nkind: ImagePolicy\nmetadata: { name: a,, }\n`);
    expect(e.code).toBe("INVALID_YAML");
    // Lines count from the top of the text.
    expect(e).toMatchObject({ document: 1, line: 10, column: expect.any(Number) });
    expect(e.message).toMatch(/^document 1, line 10, column \d+: invalid YAML: \S/);
  });

  it("refuses an alias bomb with YAML_TOO_LARGE", () => {
    const e = thrown("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n", { maxExpandedNodes: 10 });
    expect(e.code).toBe("YAML_TOO_LARGE");
  });

  it("refuses an unknown kind, naming it and the kinds accepted", () => {
    const e = thrown(
      `${POLICY}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\n`,
    );
    expect(e).toMatchObject({ code: "UNKNOWN_KIND", document: 1, kind: "Deployment", line: 10 });
    expect(e.message).toContain(
      'document 1, line 10, column 1: kind "Deployment" (apiVersion "apps/v1")',
    );
    for (const accepted of [
      "ImagePolicy",
      "ImageRepository",
      "ImageUpdater",
      "Application",
      "Warehouse",
    ]) {
      expect(e.message).toContain(accepted);
    }
    expect(e.message).toContain('otherKinds: "ignore"');
  });

  it("says why an Application without the updater's annotations is refused", () => {
    const e = thrown(
      "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: { name: a }\n",
    );
    expect(e.code).toBe("UNKNOWN_KIND");
    expect(e.message).toContain("no argocd-image-updater.argoproj.io/ annotation");
  });

  it("skips other kinds under otherKinds: ignore, and what select leaves out, telling onSkipped", () => {
    const skipped: unknown[] = [];
    const text = [
      POLICY,
      "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n",
      WAREHOUSE.replace("yes", "7"),
    ].join("---\n");
    const objects = loadTagObjects(text, {
      otherKinds: "ignore",
      // The invalid Warehouse is never read.
      select: (o) => o.kind !== "Warehouse",
      onSkipped: (o) => skipped.push(`${o.document}:${String(o.kind)}`),
    });
    expect(kinds(objects)).toEqual(["0:ImagePolicy:apps/podinfo"]);
    expect(skipped).toEqual(["1:ConfigMap", "2:Warehouse"]);
  });

  it.each([
    {
      name: "Flux",
      text: `${REPOSITORY}---\n${POLICY.replace("semver:", "semvr:")}`,
      document: 1,
      line: 15,
      path: "spec.policy.semvr",
      suggestion: "semver",
      value: { range: "5.x" },
      message:
        /^document 1, line 15, column 5: invalid ImagePolicy: unknown field "spec\.policy\.semvr" \(did you mean "semver"\?\)/,
    },
    {
      name: "Argo CD",
      text: IMAGE_UPDATER.replace("updateStrategy: latest", "updateStrategi: latest"),
      document: 0,
      line: 13,
      path: "ImageUpdater[0].spec.applicationRefs[0].images[1].commonUpdateSettings.updateStrategi",
      suggestion: "updateStrategy",
      value: "latest",
      message:
        /^document 0, line 13, column \d+: ImageUpdater\[0\]\.spec.+\.updateStrategi: unknown field \(did you mean "updateStrategy"\?\) \(got "latest"\)$/,
    },
    {
      name: "Kargo",
      text: WAREHOUSE.replace("repoURL: ghcr", "repoUrl: ghcr"),
      document: 0,
      line: 8,
      path: "Warehouse[0].spec.subscriptions[1].image.repoUrl",
      suggestion: "repoURL",
      value: "ghcr.io/acme/app",
      message:
        /^document 0, line 8, column 9: Warehouse\[0\]\.spec\.subscriptions\[1\]\.image\.repoUrl: unknown field \(did you mean "repoURL"\?\)/,
    },
  ])("refuses an unknown field ($name) with its line, value and the field meant", (row) => {
    const e = thrown(row.text);
    expect(e).toMatchObject({
      code: "UNKNOWN_FIELD",
      document: row.document,
      line: row.line,
      path: row.path,
      value: row.value,
      suggestion: row.suggestion,
    });
    expect(e.message).toMatch(row.message);
  });

  it("reports unknown fields under unknownFields: warn, and reads on", () => {
    const warnings: string[] = [];
    const objects = loadTagObjects(
      `${POLICY.replace("  policy:", "  filterTag: {}\n  policy:")}---\n${IMAGE_UPDATER.replace("updateStrategy: latest", "updateStrategi: latest")}`,
      { unknownFields: "warn", onWarning: (w) => warnings.push(w.message) },
    );
    expect(objects).toHaveLength(2);
    expect(warnings).toEqual([
      'document 0: unknown field "spec.filterTag" (did you mean "filterTags"?)',
      'document 1: ImageUpdater[1].spec.applicationRefs[0].images[1].commonUpdateSettings.updateStrategi: unknown field (did you mean "updateStrategy"?)',
    ]);
  });

  it("names the kind and keeps the reader's error as the cause of an invalid object", () => {
    const flux = thrown(POLICY.replace("range: 5.x", "range: 7"));
    expect(flux.code).toBe("INVALID_IMAGE_POLICY");
    expect(flux.kind).toBe("ImagePolicy");
    expect(flux.cause).toBeInstanceOf(TagPolicyError);
    expect(flux.message).toMatch(
      /^document 0, line 7, column \d+: invalid ImagePolicy: spec\.policy\.semver\.range/,
    );
    const kargo = thrown(WAREHOUSE.replace("strictSemvers: yes", "strictSemvers: maybe"));
    expect(kargo).toMatchObject({ code: "INVALID_WAREHOUSE", kind: "Warehouse", line: 9 });
    expect(kargo.cause).toBeInstanceOf(TagDialectError);
    const alias = thrown(IMAGE_UPDATER, { alias: "nope" });
    expect(alias).toMatchObject({ code: "INVALID_IMAGE_UPDATER", value: "nope" });
  });

  it("names a Flux object's wrong version through Flux's own reader", () => {
    const e = thrown(POLICY.replace("/v1\n", "/v2\n"));
    expect(e.code).toBe("INVALID_IMAGE_POLICY");
    expect(e.message).toContain("apiVersion: must be one of image.toolkit.fluxcd.io/v1");
  });
});
