import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type NamedReference, parseNormalizedNamed } from "@kubeimg/core/reference";
import { resolveFirstAvailable } from "@kubeimg/policy/availability";
import { type PlanPullInput, planPull } from "@kubeimg/policy/node-mirrors";
import { readContainerdHostDirs } from "@kubeimg/policy/node-mirrors/fs";
import { createVerificationPolicy, PullManager } from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
import {
  compileRouting,
  finalContainerImage,
  parseRoutingPod,
  routeContainer,
} from "@kubeimg/policy/routing";
import { loadKuikConfig, loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { parseImagePolicy, safeSelectLatestTag } from "@kubeimg/policy/tags";
import { readArgoImageUpdater, selectArgoTag } from "@kubeimg/policy/tags/argocd";
import { readKargoWarehouse, selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { seededRandom } from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { type PolicyTestCaseResult, runPolicyTests } from "./run.js";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const examples = join(repo, "examples/policy-tests");

type Json = Record<string, unknown>;

function objects(path: string): Json[] {
  const files = path.endsWith("/") ? readdirSync(path).map((f) => join(path, f)) : [path];
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(f, "utf8"), { version: "1.1" }).map((d) => d.toJS() as Json),
  );
}

function find(all: Json[], ref: string): Json {
  const [kind, namespace, name] = ref.split("/");
  const found = all.find((o) => {
    const m = o.metadata as Json;
    return o.kind === kind && m.name === name && (m.namespace ?? "default") === namespace;
  });
  if (found === undefined) throw new Error(`${ref} not in the example`);
  return found;
}

/**
 * The library's answer to a case, computed here by calling the policy
 * package directly (no CLI loader), in the shape the runner reports.
 */
async function libraryAnswer(file: string, c: Json, kind: string): Promise<Json> {
  const dir = dirname(file);
  const test = parse(readFileSync(file, "utf8")) as Json;
  const resources = ((test.resources ?? []) as string[]).flatMap((r) => objects(join(dir, r)));
  const input = c[kind] as Json;
  if (kind === "select") {
    const tags = input.tags
      ? (input.tags as string[])
      : readFileSync(join(dir, input.tagsFile as string), "utf8")
          .split("\n")
          .filter(Boolean);
    const infos = tags.map((name) => ({
      name,
      ...((input.metadata as Record<string, Json> | undefined)?.[name] ?? {}),
    }));
    const object = find(resources, input.policy as string);
    if (object.kind === "ImagePolicy") {
      const r = safeSelectLatestTag(tags, parseImagePolicy(object).spec);
      return { tag: r.success ? r.tag : null };
    }
    const s =
      object.kind === "Warehouse"
        ? selectKargoTag(readKargoWarehouse(object).subscription, infos)
        : selectArgoTag(
            readArgoImageUpdater(object, { alias: input.image as string }).config,
            infos,
          );
    return { tag: s.tag ?? null };
  }
  if (kind === "pullCheck") {
    const store = await FileSystemPullRecordStore.open(join(dir, input.kubeletDir as string), {
      readOnly: true,
    });
    const policy = createVerificationPolicy({ policy: input.policy as string });
    const manager = await PullManager.open({ store, policy, clock: { now: Date.now } });
    const secrets = (input.secrets as string[]).map((s) => {
      const [namespace = "", name = "", uid = "", credentialHash = ""] = s.split("/");
      return { namespace, name, uid, credentialHash };
    });
    const d = await manager.mustAttemptImagePull(
      input.image as string,
      input.imageRef as string,
      () => ({
        secrets,
        serviceAccount: null,
      }),
    );
    return { mustPull: d.mustPull, reason: d.reason ?? "none" };
  }
  const texts = ((test.resources ?? []) as string[]).map((r) => readFileSync(join(dir, r), "utf8"));
  const routingResources = texts.flatMap((t) => loadRoutingResources(t, { otherKinds: "ignore" }));
  const config = loadKuikConfig(
    test.kuikConfig ? readFileSync(join(dir, test.kuikConfig as string), "utf8") : "",
  );
  const routing = compileRouting(routingResources, { config });
  let pod: { namespace: string; labels: Json; annotations: Json } = {
    namespace: (input.namespace as string | undefined) ?? "default",
    labels: (input.labels ?? {}) as Json,
    annotations: {},
  };
  let image = input.image as string;
  let name = "app";
  if (input.pod) {
    const p = parseRoutingPod(parse(readFileSync(join(dir, input.pod as string), "utf8")));
    pod = { namespace: p.metadata.namespace, labels: p.metadata.labels ?? {}, annotations: {} };
    image = p.spec.containers[0]?.image as string;
    name = p.spec.containers[0]?.name as string;
  }
  const container = {
    name,
    image,
    imagePullPolicy: image.endsWith(":latest") ? "Always" : "IfNotPresent",
  };
  const down = new Set(
    ((input.unavailable ?? []) as string[]).map((image) => parseNormalizedNamed(image).string),
  );
  const checker = {
    check: async (i: NamedReference) =>
      down.has(i.string)
        ? ({ available: false, reason: "down", retryable: false } as const)
        : ({ available: true } as const),
  };
  const route = routeContainer(routing, { pod: pod as never, container });
  const alternatives = route.status === "routed" ? route.alternatives : [];
  const { winner, index } = await resolveFirstAvailable(alternatives, checker);
  if (kind === "route") {
    return {
      image: finalContainerImage(route, winner),
      alternatives: alternatives.map((a) => a.image),
    };
  }
  const hosts = await readContainerdHostDirs(join(dir, test.nodeConfig as string));
  const node: PlanPullInput["node"] = {
    runtime: "containerd",
    files: hosts.files,
    options: { configPath: join(dir, test.nodeConfig as string) },
  };
  const plan = planPull({ routing, pod: pod as never, container, node });
  const chosen = plan.alternatives[Math.max(0, index)];
  return { endpoints: chosen?.endpoints.map((e) => e.endpoint) ?? [] };
}

