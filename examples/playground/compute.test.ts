import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type InputIssue,
  issueText,
  MAX_INPUT_CHARS,
  MAX_TAG_ROWS,
  readTagList,
  runReferences,
  runRouting,
  runTags,
} from "./src/compute.js";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../demo/fixtures/tags");
const read = (name: string) => readFileSync(join(fixtures, name), "utf8");

describe("runTags", () => {
  it("selects podinfo 5.1.10 with a verdict per tag", () => {
    const r = runTags({
      policy: read("podinfo-semver.yaml"),
      tags: read("podinfo.tags"),
      dialect: "flux",
    });
    expect(r.selected).toBe("5.1.10");
    expect(r.issues).toEqual([]);
    expect(r.rows.map((x) => x.verdict)).toEqual([
      "out-of-range",
      "ranked",
      "ranked",
      "selected",
      "out-of-range",
      "out-of-range",
      "out-of-range",
      "not-a-version",
    ]);
  });

  it("reports the named group the MinIO pattern captured", () => {
    const r = runTags({
      policy: read("minio-release.yaml"),
      tags: read("minio.tags"),
      dialect: "flux",
    });
    const won = r.rows.find((x) => x.verdict === "selected");
    expect(won?.tag).toBe("RELEASE.2024-10-02T17-50-41Z");
    const group = won?.match.find((m) => m.name === "timestamp");
    expect(won?.tag.slice(group?.start, group?.end)).toBe("2024-10-02T17-50-41");
  });

  it("compares the dialects, naming what the translation loses", () => {
    const r = runTags({
      policy: read("minio-release.yaml"),
      tags: read("minio.tags"),
      dialect: "compare",
    });
    expect(r.compare?.picks.map((p) => [p.dialect, p.tag])).toEqual([
      ["flux", "RELEASE.2024-10-02T17-50-41Z"],
      ["argocd-image-updater", "RELEASE.2024-10-02T17-50-41Z"],
      ["kargo", "RELEASE.2024-10-02T17-50-41Z"],
    ]);
    expect(r.compare?.picks[2]?.lost.join(" ")).toContain("extract");
  });

  it("places a schema error on its line with path and value", () => {
    const policy = read("podinfo-semver.yaml").replace("range: 5.1.x", "range: 5.1.x.x");
    const r = runTags({ policy, tags: "1.0.0", dialect: "flux" });
    expect(r.issues[0]).toMatchObject({
      input: "policy",
      line: 12,
      path: "spec.policy.semver.range",
      value: '"5.1.x.x"',
    });
  });

  it("refuses a YAML alias bomb and an oversized paste without working on them", () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
      "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
      "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
      "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
    ].join("\n");
    expect(runTags({ policy: bomb, tags: "1.0.0", dialect: "flux" }).issues[0]?.message).toMatch(
      /alias/i,
    );
    const big = "1.0.0\n".repeat(MAX_INPUT_CHARS / 5);
    expect(
      runTags({ policy: read("podinfo-semver.yaml"), tags: big, dialect: "flux" }).issues[0]
        ?.message,
    ).toContain("larger than");
  });
});

describe("runTags compare with native Argo CD and Kargo objects", () => {
  const dialects = join(fixtures, "dialects");
  const policy = readFileSync(join(dialects, "flux-policy.yaml"), "utf8");
  const tags = readFileSync(join(dialects, "app.tags"), "utf8");
  const updater = readFileSync(join(dialects, "argocd-image-updater.yaml"), "utf8");
  const warehouse = readFileSync(join(dialects, "kargo-warehouse.yaml"), "utf8");
  const application = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), "src/seeds/argocd-application.yaml"),
    "utf8",
  );

  it("runs the pasted ImageUpdater and Warehouse beside Flux, with what separates them", () => {
    const r = runTags({
      policy,
      tags,
      dialect: "compare",
      objects: `${updater}\n---\n${warehouse}`,
    });
    expect(r.issues).toEqual([]);
    expect(r.compare?.picks.map((p) => [p.dialect, p.source, p.tag])).toEqual([
      ["flux", "the ImagePolicy", "1.1.0"],
      ["argocd-image-updater", "ImageUpdater argocd/app image app", "1.2"],
      ["kargo", "Warehouse kargo-demo/app subscription 0", "1.3.0-rc.1"],
    ]);
    expect(r.compare?.differences.map((d) => `${d.a} ${d.b}`)).toEqual([
      "flux argocd-image-updater",
      "flux kargo",
      "argocd-image-updater kargo",
    ]);
    expect(r.compare?.differences[0]?.summary).toContain('"1.2"');
  });

  it("reads an annotated Application, and translates the dialect not given", () => {
    const r = runTags({ policy, tags, dialect: "compare", objects: application });
    expect(r.compare?.picks.map((p) => [p.dialect, p.source, p.tag])).toEqual([
      ["flux", "the ImagePolicy", "1.1.0"],
      ["argocd-image-updater", "Application argocd/app", "1.2"],
      ["kargo", "translated from the Flux ImagePolicy", "1.1.0"],
    ]);
  });

  it("compares the objects alone when no ImagePolicy is given", () => {
    const r = runTags({
      policy: "",
      tags,
      dialect: "compare",
      objects: `${updater}---\n${warehouse}`,
    });
    expect(r.rows).toEqual([]);
    expect(r.compare?.picks.map((p) => p.dialect)).toEqual(["argocd-image-updater", "kargo"]);
  });

  it("puts an object's bad field on its line, with the path and value", () => {
    const typo = warehouse.replace("strictSemvers: false", "strictSemver: false");
    const r = runTags({ policy, tags, dialect: "compare", objects: `${updater}---\n${typo}` });
    expect(r.issues).toEqual([
      {
        input: "objects",
        line: 23,
        path: "Warehouse.spec.subscriptions[0].image.strictSemver",
        value: "false",
        message: "unknown field",
        suggestion: "strictSemvers",
      },
    ]);
    const other = runTags({ policy, tags, dialect: "compare", objects: policy });
    expect(other.issues[0]).toMatchObject({ input: "objects", line: 5, path: "kind" });
    const two = runTags({
      policy,
      tags,
      dialect: "compare",
      objects: `${updater}---\n${application}`,
    });
    expect(two.issues[0]?.message).toContain("one Argo CD configuration");
  });
});

