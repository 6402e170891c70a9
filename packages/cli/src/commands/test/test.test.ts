import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIo } from "../../io/memory-io.test-support.js";
import { parseXml } from "../../policy-tests/xml.test-support.js";
import { runCli } from "../../run.js";

const repo = fileURLToPath(new URL("../../../../../", import.meta.url));

async function kubeimg(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
) {
  const m = memoryIo({
    tty: false,
    cwd: options.cwd ?? repo,
    ...(options.env ? { env: options.env } : {}),
  });
  const code = await runCli(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("kubeimg test on the examples", () => {
  it("exits 0 on examples/policy-tests and prints one line per case", async () => {
    const r = await kubeimg(["test", "examples/policy-tests"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines.filter((l) => l.startsWith("  ✓ "))).toHaveLength(13);
    expect(lines.filter((l) => l.startsWith("  ✗ "))).toHaveLength(0);
    expect(r.out).toContain("13 passed, 0 failed (13 cases in 4 files)");
  });

  it("exits 1 on the failing example, naming the case, the file and line, both values and why", async () => {
    const r = await kubeimg(["test", "examples/policy-tests-failing"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "  ✗ podinfo takes 7.0.0 (it does not)  examples/policy-tests-failing/kubeimg-test.yaml:11 select: failed",
    );
    expect(r.out).toMatch(/ {6}tag +7\.0\.0 +6\.1\.0\n/);
    expect(r.out).toContain("6.1.0 (selected): the greatest version in '6.x'");
    expect(r.out).toContain("0 passed, 1 failed");
    // Details and summary share one stream, and a file gets no colour codes.
    expect(r.err).toBe("");
    expect(r.out).not.toContain("\u001b[");
  });

  it("writes no annotation unless GITHUB_ACTIONS=true", async () => {
    const plain = await kubeimg(["test", "examples/policy-tests-failing"]);
    expect(plain.out + plain.err).not.toContain("::error");
    const ci = await kubeimg(["test", "examples/policy-tests-failing"], {
      env: { GITHUB_ACTIONS: "true" },
    });
    expect(ci.out).toContain(
      "::error file=examples/policy-tests-failing/kubeimg-test.yaml,line=11,title=kubeimg test%3A podinfo takes 7.0.0 (it does not)::tag: expected 7.0.0, got 6.1.0\n",
    );
    const json = await kubeimg(["test", "examples/policy-tests-failing", "-o", "json"], {
      env: { GITHUB_ACTIONS: "true" },
    });
    expect(() => JSON.parse(json.out)).not.toThrow();
    expect(json.err).toContain(
      "::error file=examples/policy-tests-failing/kubeimg-test.yaml,line=11",
    );
  });

  it("-o junit is well-formed JUnit XML with a failure for the failing case", async () => {
    const r = await kubeimg([
      "test",
      "examples/policy-tests",
      "examples/policy-tests-failing",
      "-o",
      "junit",
    ]);
    expect(r.code).toBe(1);
    const root = parseXml(r.out);
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ tests: "14", failures: "1" });
    expect(root.children.map((s) => s.name)).toEqual(Array(5).fill("testsuite"));
    const testcases = root.children.flatMap((s) => s.children);
    expect(testcases).toHaveLength(14);
    for (const t of testcases) {
      expect(t.name).toBe("testcase");
      expect(t.attributes.name).toBeTruthy();
      expect(t.attributes.classname).toBeTruthy();
    }
    const failed = testcases.filter((t) => t.children.some((c) => c.name === "failure"));
    expect(failed.map((t) => [t.attributes.name, t.attributes.file, t.attributes.line])).toEqual([
      [
        "podinfo takes 7.0.0 (it does not)",
        "examples/policy-tests-failing/kubeimg-test.yaml",
        "11",
      ],
    ]);
    expect(failed[0]?.children[0]?.attributes.message).toBe("tag: expected 7.0.0, got 6.1.0");
  });

  it("-o json is the report", async () => {
    const r = await kubeimg(["test", "examples/policy-tests", "-o", "json"]);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({ passed: 13, failed: 0, new: 0 });
  });
});

describe("kubeimg test on edited copies", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kubeimg-test-cmd-"));
    cpSync(join(repo, "examples/policy-tests"), join(dir, "policy-tests"), { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tagsFile = () => join(dir, "policy-tests/tests/tags.kubeimg-test.yaml");

  it("exits 1 naming the case and file when one expected tag changes", async () => {
    const original = readFileSync(tagsFile(), "utf8");
    writeFileSync(tagsFile(), original.replace('tag: "6.1.0"', 'tag: "6.0.0"'));
    try {
      const r = await kubeimg(["test", "policy-tests"], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        "  ✗ podinfo takes the newest 6.x  policy-tests/tests/tags.kubeimg-test.yaml:11",
      );
      expect(r.out).toContain("12 passed, 1 failed");
    } finally {
      writeFileSync(tagsFile(), original);
    }
  });

  it("exits 2 with did you mean for a misspelled expect", async () => {
    const original = readFileSync(tagsFile(), "utf8");
    writeFileSync(
      tagsFile(),
      original.replace('    expect:\n      tag: "6.1.0"', '    expct:\n      tag: "6.1.0"'),
    );
    try {
      const r = await kubeimg(["test", "policy-tests"], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toBe(
        "kubeimg test: policy-tests/tests/tags.kubeimg-test.yaml:15: cases[0].expct: unknown field; did you mean expect? (known: name, select, route, pull, pullCheck, expect) [UNKNOWN_FIELD]\n",
      );
    } finally {
      writeFileSync(tagsFile(), original);
    }
  });

  it("exits 2 when a manifest the test file names is invalid", async () => {
    const policy = join(dir, "policy-tests/flux/podinfo.yaml");
    const original = readFileSync(policy, "utf8");
    writeFileSync(policy, original.replace("range: 6.x", "rnage: 6.x"));
    try {
      const r = await kubeimg(["test", "policy-tests"], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.err).toContain("policy-tests/flux/podinfo.yaml");
      expect(r.err).toContain("rnage");
    } finally {
      writeFileSync(policy, original);
    }
  });

  it("--offline refuses registry: true; --run with no match exits 1", async () => {
    writeFileSync(
      join(dir, "live.kubeimg-test.yaml"),
      "apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nresources: [policy-tests/flux/]\ncases:\n  - name: live\n    select: { policy: ImagePolicy/flux-system/podinfo, registry: true }\n",
    );
    const r = await kubeimg(["test", "live.kubeimg-test.yaml", "--offline"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "live.kubeimg-test.yaml:6: cases[0].select.registry: lists tags live, which --offline refuses",
    );
    const none = await kubeimg(["test", "policy-tests", "--run", "^nothing$"], { cwd: dir });
    expect(none.code).toBe(1);
    expect(none.err).toContain("matches no case");
  });

  it("--update records a new case, and the next run passes", async () => {
    const file = join(dir, "new.kubeimg-test.yaml");
    writeFileSync(
      file,
      "apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nresources: [policy-tests/flux/]\ncases:\n  # recorded by --update\n  - name: new\n    select: { policy: ImagePolicy/flux-system/podinfo, tags: [6.0.1, 6.0.2] }\n",
    );
    expect((await kubeimg(["test", "new.kubeimg-test.yaml"], { cwd: dir })).code).toBe(1);
    const u = await kubeimg(["test", "new.kubeimg-test.yaml", "--update"], { cwd: dir });
    expect(u.code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("# recorded by --update");
    expect(readFileSync(file, "utf8")).toContain("expect:\n      tag: 6.0.2");
    expect((await kubeimg(["test", "new.kubeimg-test.yaml"], { cwd: dir })).code).toBe(0);
  });
});

describe("kubeimg test answers as the other commands do", () => {
  it("select: the tag kubeimg tags picks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubeimg-test-cmd-"));
    try {
      const tags = ["5.9.0", "6.0.0", "6.2.1", "6.10.0-rc.1", "7.0.0"];
      writeFileSync(join(dir, "tags.txt"), tags.join("\n"));
      const flux = join(repo, "examples/policy-tests/flux/podinfo.yaml");
      const byHand = JSON.parse(
        (await kubeimg(["tags", "-f", flux, "--tags-file", join(dir, "tags.txt"), "-o", "json"]))
          .out,
      );
      writeFileSync(
        join(dir, "kubeimg-test.yaml"),
        `apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nresources: [${JSON.stringify(flux)}]\ncases:\n  - name: s\n    select: { policy: ImagePolicy/flux-system/podinfo, tagsFile: tags.txt }\n`,
      );
      const report = JSON.parse((await kubeimg(["test", dir, "-o", "json"], { cwd: dir })).out);
      expect(report.cases[0].actual.tag).toBe(byHand.tag);
      expect(byHand.tag).toBe("6.2.1");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("route and pull: the order kubeimg route lists, and the endpoints of route --node-config", async () => {
    const ex = join(repo, "examples/policy-tests");
    const args = [
      "route",
      "-f",
      join(ex, "kuik/mirrors.yaml"),
      "--config",
      join(ex, "kuik/config.yaml"),
      "-n",
      "my-app",
      "--image",
      "docker-registry.example.com/my-app/api:v2",
    ];
    const byHand = JSON.parse(
      (await kubeimg([...args, "--node-config", join(ex, "node/certs.d"), "-o", "json"])).out,
    );
    const report = JSON.parse(
      (
        await kubeimg([
          "test",
          "examples/policy-tests/tests/routing.kubeimg-test.yaml",
          "-o",
          "json",
        ])
      ).out,
    );
    expect(report.cases[0].actual.alternatives).toEqual(
      byHand.alternatives.map((a: { image: string }) => a.image),
    );
    const dir = mkdtempSync(join(tmpdir(), "kubeimg-test-cmd-"));
    try {
      writeFileSync(
        join(dir, "kubeimg-test.yaml"),
        `apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nresources: [${JSON.stringify(join(ex, "kuik/mirrors.yaml"))}]\nnodeConfig: ${JSON.stringify(join(ex, "node/certs.d"))}\ncases:\n  - name: p\n    pull: { namespace: my-app, image: docker-registry.example.com/my-app/api:v2 }\n`,
      );
      const pull = JSON.parse((await kubeimg(["test", dir, "-o", "json"], { cwd: dir })).out);
      expect(pull.cases[0].actual.endpoints).toEqual(
        byHand.node.alternatives[0].endpoints.map((e: { endpoint: string }) => e.endpoint),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("pullCheck: the decision kubeimg pull-check takes", async () => {
    const ex = join(repo, "examples/policy-tests");
    const byHand = JSON.parse(
      (
        await kubeimg([
          "pull-check",
          "--kubelet-dir",
          join(ex, "kubelet"),
          "--image",
          "registry.example.com/team-a/app:1.0",
          "--image-ref",
          "sha256:cdb7e31f055d96b6141177f022f6338d82714c6702f1d094bf201c4e4bf23004",
          "--secret",
          "team-b/regcred/0e8d7c1f-5a2b-4f7e-8c90-1d2e3f4a5b6c/",
          "--policy",
          "AlwaysVerify",
          "-o",
          "json",
        ])
      ).out,
    );
    const report = JSON.parse(
      (
        await kubeimg([
          "test",
          "examples/policy-tests/tests/kubelet.kubeimg-test.yaml",
          "-o",
          "json",
        ])
      ).out,
    );
    expect(report.cases[1].actual).toEqual({ mustPull: byHand.mustPull, reason: byHand.reason });
  });
});

describe("kubeimg test --upstream", () => {
  let dir: string;
  const conf = () => join(dir, "node/registries-v1.conf");
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kubeimg-test-upstream-"));
    cpSync(join(repo, "examples/policy-tests"), dir, { recursive: true });
    // The v1 syntax: containers/image 5.36 converts it, 5.40 refuses it.
    writeFileSync(
      conf(),
      '[registries.search]\nregistries = ["docker.io"]\n\n[registries.insecure]\nregistries = ["registry.internal:5000"]\n',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const testFile = (head: string) => {
    writeFileSync(
      join(dir, "tests/v1.kubeimg-test.yaml"),
      `apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nnodeConfig: ../node/registries-v1.conf\n${head}cases:\n  - name: v1\n    pull: { image: registry.internal:5000/app:1 }\n    expect: { endpoints: [registry.internal:5000] }\n`,
    );
    return "tests/v1.kubeimg-test.yaml";
  };

  it("answers a pull case as kubeimg route --node-config --upstream does, for each containers-image release", async () => {
    const file = testFile("");
    const newest = await kubeimg(["test", file], { cwd: dir });
    expect(newest.code).toBe(2);
    expect(newest.err).toContain("registries.conf must be in v2 format but is in v1");
    const byHand = await kubeimg(
      [
        "route",
        "-f",
        join(dir, "kuik/mirrors.yaml"),
        "-n",
        "default",
        "--image",
        "registry.internal:5000/app:1",
        "--node-config",
        conf(),
        "--upstream",
        "containers-image=5.36",
        "-o",
        "json",
      ],
      { cwd: dir },
    );
    expect(byHand.code).toBe(0);
    expect(
      (await kubeimg(["test", file, "--upstream", "containers-image=5.36"], { cwd: dir })).code,
    ).toBe(0);
    // The same pull, through kuik's mirrors as the command's: a new case, its answer recorded.
    writeFileSync(
      join(dir, "tests/v1-route.kubeimg-test.yaml"),
      "apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nresources: [../kuik/mirrors.yaml]\nnodeConfig: ../node/registries-v1.conf\ncases:\n  - name: v1\n    pull: { image: registry.internal:5000/app:1 }\n",
    );
    const r = await kubeimg(
      [
        "test",
        "tests/v1-route.kubeimg-test.yaml",
        "--upstream",
        "containers-image=5.36",
        "-o",
        "json",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.cases[0].upstream).toEqual({ "containers-image": "5.36" });
    expect(report.cases[0].actual.endpoints).toEqual(
      JSON.parse(byHand.out).node.alternatives[0].endpoints.map(
        (e: { endpoint: string }) => e.endpoint,
      ),
    );
  });

  it("the file's upstream: wins over the flag for that file", async () => {
    const file = testFile('upstream:\n  containers-image: "5.36"\n');
    expect((await kubeimg(["test", file], { cwd: dir })).code).toBe(0);
    const r = await kubeimg(["test", file, "--upstream", "containers-image=5.40"], { cwd: dir });
    expect(r.code).toBe(0);
    const own = testFile('upstream:\n  containers-image: "5.40"\n');
    const refused = await kubeimg(["test", own, "--upstream", "containers-image=5.36"], {
      cwd: dir,
    });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      "tests/v1.kubeimg-test.yaml:3: nodeConfig: loading registries configuration",
    );
    expect(refused.err).toContain(
      '(containers/image 5.40; upstream: { containers-image: "5.36" } in the test file reads v1 files) [INVALID_REGISTRIES]',
    );
    expect(refused.err).not.toContain("--upstream");
  });

  it("names the release in a failing case's trace", async () => {
    writeFileSync(
      join(dir, "tests/k.kubeimg-test.yaml"),
      `apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\ncases:\n  - name: k\n    pullCheck: { image: nginx:1.25, imageRef: "sha256:${"a".repeat(64)}", policy: NeverVerifyAllowlistedImages, allowlist: [docker.io/library/nginx] }\n    expect: { mustPull: false }\n`,
    );
    const r = await kubeimg(["test", "tests/k.kubeimg-test.yaml", "--upstream", "kubelet=1.35"], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "kubelet 1.35: decided as that release does (--upstream kubelet=1.35|1.36|1.37)",
    );
  });

  it.each([
    [
      ["--upstream", "containers-image=5.4"],
      "kubeimg test: --upstream containers-image=5.4: not a release kubeimg reproduces; use one of 5.36, 5.40",
    ],
    [
      ["--upstream", "platforms=rc.4"],
      "kubeimg test: --upstream platforms: kubeimg test does not depend on it (it reads containerd, containers-image, kubelet, semver)",
    ],
    [["--upstream", "kubelet"], 'kubeimg test: --upstream "kubelet": expected NAME=VERSION'],
  ])("exits 2 for %j, as the other commands do", async (flag, says) => {
    const r = await kubeimg(["test", testFile(""), ...flag], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain(says);
  });

  it("exits 2 for a bad upstream: in a test file, naming the file, line, field and value", async () => {
    const r = await kubeimg(["test", testFile('upstream:\n  kubelet: "1.34"\n')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'kubeimg test: tests/v1.kubeimg-test.yaml:5: upstream.kubelet: must be one of 1.35, 1.36, 1.37 (found "1.34"); did you mean 1.35?',
    );
    const typo = await kubeimg(["test", testFile('upstream:\n  containerdd: "2.3"\n')], {
      cwd: dir,
    });
    expect(typo.code).toBe(2);
    expect(typo.err).toContain(
      "tests/v1.kubeimg-test.yaml:5: upstream.containerdd: unknown field; did you mean containerd?",
    );
  });

  it("lists --upstream and the names it reads in --help", async () => {
    const r = await kubeimg(["test", "--help"]);
    expect(r.out).toContain("--upstream NAME=VERSION");
    expect(r.out).toContain("containers-image=5.36|5.40 (default 5.40)");
    expect(r.out).not.toContain("platforms=");
  });
});