describe("runPolicyTests on examples/policy-tests", () => {
  let cases: readonly PolicyTestCaseResult[];
  beforeAll(async () => {
    cases = (await runPolicyTests([examples], { cwd: repo, offline: true })).cases;
  });

  it("passes every case, and runs every kind", () => {
    expect(cases.filter((c) => c.status !== "passed")).toEqual([]);
    expect(new Set(cases.map((c) => c.kind))).toEqual(
      new Set(["select", "route", "pull", "pullCheck"]),
    );
  });

  it("answers every case as the library does for the same inputs", async () => {
    let compared = 0;
    for (const c of cases) {
      const file = join(repo, c.file);
      const test = parse(readFileSync(file, "utf8")) as { cases: Json[] };
      const written = test.cases.find((x) => x.name === c.name) as Json;
      const library = await libraryAnswer(file, written, c.kind);
      for (const [field, value] of Object.entries(library)) {
        expect({ case: c.name, field, value: c.actual[field] }).toEqual({
          case: c.name,
          field,
          value,
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(cases.length);
  });
});

describe("runPolicyTests over generated tag lists", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kubeimg-policy-tests-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("picks what safeSelectLatestTag picks, for 300 random lists over the example policies", async () => {
    const random = seededRandom(29);
    const policies = ["podinfo", "app"];
    const lists: { policy: string; tags: string[] }[] = [];
    for (let i = 0; i < 300; i++) {
      const n = Math.floor(random() * 8);
      const tags = Array.from({ length: n }, () => {
        const r = random();
        const v = () => Math.floor(random() * 12);
        if (r < 0.4) return `${v()}.${v()}.${v()}`;
        if (r < 0.55) return `${v()}.${v()}.${v()}-rc.${v()}`;
        if (r < 0.8) return `main-${1_700_000_000 + v() * 1000}-${v().toString(16)}abc`;
        return `v${v()}`;
      });
      lists.push({ policy: policies[i % 2] as string, tags });
    }
    const text = [
      "apiVersion: kubeimg.dev/v1alpha1",
      "kind: PolicyTest",
      `resources: [${JSON.stringify(join(examples, "flux"))}]`,
      "cases:",
      ...lists.map(
        (l, i) =>
          `  - name: case ${i}\n    select: { policy: ImagePolicy/flux-system/${l.policy}, tags: ${JSON.stringify(l.tags)} }`,
      ),
    ].join("\n");
    writeFileSync(join(dir, "random.kubeimg-test.yaml"), `${text}\n`);
    const report = await runPolicyTests([dir], { cwd: dir });
    const specs = Object.fromEntries(
      objects(join(examples, "flux/"))
        .filter((o) => o.kind === "ImagePolicy")
        .map((o) => [(o.metadata as Json).name, parseImagePolicy(o).spec]),
    );
    let disagreements = 0;
    report.cases.forEach((c, i) => {
      const l = lists[i] as { policy: string; tags: string[] };
      const r = safeSelectLatestTag(l.tags, specs[l.policy] as never);
      const want = r.success ? r.tag : null;
      if (c.actual.tag !== want) disagreements++;
      if (!r.success && c.actual.outcome !== r.error.code) disagreements++;
    });
    expect(report.cases).toHaveLength(300);
    expect(disagreements).toBe(0);
  });
});

describe("runPolicyTests, case by case", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kubeimg-policy-tests-"));
    cpSync(examples, join(dir, "repo"), { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, cases: string, extra = "") =>
    writeFileSync(
      join(dir, "repo/tests", name),
      `apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\nresources: [../flux/, ../kuik/mirrors.yaml, ../argocd/, ../kargo/]\nnodeConfig: ../node/certs.d\n${extra}cases:\n${cases}`,
    );
  const run = (name: string, options = {}) =>
    runPolicyTests([join(dir, "repo/tests", name)], { cwd: dir, ...options });

  it("a failing select case names the field, both values and the trace", async () => {
    write(
      "f.kubeimg-test.yaml",
      `  - name: wrong\n    select: { policy: ImagePolicy/flux-system/podinfo, tags: ["6.0.0", "7.0.0"] }\n    expect: { tag: "7.0.0" }\n`,
    );
    const [c] = (await run("f.kubeimg-test.yaml")).cases;
    expect(c).toMatchObject({
      status: "failed",
      line: 6,
      file: "repo/tests/f.kubeimg-test.yaml",
      mismatches: [{ field: "tag", expected: "7.0.0", actual: "6.0.0" }],
    });
    expect(c?.explain).toContain(
      '7.0.0 (out-of-range): 7.0.0 is outside \'6.x\': "7.0.0" does not have same major version as "6.x"',
    );
  });

  it.each([
    ["none: true", "[]", "{ none: true }", "passed"],
    ["error: NO_TAGS", "[]", "{ error: NO_TAGS }", "passed"],
    ["none against a pick", '["6.0.0"]', "{ none: true }", "failed"],
  ])("select expect %s", async (_name, tags, expect_, status) => {
    write(
      "n.kubeimg-test.yaml",
      `  - name: n\n    select: { policy: ImagePolicy/flux-system/podinfo, tags: ${tags} }\n    expect: ${expect_}\n`,
    );
    expect((await run("n.kubeimg-test.yaml")).cases[0]?.status).toBe(status);
  });

  it("a failing route case shows the order and every CR entry considered", async () => {
    write(
      "r.kubeimg-test.yaml",
      `  - name: r\n    route: { namespace: my-app, image: docker-registry.example.com/my-app/api:v2 }\n    expect: { image: docker-registry.example.com/my-app/api:v2 }\n`,
    );
    const [c] = (await run("r.kubeimg-test.yaml")).cases;
    expect(c?.status).toBe("failed");
    expect(c?.explain.join("\n")).toMatch(
      /1\. fast-registry\.internal\/my-app-cache\/my-app\/api:v2 +key/,
    );
    expect(c?.explain.join("\n")).toContain(
      "ImageSetMirror my-app/team-mirror mirrors[0]: applied",
    );
  });

  it("a failing pull case shows the node's plan", async () => {
    write(
      "p.kubeimg-test.yaml",
      `  - name: p\n    pull: { image: nginx:1.25 }\n    expect: { endpoints: [] }\n`,
    );
    const [c] = (await run("p.kubeimg-test.yaml")).cases;
    expect(c?.status).toBe("failed");
    expect(c?.explain.join("\n")).toContain("https://mirror.example.com/v2");
  });

  it("a pullCheck case without kubeletDir has no records: the pod must pull", async () => {
    write(
      "k.kubeimg-test.yaml",
      `  - name: k\n    pullCheck: { image: nginx:1.25, imageRef: "sha256:${"a".repeat(64)}", policy: AlwaysVerify }\n    expect: { mustPull: true, reason: mustAuthenticate }\n`,
    );
    expect((await run("k.kubeimg-test.yaml")).cases[0]?.status).toBe("passed");
  });

  it.each([
    [
      "a policy not in the resources",
      "select: { policy: ImagePolicy/flux-system/nope, tags: [] }",
      ':7: cases[0].select.policy: "ImagePolicy/flux-system/nope" is not in the resources (found: ImagePolicy/flux-system/app, ImagePolicy/flux-system/podinfo)',
    ],
    [
      "a malformed policy reference",
      "select: { policy: podinfo, tags: [] }",
      "cases[0].select.policy: must be KIND/NAMESPACE/NAME",
    ],
    [
      "two tag sources",
      "select: { policy: ImagePolicy/flux-system/app, tags: [], tagsFile: x }",
      "give exactly one of tags, tagsFile or registry: true",
    ],
    [
      "metadata for a tag not listed",
      "select: { policy: Warehouse/kargo-demo/api, tags: [a], metadata: { b: { created: x } } }",
      "cases[0].select.metadata.b: is not one of the case's tags",
    ],
    [
      "an alias on a Flux policy",
      "select: { policy: ImagePolicy/flux-system/app, image: web, tags: [] }",
      "cases[0].select.image: is an Argo CD ImageUpdater alias",
    ],
    [
      "an unavailable image that is no alternative",
      "route: { image: nginx, unavailable: [nginx] }",
      'cases[0].route.unavailable[0]: "nginx" is not one of the alternatives',
    ],
    ["a bad image", "route: { image: 'Nginx:1' }", "cases[0].route.image"],
    [
      "a bad secret",
      "pullCheck: { image: nginx, secrets: [a/b] }",
      "cases[0].pullCheck.secrets: must be NAMESPACE/NAME/UID/HASH",
    ],
    [
      "expect with two answers",
      "select: { policy: ImagePolicy/flux-system/app, tags: [] }\n    expect: { tag: a, none: true }",
      "cases[0].expect: give exactly one of tag, none, error",
    ],
  ])("refuses %s, naming the file, line and field", async (_name, body, says) => {
    write("bad.kubeimg-test.yaml", `  - name: bad\n    ${body}\n`);
    await expect(run("bad.kubeimg-test.yaml")).rejects.toMatchObject({
      code: "INVALID_POLICY_TEST",
      message: expect.stringContaining(says),
    });
  });

  it("refuses registry: true when offline, and without a lister", async () => {
    write(
      "reg.kubeimg-test.yaml",
      "  - name: live\n    select: { policy: ImagePolicy/flux-system/podinfo, registry: true }\n",
    );
    await expect(run("reg.kubeimg-test.yaml", { offline: true })).rejects.toThrow(
      /:7: cases\[0\]\.select\.registry: lists tags live, which --offline refuses/,
    );
    await expect(run("reg.kubeimg-test.yaml")).rejects.toThrow(/pass listTags/);
  });

  it("lists tags live through listTags for registry: true, with the ImageRepository's image", async () => {
    write(
      "reg.kubeimg-test.yaml",
      "  - name: live\n    select: { policy: ImagePolicy/flux-system/podinfo, registry: true }\n    expect: { tag: 6.2.0 }\n",
    );
    const asked: unknown[] = [];
    const report = await run("reg.kubeimg-test.yaml", {
      listTags: async (request: unknown) => {
        asked.push(request);
        return [{ name: "6.2.0" }, { name: "7.0.0" }];
      },
    });
    expect(report.cases[0]?.status).toBe("passed");
    expect(asked).toEqual([
      {
        dialect: "flux",
        image: "ghcr.io/stefanprodan/podinfo",
        exclusionList: ["^.*\\.sig$"],
        insecure: false,
        needsMetadata: false,
      },
    ]);
  });

  it("--run runs the matching cases only", async () => {
    write(
      "run.kubeimg-test.yaml",
      `  - name: alpha\n    select: { policy: ImagePolicy/flux-system/podinfo, tags: [] }\n    expect: { none: true }\n  - name: beta\n    select: { policy: ImagePolicy/flux-system/podinfo, tags: [] }\n    expect: { none: true }\n`,
    );
    const report = await run("run.kubeimg-test.yaml", { run: "^be" });
    expect(report.cases.map((c) => c.name)).toEqual(["beta"]);
    expect(report.skipped).toBe(1);
    await expect(run("run.kubeimg-test.yaml", { run: "(?<x" })).rejects.toMatchObject({
      code: "USAGE",
    });
  });

  it("update writes the answers of new cases, keeps comments, and leaves failing cases alone", async () => {
    const file = join(dir, "repo/tests/u.kubeimg-test.yaml");
    write(
      "u.kubeimg-test.yaml",
      [
        "  # the newest 6.x",
        "  - name: new one",
        '    select: { policy: ImagePolicy/flux-system/podinfo, tags: ["6.0.0", "6.3.1"] }',
        "  - name: failing one # keep me",
        '    select: { policy: ImagePolicy/flux-system/podinfo, tags: ["6.0.0"] }',
        '    expect: { tag: "9.9.9" }',
        "  - name: new route",
        "    route: { namespace: default, image: nginx:1.25 }",
        "",
      ].join("\n"),
    );
    const before = await run("u.kubeimg-test.yaml");
    expect(before.cases.map((c) => c.status)).toEqual(["new", "failed", "new"]);
    const report = await run("u.kubeimg-test.yaml", { update: true });
    expect(report.cases.map((c) => c.status)).toEqual(["updated", "failed", "updated"]);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("# the newest 6.x");
    expect(text).toContain("# keep me");
    expect(text).toContain('expect: { tag: "9.9.9" }');
    const after = await run("u.kubeimg-test.yaml");
    expect(after.cases.map((c) => c.status)).toEqual(["passed", "failed", "passed"]);
    expect(parse(text).cases[0].expect).toEqual({ tag: "6.3.1" });
    expect(parse(text).cases[2].expect).toEqual({
      image: "harbor.example.com/global-mirror/library/nginx:1.25",
      alternatives: [
        "harbor.example.com/global-mirror/library/nginx:1.25",
        "docker.io/library/nginx:1.25",
      ],
    });
  });

  it("finds no test file in a folder without one", async () => {
    await expect(runPolicyTests([join(dir, "repo/flux")], { cwd: dir })).rejects.toMatchObject({
      code: "MISSING_OBJECT",
    });
  });
});

describe("runPolicyTests, upstream releases", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kubeimg-policy-tests-upstream-"));
    cpSync(examples, join(dir, "repo"), { recursive: true });
    // The v1 syntax: containers/image 5.36 converts it, 5.40 refuses it.
    writeFileSync(
      join(dir, "repo/node/registries-v1.conf"),
      '[registries.search]\nregistries = ["docker.io"]\n\n[registries.insecure]\nregistries = ["registry.internal:5000"]\n',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, head: string, cases: string) =>
    writeFileSync(
      join(dir, "repo/tests", name),
      `apiVersion: kubeimg.dev/v1alpha1\nkind: PolicyTest\n${head}cases:\n${cases}`,
    );
  const run = (name: string, options = {}) =>
    runPolicyTests([join(dir, "repo/tests", name)], { cwd: dir, ...options });
  const V1_PULL =
    "  - name: v1\n    pull: { image: registry.internal:5000/app:1 }\n    expect: { endpoints: [registry.internal:5000] }\n";

  it("reads a v1 registries.conf as containers/image 5.36 does, and refuses it as 5.40 (the default) does", async () => {
    write("v1.kubeimg-test.yaml", "nodeConfig: ../node/registries-v1.conf\n", V1_PULL);
    await expect(run("v1.kubeimg-test.yaml")).rejects.toMatchObject({
      code: "INVALID_REGISTRIES",
      message: expect.stringMatching(
        /^repo\/tests\/v1\.kubeimg-test\.yaml:3: nodeConfig: .*registries\.conf must be in v2 format but is in v1 \(containers\/image 5\.40; upstream: \{ containers-image: "5\.36" \} in the test file \(or --upstream containers-image=5\.36\) reads v1 files\)/,
      ),
    });
    await expect(
      run("v1.kubeimg-test.yaml", { upstream: { "containers-image": "5.40" } }),
    ).rejects.toMatchObject({ code: "INVALID_REGISTRIES" });
    const [c] = (await run("v1.kubeimg-test.yaml", { upstream: { "containers-image": "5.36" } }))
      .cases;
    expect(c).toMatchObject({
      status: "passed",
      actual: { endpoints: ["registry.internal:5000"] },
      upstream: { "containers-image": "5.36" },
    });
  });

  it("a file's upstream: wins over the caller's for that file; the caller's applies to files naming none", async () => {
    write(
      "v1-file.kubeimg-test.yaml",
      'nodeConfig: ../node/registries-v1.conf\nupstream:\n  containers-image: "5.36"\n',
      V1_PULL,
    );
    const own = await run("v1-file.kubeimg-test.yaml");
    expect(own.cases[0]).toMatchObject({
      status: "passed",
      upstream: { "containers-image": "5.36" },
    });
    const over = await run("v1-file.kubeimg-test.yaml", {
      upstream: { "containers-image": "5.40" },
    });
    expect(over.cases[0]?.status).toBe("passed");
    write(
      "v1-new.kubeimg-test.yaml",
      'nodeConfig: ../node/registries-v1.conf\nupstream:\n  containers-image: "5.40"\n',
      V1_PULL,
    );
    // The flag cannot help here: the message names the file's setting only.
    const refused = await run("v1-new.kubeimg-test.yaml", {
      upstream: { "containers-image": "5.36" },
    }).catch((error: Error) => error);
    expect(refused).toMatchObject({ code: "INVALID_REGISTRIES" });
    expect((refused as Error).message).toContain(
      'upstream: { containers-image: "5.36" } in the test file reads v1 files',
    );
    expect((refused as Error).message).not.toContain("--upstream");
  });

  it("a failing pull case's trace names the release it reproduced", async () => {
    write(
      "v1-fail.kubeimg-test.yaml",
      'nodeConfig: ../node/registries-v1.conf\nupstream:\n  containers-image: "5.36"\n',
      "  - name: v1\n    pull: { image: registry.internal:5000/app:1 }\n    expect: { endpoints: [] }\n",
    );
    const [c] = (await run("v1-fail.kubeimg-test.yaml")).cases;
    expect(c?.status).toBe("failed");
    expect(c?.explain.map((l) => l.trim())).toContain(
      "containers/image 5.36: registries.conf read as that release does (--upstream containers-image=5.36|5.40)",
    );
    write(
      "hosts-fail.kubeimg-test.yaml",
      "nodeConfig: ../node/certs.d\n",
      "  - name: p\n    pull: { image: nginx:1.25 }\n    expect: { endpoints: [] }\n",
    );
    const [h] = (await run("hosts-fail.kubeimg-test.yaml", { upstream: { containerd: "2.3" } }))
      .cases;
    expect(h?.upstream).toEqual({ containerd: "2.3" });
    expect(h?.explain.map((l) => l.trim())).toContain(
      "containerd 2.3: hosts.toml read as that release does (--upstream containerd=2.3|2.4)",
    );
  });

  it("decides a pullCheck case as the chosen kubelet does, as kubeimg pull-check", async () => {
    // 1.35 matches the allowlist against the raw image string, 1.36 and later against the normalized name.
    write(
      "kubelet.kubeimg-test.yaml",
      "",
      `  - name: allowlisted\n    pullCheck: { image: nginx:1.25, imageRef: "sha256:${"a".repeat(64)}", policy: NeverVerifyAllowlistedImages, allowlist: [docker.io/library/nginx] }\n    expect: { mustPull: false, reason: credentialPolicyAllowed }\n`,
    );
    const newest = (await run("kubelet.kubeimg-test.yaml")).cases[0];
    expect(newest).toMatchObject({ status: "passed", upstream: { kubelet: "1.37" } });
    const old = (await run("kubelet.kubeimg-test.yaml", { upstream: { kubelet: "1.35" } }))
      .cases[0];
    expect(old).toMatchObject({
      status: "failed",
      actual: { mustPull: true, reason: "mustAuthenticate" },
      upstream: { kubelet: "1.35" },
    });
    expect(old?.explain[0]).toBe(
      "kubelet 1.35: decided as that release does (--upstream kubelet=1.35|1.36|1.37)",
    );
  });

  it("reads a Flux select case with the chosen Masterminds/semver; a route case depends on none", async () => {
    write(
      "semver.kubeimg-test.yaml",
      "resources: [../flux/, ../kuik/mirrors.yaml]\n",
      '  - name: s\n    select: { policy: ImagePolicy/flux-system/podinfo, tags: ["6.0.0"] }\n    expect: { tag: "7.0.0" }\n  - name: r\n    route: { namespace: default, image: nginx:1.25 }\n    expect: { image: nginx }\n',
    );
    const [s, r] = (await run("semver.kubeimg-test.yaml", { upstream: { semver: "v3.4.0" } }))
      .cases;
    expect(s?.upstream).toEqual({ semver: "v3.4.0" });
    expect(s?.explain[0]).toBe(
      "Masterminds/semver v3.4.0: read as that release does (--upstream semver=v3.4.0|v3.5.0)",
    );
    expect(r?.status).toBe("failed");
    expect(r?.upstream).toEqual({});
  });

  it.each([
    [
      { "containers-image": "5.4" },
      "--upstream containers-image=5.4: not a release kubeimg reproduces; use one of 5.36, 5.40",
    ],
    [
      { platforms: "rc.4" },
      "--upstream platforms: kubeimg test does not depend on it (it reads containerd, containers-image, kubelet, semver)",
    ],
    [
      { nope: "1" },
      '--upstream "nope": unknown upstream; kubeimg test reads containerd, containers-image, kubelet, semver',
    ],
  ])("refuses the release %j as --upstream does", async (upstream, message) => {
    write("any.kubeimg-test.yaml", "", "  - name: n\n    route: { image: nginx }\n");
    await expect(run("any.kubeimg-test.yaml", { upstream })).rejects.toMatchObject({
      code: "USAGE",
      message,
    });
  });
});
