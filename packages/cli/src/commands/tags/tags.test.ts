import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import {
  closedLoopbackHost,
  type ScriptedRegistry,
  startScriptedRegistry,
} from "../../registry/scripted-registry.test-support.js";
import { runKubeimg, stderrLines } from "../../run-program.test-support.js";

function imagePolicy(name: string, spec: string): string {
  return `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: ${name}, namespace: flux-system }
spec:
  imageRepositoryRef: { name: ${name} }
${spec
  .trim()
  .split("\n")
  .map((l) => `  ${l}`)
  .join("\n")}
`;
}

interface TagsJson {
  tag: string | null;
  error: { code: string; message: string } | null;
  message?: string;
  tags?: { tag: string; verdict: string; reason: string }[];
}

let files: TempFiles;
beforeAll(() => {
  files = tempFiles({
    // The spec's worked examples.
    "semver.yaml": imagePolicy("podinfo", "policy: { semver: { range: 5.1.x } }"),
    "semver.tags": "5.0.3\n5.1.0\n5.1.2\n5.1.10\n5.1.11-rc.1\n5.2.0\n6.0.0\nlatest\n",
    "rc.yaml": imagePolicy(
      "app",
      "filterTags: { pattern: '.*-rc.*' }\npolicy: { semver: { range: ^1.x-0 } }",
    ),
    "rc.tags": "1.0.0\n1.1.0-rc.1\n1.1.0-rc.2\n1.1.0\n1.2.0-alpha.1\n1.2.0-rc.1\n2.0.0-rc.1\n",
    "release.yaml": imagePolicy(
      "minio",
      "filterTags:\n  pattern: '^RELEASE\\.(?P<timestamp>.*)Z$'\n  extract: '$timestamp'\npolicy: { alphabetical: { order: asc } }",
    ),
    "release.json": JSON.stringify({
      name: "minio/minio",
      tags: [
        "RELEASE.2024-06-13T22-53-53Z",
        "RELEASE.2024-10-02T17-50-41Z",
        "RELEASE.2024-08-03T04-33-23Z",
        "latest",
      ],
    }),
    "numerical.yaml": imagePolicy(
      "build",
      "filterTags:\n  pattern: '^main-[a-f0-9]+-(?P<ts>[0-9]+)'\n  extract: '$ts'\npolicy: { numerical: { order: asc } }",
    ),
    "numerical.yaml-tags.yaml":
      "- main-abc123-100\n- main-def456-20\n- feature-9-999\n- main-0a1b2c-1000\n",
    "none.yaml": imagePolicy("none", "policy: { semver: { range: '>=9.0.0' } }"),
    "two.yaml": `${imagePolicy("a", "policy: { semver: { range: 1.x } }")}---\n${imagePolicy("b", "policy: { alphabetical: {} }")}`,
    "bad-yaml.yaml": "spec:\n  policy: { semver: { range: 1.x }\n",
    "bad-cr.yaml": imagePolicy(
      "bad",
      "policy: { semver: { range: 1.x }, alphabetical: { order: asc } }",
    ),
    "bad-range.yaml": imagePolicy("bad", "policy: { semver: { range: '>>1' } }"),
    "bad-pattern.yaml": imagePolicy(
      "bad",
      "filterTags: { pattern: '(?=x)' }\npolicy: { alphabetical: {} }",
    ),
    "bad-tags.json": '{"tags": [1, 2]}',
    "signed.tags": "1.0.0\nsha256-0f3c.sig\n1.1.0\n",
    "signed.yaml": imagePolicy("signed", "policy: { alphabetical: { order: asc } }"),
    "signed-repo.yaml": `${imagePolicy("signed", "policy: { alphabetical: { order: asc } }")}---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: signed, namespace: flux-system }
spec: { image: ghcr.io/org/signed, exclusionList: [] }
`,
    "own-exclusion.yaml": `${imagePolicy("signed", "policy: { alphabetical: { order: asc } }")}---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: signed, namespace: flux-system }
spec: { image: ghcr.io/org/signed, exclusionList: ['^1\\.1'] }
`,
  });
});
afterAll(() => files.remove());

async function tagsJson(args: string[]) {
  const run = await runKubeimg(["tags", "-o", "json", ...args], { cwd: files.dir });
  return { run, json: run.stdout === "" ? undefined : (JSON.parse(run.stdout) as TagsJson) };
}