describe("the row bound", () => {
  it("ranks every tag but sends the page at most MAX_TAG_ROWS rows", () => {
    const tags = Array.from({ length: MAX_TAG_ROWS + 500 }, (_, i) => `5.1.${i}`).join("\n");
    const r = runTags({ policy: read("podinfo-semver.yaml"), tags, dialect: "flux" });
    expect(r.selected).toBe(`5.1.${MAX_TAG_ROWS + 499}`);
    expect(r.rows.length).toBe(MAX_TAG_ROWS);
    expect(r.hiddenRows).toBe(500);
  });
});

describe("readTagList", () => {
  it("reads lines, crane ls output and skopeo list-tags JSON", () => {
    expect(readTagList("1.0\n\n 2.0 \n# note\n")).toEqual(["1.0", "2.0"]);
    expect(readTagList('{"Repository":"quay.io/a/b","Tags":["1","2"]}')).toEqual(["1", "2"]);
    expect(readTagList('["x"]')).toEqual(["x"]);
    expect(readTagList('{"Tags":[1]}')).toMatchObject({ path: "Tags.0", value: "1" });
  });
});

describe("runReferences", () => {
  it("normalizes, and keeps Go's exact error with its line", () => {
    const r = runReferences("nginx\n\nUbuntu\nnginx:1.25\n");
    expect(r.rows.map((x) => [x.line, x.normalized, x.familiar, x.pullPolicy])).toEqual([
      [1, "docker.io/library/nginx", "nginx", "Always"],
      [3, undefined, undefined, undefined],
      [4, "docker.io/library/nginx:1.25", "nginx:1.25", "IfNotPresent"],
    ]);
    expect(r.rows[1]?.error).toEqual({
      code: "REMOTE_NAME_CONTAINS_UPPERCASE",
      message: "invalid reference format: repository name (library/Ubuntu) must be lowercase",
    });
  });
});

describe("an unknown field in the pasted policy", () => {
  it("shows the field and the name it probably meant, not the suggestion as its value", () => {
    const policy = read("podinfo-semver.yaml").replace(
      "  policy:",
      "  filterTag: { pattern: '^x' }\n  policy:",
    );
    const r = runTags({ policy, tags: "1.0.0", dialect: "flux" });
    const issue = r.issues[0];
    expect(issue).toMatchObject({
      path: "spec.filterTag",
      value: '{"pattern":"^x"}',
      suggestion: "filterTags",
    });
    expect(issueText(issue as InputIssue)).toMatch(
      /^line \d+: spec\.filterTag = \{"pattern":"\^x"\} \(did you mean "filterTags"\?\): unknown field$/,
    );
  });
});

describe("runRouting", () => {
  const crs = `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: m }
spec:
  filter: { include: [{ image: "docker\\\\.io/.+" }] }
  mirrors: [{ registry: harbor.example.com, path: /m }]
`;
  const base = { crs, namespace: "default", pullPolicy: "", pod: "" };

  it("heads an image's row with the image, a Pod's with its container", () => {
    const image = runRouting({ ...base, mode: "image", image: "nginx:1.25" });
    expect(image.issues).toEqual([]);
    expect(image.containers[0]?.heading).toBe("Image nginx:1.25");
    const pod = runRouting({
      ...base,
      mode: "pod",
      image: "",
      pod: "metadata: { name: p }\nspec:\n  containers: [{ name: web, image: nginx:1.25 }]\n",
    });
    expect(pod.containers[0]?.heading).toBe("Container web: nginx:1.25");
  });

  it("gives the parser's reason for an image kuik cannot read, as the CLI does", () => {
    const r = runRouting({ ...base, mode: "image", image: "Foo:bar:baz" });
    expect(r.containers[0]).toMatchObject({ status: "skipped", skipReason: "INVALID_IMAGE" });
    expect(r.containers[0]?.skipDetail).toMatch(/^invalid reference format.*\[[A-Z_]+\]$/);
  });
});
