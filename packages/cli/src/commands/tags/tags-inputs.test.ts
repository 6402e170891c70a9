import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import { memoryIo } from "../../io/memory-io.test-support.js";
import {
  type ScriptedRegistry,
  startScriptedRegistry,
} from "../../registry/scripted-registry.test-support.js";
import { runCli } from "../../run.js";

// Counts calls of the explain trace while keeping its behaviour.
const explainCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("@kubeimg/policy/tags", async (importOriginal) => {
  const original = await importOriginal<typeof import("@kubeimg/policy/tags")>();
  return {
    ...original,
    explainTagSelection: (...args: Parameters<typeof original.explainTagSelection>) => {
      explainCalls.count++;
      return original.explainTagSelection(...args);
    },
  };
});

const policy = (apiVersion: string) => `apiVersion: ${apiVersion}
kind: ImagePolicy
metadata: { name: app, namespace: default }
spec:
  imageRepositoryRef: { name: app }
  policy: { semver: { range: 1.x } }
`;
const repository = (apiVersion: string, image: string, extra = "") => `apiVersion: ${apiVersion}
kind: ImageRepository
metadata: { name: app, namespace: default }
spec:
  image: ${image}
  interval: 5m
${extra}`;

let registry: ScriptedRegistry;
let files: TempFiles;
beforeAll(async () => {
  registry = await startScriptedRegistry({
    repositories: { "team/app": ["1.0.0", "1.2.0", "2.0.0", "1.1.0.sig"] },
  });
  files = tempFiles({
    "v1beta2.yaml": policy("image.toolkit.fluxcd.io/v1beta2"),
    "v1beta1.yaml": policy("image.toolkit.fluxcd.io/v1beta1"),
    "typo.yaml": `${policy("image.toolkit.fluxcd.io/v1")}  filterTag: { pattern: '^1' }\n`,
    "tags.txt": "1.0.0\n1.3.0\n2.0.0\n",
    "insecure.yaml": `${policy("image.toolkit.fluxcd.io/v1")}---\n${repository(
      "image.toolkit.fluxcd.io/v1beta2",
      `${registry.host}/team/app`,
      "  insecure: true\n",
    )}`,
    "plain.yaml": `${policy("image.toolkit.fluxcd.io/v1")}---\n${repository(
      "image.toolkit.fluxcd.io/v1",
      `${registry.host}/team/app`,
    )}`,
  });
});
afterAll(async () => {
  await registry.close();
  files.remove();
});

async function tags(args: string[]) {
  const m = memoryIo({ tty: false, cwd: files.dir, fetch: globalThis.fetch });
  const code = await runCli(["tags", ...args], m.io);
  const out = m.out();
  return { code, err: m.err(), json: out === "" ? undefined : JSON.parse(out) };
}

describe("kubeimg tags and Flux versions", () => {
  it.each(["v1beta2", "v1beta1"])("accepts an ImagePolicy of %s", async (version) => {
    const r = await tags(["-f", `${version}.yaml`, "--tags-file", "tags.txt"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.json.tag).toBe("1.3.0");
  });

  it("refuses a misspelled field with a suggestion (strict), warns with --validate=warn", async () => {
    const strict = await tags(["-f", "typo.yaml", "--tags-file", "tags.txt"]);
    expect(strict.code).toBe(2);
    expect(strict.err).toContain('unknown field "spec.filterTag" (did you mean "filterTags"?)');
    expect(strict.err).toContain("[UNKNOWN_FIELD]");
    const warned = await tags(["-f", "typo.yaml", "--tags-file", "tags.txt", "--validate=warn"]);
    expect(warned.code).toBe(0);
    expect(warned.err).toContain(
      'warning: typo.yaml: document 0: unknown field "spec.filterTag" (did you mean "filterTags"?), ignored',
    );
  });
});

describe("kubeimg tags builds the explain trace only when asked", () => {
  it("not without --explain, once with it", async () => {
    explainCalls.count = 0;
    const plain = await tags(["-f", "v1beta2.yaml", "--tags-file", "tags.txt"]);
    expect(plain.json.tag).toBe("1.3.0");
    expect(plain.json.tags).toBeUndefined();
    expect(explainCalls.count).toBe(0);
    const explained = await tags(["-f", "v1beta2.yaml", "--tags-file", "tags.txt", "--explain"]);
    expect(explained.json.tag).toBe("1.3.0");
    expect(explained.json.tags).toHaveLength(3);
    expect(explainCalls.count).toBe(1);
  });
});

describe("kubeimg tags and local registries", () => {
  it("a loopback registry is refused by default, and the error names the flags", async () => {
    const r = await tags(["-f", "insecure.yaml", "--registry"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[BLOCKED_HOST\]/);
    expect(r.err).toContain("--allow-private-hosts");
    expect(r.err).toContain("--insecure-registry HOST");
    expect(registry.requests).toEqual([]);
  });

  it("spec.insecure: true talks plain HTTP, as Flux does (with --allow-private-hosts for loopback)", async () => {
    const r = await tags(["-f", "insecure.yaml", "--registry", "--allow-private-hosts"]);
    expect(r.err).toBe(`kubeimg tags: listing ${registry.host}/team/app: page 1\n`);
    expect(r.code).toBe(0);
    // Flux's default exclusionList drops the .sig tag; 1.x selects 1.2.0.
    expect(r.json.tag).toBe("1.2.0");
    expect(r.json.tagCount).toBe(3);
  });

  it("without spec.insecure the registry is asked over HTTPS (and fails here)", async () => {
    const r = await tags([
      "-f",
      "plain.yaml",
      "--registry",
      "--allow-private-hosts",
      "--timeout",
      "2s",
    ]);
    expect(r.code).toBe(2);
    expect(r.err).not.toContain("BLOCKED_HOST");
  });
});