describe("kubeimg tags (built program)", () => {
  it("a tags file passes through the ImageRepository's exclusionList, as Flux's scan", async () => {
    // No ImageRepository, or an empty list: Flux's default drops signature tags.
    for (const policy of ["signed.yaml", "signed-repo.yaml"]) {
      const { run, json } = await tagsJson(["-f", policy, "--tags-file", "signed.tags"]);
      expect(run.code).toBe(0);
      expect(json).toMatchObject({ tag: "1.1.0", error: null });
    }
    const { json } = await tagsJson(["-f", "own-exclusion.yaml", "--tags-file", "signed.tags"]);
    expect(json).toMatchObject({
      tag: "sha256-0f3c.sig",
      message: "Latest image tag for ghcr.io/org/signed resolved to sha256-0f3c.sig",
      tagCount: 2,
    });
  });

  it.each([
    { policy: "semver.yaml", tagsFile: "semver.tags", tag: "5.1.10" },
    { policy: "rc.yaml", tagsFile: "rc.tags", tag: "1.2.0-rc.1" },
    { policy: "release.yaml", tagsFile: "release.json", tag: "RELEASE.2024-10-02T17-50-41Z" },
    { policy: "numerical.yaml", tagsFile: "numerical.yaml-tags.yaml", tag: "main-0a1b2c-1000" },
  ])("$policy selects $tag", async ({ policy, tagsFile, tag }) => {
    const { run, json } = await tagsJson(["-f", policy, "--tags-file", tagsFile]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(json).toMatchObject({ tag, error: null });
  });

  it("--upstream semver chooses Flux's Masterminds release and the output names it", async () => {
    const args = ["-f", "none.yaml", "--tags-file", "semver.tags", "--explain"];
    const v350 = await tagsJson(args);
    const v340 = await tagsJson([...args, "--upstream", "semver=v3.4.0"]);
    expect(v350.json).toMatchObject({ semver: "v3.5.0" });
    expect(v340.json).toMatchObject({ semver: "v3.4.0" });
    // v3.5.0 quotes Validate's reasons with %q, v3.4.0 prints them bare.
    expect(v350.run.stdout).toContain('\\"5.1.10\\" is less than \\"9.0.0\\"');
    expect(v340.run.stdout).toContain("5.1.10 is less than 9.0.0");
  });

  it("--explain gives every tag a verdict", async () => {
    const { json } = await tagsJson(["-f", "rc.yaml", "--tags-file", "rc.tags", "--explain"]);
    expect(json?.tags?.map((t) => [t.tag, t.verdict])).toEqual([
      ["1.0.0", "filtered-out"],
      ["1.1.0-rc.1", "ranked"],
      ["1.1.0-rc.2", "ranked"],
      ["1.1.0", "filtered-out"],
      ["1.2.0-alpha.1", "filtered-out"],
      ["1.2.0-rc.1", "selected"],
      ["2.0.0-rc.1", "out-of-range"],
    ]);
  });

  it("prints the selection and the verdict table", async () => {
    const run = await runKubeimg(
      ["tags", "-o", "table", "-f", "semver.yaml", "--tags-file", "semver.tags", "--explain"],
      { cwd: files.dir },
    );
    expect(run.stdout).toMatch(/^selected: +5\.1\.10$/m);
    expect(run.stdout).toMatch(
      /^latest +not-a-version +'latest' is not a MAJOR\.MINOR\.PATCH version$/m,
    );
    expect(run.stdout).toMatch(/^6\.0\.0 +out-of-range +6\.0\.0 is outside '5\.1\.x'/m);
  });

  it("exit 1 when the policy selects nothing", async () => {
    const { run, json } = await tagsJson(["-f", "none.yaml", "--tags-file", "semver.tags"]);
    expect(run.code).toBe(1);
    expect(json?.tag).toBeNull();
    expect(json?.error?.code).toBe("NO_MATCHING_VERSION");
  });

  it("--name picks one of several policies", async () => {
    const { run, json } = await tagsJson([
      "-f",
      "two.yaml",
      "--name",
      "b",
      "--tags-file",
      "semver.tags",
    ]);
    expect(run.code).toBe(0);
    // Alphabetical, ascending: the last tag in byte order.
    expect(json?.tag).toBe("latest");
  });

  it.each([
    {
      name: "missing file",
      args: ["-f", "nope.yaml", "--tags-file", "semver.tags"],
      line: /nope\.yaml: no such file \[FILE_NOT_FOUND\]$/,
    },
    {
      name: "missing tags file",
      args: ["-f", "semver.yaml", "--tags-file", "nope.tags"],
      line: /nope\.tags: no such file \[FILE_NOT_FOUND\]$/,
    },
    {
      name: "invalid YAML",
      args: ["-f", "bad-yaml.yaml", "--tags-file", "semver.tags"],
      line: /bad-yaml\.yaml: document 0, line \d+, column \d+: invalid YAML: .+ \[INVALID_YAML\]$/,
    },
    {
      name: "no ImagePolicy",
      args: ["-f", "semver.tags", "--tags-file", "semver.tags"],
      line: /no image\.toolkit\.fluxcd\.io ImagePolicy found( \(\d+ object\(s\) of other kinds skipped\))? \[MISSING_OBJECT\]$/,
    },
    {
      name: "two ImagePolicies",
      args: ["-f", "two.yaml", "--tags-file", "semver.tags"],
      line: /2 ImagePolicies found \(a, b\); choose one with --name$/,
    },
    {
      name: "invalid CR",
      args: ["-f", "bad-cr.yaml", "--tags-file", "semver.tags"],
      line: /bad-cr\.yaml: .*spec\.policy.* \[INVALID_IMAGE_POLICY\]$/,
    },
    {
      name: "invalid range",
      args: ["-f", "bad-range.yaml", "--tags-file", "semver.tags"],
      line: /\[INVALID_(POLICY|IMAGE_POLICY)\]$/,
    },
    {
      name: "invalid pattern",
      args: ["-f", "bad-pattern.yaml", "--tags-file", "semver.tags"],
      line: /\[INVALID_(PATTERN|IMAGE_POLICY)\]$/,
    },
    {
      name: "bad tags file",
      args: ["-f", "semver.yaml", "--tags-file", "bad-tags.json"],
      line: /expected a list of tags/,
    },
    {
      name: "both sources",
      args: ["-f", "semver.yaml", "--tags-file", "semver.tags", "--registry"],
      line: /give exactly one of --tags-file FILE or --registry/,
    },
    {
      name: "no source",
      args: ["-f", "semver.yaml"],
      line: /give exactly one of --tags-file FILE or --registry/,
    },
    {
      name: "registry without repository",
      args: ["-f", "semver.yaml", "--registry"],
      line: /add the ImageRepository "podinfo" to the files or give --image$/,
    },
    {
      name: "invalid reference",
      args: ["-f", "semver.yaml", "--registry", "--image", "Ghcr.io/Org/App"],
      line: /image "Ghcr\.io\/Org\/App": .+ \[\w+\]$/,
    },
  ])("bad input, $name: one line, exit 2", async ({ args, line }) => {
    const run = await runKubeimg(["tags", ...args], { cwd: files.dir });
    expect(run.code).toBe(2);
    const lines = stderrLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^kubeimg tags: /);
    expect(lines[0]).toMatch(line);
  });

  describe("--registry", () => {
    let registry: ScriptedRegistry;
    let registryFiles: TempFiles;
    const podinfoTags = ["5.0.3", "5.1.0", "5.1.2", "5.1.10", "5.2.0", "6.0.0", "latest"];
    beforeAll(async () => {
      registry = await startScriptedRegistry({
        repositories: { "stefanprodan/podinfo": podinfoTags },
        pageSize: 3,
      });
      const dead = await closedLoopbackHost();
      registryFiles = tempFiles({
        "podinfo.yaml": `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: podinfo, namespace: flux-system }
spec:
  image: ${registry.host}/stefanprodan/podinfo
  interval: 5m
---
${imagePolicy("podinfo", "policy: { semver: { range: 5.1.x } }")}`,
        "excluding.yaml": `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: podinfo, namespace: flux-system }
spec:
  image: ${registry.host}/stefanprodan/podinfo
  exclusionList: ['^6\\.', '^latest$']
---
${imagePolicy("podinfo", "policy: { semver: { range: '>=5.0.0' } }")}`,
        "dead.yaml": `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: podinfo, namespace: flux-system }
spec:
  image: ${dead}/stefanprodan/podinfo
---
${imagePolicy("podinfo", "policy: { semver: { range: 5.1.x } }")}`,
        dead,
      });
    });
    afterAll(async () => {
      await registry.close();
      registryFiles.remove();
    });

    it("lists every page from the ImageRepository's registry, with progress on stderr", async () => {
      const run = await runKubeimg(
        [
          "tags",
          "-o",
          "json",
          "-f",
          "podinfo.yaml",
          "--registry",
          "--insecure-registry",
          registry.host,
        ],
        { cwd: registryFiles.dir },
      );
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout) as TagsJson & { tagCount: number };
      expect(json.tag).toBe("5.1.10");
      expect(json.tagCount).toBe(podinfoTags.length);
      expect(json.message).toBe(
        `Latest image tag for ${registry.host}/stefanprodan/podinfo resolved to 5.1.10`,
      );
      const progress = stderrLines(run);
      expect(progress).toEqual([
        `kubeimg tags: listing ${registry.host}/stefanprodan/podinfo: page 1`,
        `kubeimg tags: listing ${registry.host}/stefanprodan/podinfo: page 2`,
        `kubeimg tags: listing ${registry.host}/stefanprodan/podinfo: page 3`,
      ]);
      expect(registry.requests.filter((r) => r.includes("/tags/list"))).toHaveLength(3);
    });

    it("applies the ImageRepository's exclusionList as Flux does", async () => {
      const run = await runKubeimg(
        [
          "tags",
          "-o",
          "json",
          "-f",
          "excluding.yaml",
          "--registry",
          "--insecure-registry",
          registry.host,
        ],
        { cwd: registryFiles.dir },
      );
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as TagsJson).tag).toBe("5.2.0");
    });

    it("an unreachable registry is one line, exit 2", async () => {
      const dead = registryFiles.path("dead");
      const host = (await import("node:fs")).readFileSync(dead, "utf8");
      const run = await runKubeimg(
        ["tags", "-f", "dead.yaml", "--registry", "--insecure-registry", host, "--timeout", "2s"],
        { cwd: registryFiles.dir },
      );
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      const lines = stderrLines(run);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^kubeimg tags: .+ \[NETWORK_ERROR\]$/);
    });
  });
});
