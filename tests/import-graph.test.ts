/**
 * What importing one public subpath loads, read from the static imports of
 * the chunks the packages build into (esbuild with code splitting and every
 * dependency external, as the package build does). A cold process pays for
 * every module in that closure: zod, its locales and yaml load on first use
 * (never at import), the error base at `@kubeimg/core`'s root loads nothing
 * at all, and no subpath carries another product's modules.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

const packages = ["core", "policy", "registry", "redis"] as const;

interface Built {
  /** Output file of each subpath, e.g. `@kubeimg/policy/routing` → `out/routing/index.js`. */
  entries: Map<string, string>;
  outputs: Metafile["outputs"];
  inputs: Metafile["inputs"];
}

const built = new Map<string, Built>();

async function buildPackage(name: string): Promise<Built> {
  const dir = join(repoRoot, "packages", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    exports: Record<string, string | { "@kubeimg/source"?: string }>;
  };
  const sources = new Map<string, string>();
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string" || target["@kubeimg/source"] === undefined) continue;
    sources.set(`@kubeimg/${name}${key.slice(1)}`, target["@kubeimg/source"]);
  }
  const result = await build({
    absWorkingDir: dir,
    entryPoints: [...sources.values()],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    // `#zod` and `#yaml` resolve to their sources' Node variants, as in Node.
    conditions: ["@kubeimg/source"],
    packages: "external",
    outdir: "out",
    outbase: "src",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const entries = new Map<string, string>();
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    for (const [subpath, source] of sources) {
      if (meta.entryPoint === source.replace(/^\.\//, "")) entries.set(subpath, output);
    }
  }
  return { entries, outputs: result.metafile.outputs, inputs: result.metafile.inputs };
}

/** The bare packages and the source files a fresh `import(subpath)` loads. */
function closure(subpath: string): { externals: Set<string>; sources: Set<string> } {
  const externals = new Set<string>();
  const sources = new Set<string>();
  const seen = new Set<string>();
  const visit = (pkgName: string, output: string): void => {
    const key = `${pkgName}:${output}`;
    if (seen.has(key)) return;
    seen.add(key);
    const pkg = built.get(pkgName);
    const meta = pkg?.outputs[output];
    if (pkg === undefined || meta === undefined) throw new Error(`no output ${key}`);
    for (const input of Object.keys(meta.inputs)) sources.add(`${pkgName}/${input}`);
    for (const imported of meta.imports) {
      if (imported.kind !== "import-statement") continue;
      if (!imported.external) {
        visit(pkgName, imported.path);
        continue;
      }
      const own = /^@kubeimg\/([^/]+)/.exec(imported.path);
      if (own?.[1] !== undefined && built.has(own[1])) {
        const target = built.get(own[1])?.entries.get(imported.path);
        if (target === undefined) throw new Error(`no subpath ${imported.path}`);
        externals.add(imported.path);
        visit(own[1], target);
      } else {
        externals.add(imported.path);
      }
    }
  };
  const pkgName = /^@kubeimg\/([^/]+)/.exec(subpath)?.[1] ?? "";
  const output = built.get(pkgName)?.entries.get(subpath);
  if (output === undefined) throw new Error(`no subpath ${subpath}`);
  visit(pkgName, output);
  return { externals, sources };
}

/**
 * Each subpath's static import graph: the bare packages it imports (own
 * subpaths included) and the source folders (`package/folder`) its chunks
 * hold. Products of `@kubeimg/policy` reach each other only as designed:
 * routing builds on the availability gate, node-mirrors on routing's entry;
 * `objects` and `semver` are bases below them.
 */
const held: Record<string, { externals: string[]; folders: string[] }> = {
  "@kubeimg/core": { externals: [], folders: ["core/errors", "core/index.ts"] },
  "@kubeimg/core/reference": {
    externals: [],
    folders: ["core/digest", "core/errors", "core/internal", "core/reference"],
  },
  "@kubeimg/core/digest": {
    externals: [],
    folders: ["core/digest", "core/errors", "core/internal"],
  },
  "@kubeimg/core/regexp": { externals: [], folders: ["core/errors", "core/regexp"] },
  "@kubeimg/core/keyring": {
    externals: ["node:module"],
    folders: ["core/deferred", "core/errors", "core/internal", "core/keyring", "core/reference"],
  },
  "@kubeimg/core/platform": {
    externals: [],
    folders: ["core/errors", "core/internal", "core/platform", "core/reference"],
  },
  "@kubeimg/core/ports": { externals: [], folders: ["core/ports"] },
  "@kubeimg/core/internal": { externals: [], folders: ["core/internal", "core/reference"] },
  "@kubeimg/policy/pull-credentials/fs": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "node:crypto",
      "node:fs",
      "node:fs/promises",
      "node:module",
      "node:path",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "policy/deferred",
      "policy/objects",
      "policy/pull-credentials",
    ],
  },
  "@kubeimg/policy/internal/availability": {
    externals: [],
    folders: ["policy/availability", "policy/internal"],
  },
  "@kubeimg/policy/internal/objects": {
    externals: [],
    folders: ["policy/internal", "policy/objects"],
  },
  "@kubeimg/policy/internal/releases": {
    externals: ["@kubeimg/core"],
    folders: [
      "core/errors",
      "core/index.ts",
      "policy/internal",
      "policy/node-mirrors",
      "policy/pull-credentials",
      "policy/semver",
    ],
  },
  "@kubeimg/policy/internal/tags": {
    externals: [],
    folders: ["policy/internal", "policy/tags"],
  },
  "@kubeimg/policy/node-mirrors": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/digest",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "@kubeimg/core/regexp",
      "node:module",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/availability",
      "policy/deferred",
      "policy/node-mirrors",
      "policy/objects",
      "policy/routing",
    ],
  },
  "@kubeimg/policy/node-mirrors/fs": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/digest",
      "@kubeimg/core/internal",
      "node:fs",
      "node:fs/promises",
      "node:path",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "policy/node-mirrors",
    ],
  },
  "@kubeimg/policy/objects": {
    externals: ["node:module"],
    folders: ["policy/deferred", "policy/objects"],
  },
  "@kubeimg/policy/availability": {
    externals: ["@kubeimg/core/platform", "@kubeimg/core/reference"],
    folders: [
      "core/digest",
      "core/errors",
      "core/internal",
      "core/platform",
      "core/reference",
      "policy/availability",
    ],
  },
  "@kubeimg/policy/internal": {
    externals: ["@kubeimg/core", "@kubeimg/core/digest", "@kubeimg/core/internal", "node:module"],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "policy/availability",
      "policy/deferred",
      "policy/internal",
      "policy/node-mirrors",
      "policy/objects",
      "policy/pull-credentials",
      "policy/routing",
      "policy/tags",
    ],
  },
  "@kubeimg/policy/semver": {
    externals: ["@kubeimg/core", "@kubeimg/core/internal"],
    folders: ["core/errors", "core/index.ts", "core/internal", "core/reference", "policy/semver"],
  },
  "@kubeimg/policy/tags": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "@kubeimg/core/regexp",
      "node:module",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/deferred",
      "policy/objects",
      "policy/semver",
      "policy/tags",
    ],
  },
  "@kubeimg/policy/tags/argocd": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "@kubeimg/core/regexp",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/objects",
      "policy/semver",
      "policy/tags",
    ],
  },
  "@kubeimg/policy/tags/kargo": {
    externals: ["@kubeimg/core", "@kubeimg/core/internal", "@kubeimg/core/regexp"],
    folders: [
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/objects",
      "policy/semver",
      "policy/tags",
    ],
  },
  "@kubeimg/policy/tags/dialects": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "@kubeimg/core/regexp",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/objects",
      "policy/semver",
      "policy/tags",
    ],
  },
  "@kubeimg/policy/tags/yaml": {
    externals: ["@kubeimg/core", "@kubeimg/core/internal", "@kubeimg/core/regexp", "node:module"],
    folders: [
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/deferred",
      "policy/objects",
      "policy/semver",
      "policy/tags",
    ],
  },
  "@kubeimg/policy/routing": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "@kubeimg/core/regexp",
      "node:module",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/availability",
      "policy/deferred",
      "policy/objects",
      "policy/routing",
    ],
  },
  "@kubeimg/policy/routing/yaml": {
    externals: ["@kubeimg/core", "@kubeimg/core/internal", "@kubeimg/core/regexp", "node:module"],
    folders: [
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "core/regexp",
      "policy/deferred",
      "policy/objects",
      "policy/routing",
    ],
  },
  "@kubeimg/policy/pull-credentials": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/internal",
      "@kubeimg/core/reference",
      "node:module",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "policy/deferred",
      "policy/objects",
      "policy/pull-credentials",
    ],
  },
  "@kubeimg/registry/client": {
    externals: ["@kubeimg/core", "@kubeimg/core/digest", "@kubeimg/core/reference", "fetch-retry"],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/reference",
      "registry/client",
      "registry/errors",
      "registry/http",
      "registry/image",
    ],
  },
  "@kubeimg/registry/adapters": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/digest",
      "@kubeimg/core/keyring",
      "@kubeimg/core/platform",
      "@kubeimg/core/reference",
      "node:module",
    ],
    folders: [
      "core/deferred",
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/keyring",
      "core/platform",
      "core/reference",
      "registry/adapters",
      "registry/client",
      "registry/errors",
      "registry/image",
      "registry/platform",
    ],
  },
  "@kubeimg/registry/platform": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/digest",
      "@kubeimg/core/platform",
      "@kubeimg/core/reference",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/platform",
      "core/reference",
      "registry/errors",
      "registry/image",
      "registry/platform",
    ],
  },
  "@kubeimg/redis": {
    externals: [
      "@kubeimg/core",
      "@kubeimg/core/platform",
      "@kubeimg/core/reference",
      "@kubeimg/policy/availability",
      "@kubeimg/policy/internal/availability",
      "node:crypto",
      "node:module",
    ],
    folders: [
      "core/digest",
      "core/errors",
      "core/index.ts",
      "core/internal",
      "core/platform",
      "core/reference",
      "policy/availability",
      "policy/internal",
      "redis/deferred",
      "redis/errors.ts",
      "redis/index.ts",
      "redis/keys.ts",
      "redis/readiness.ts",
      "redis/redis-state.ts",
      "redis/scripts.ts",
      "redis/sender.ts",
      "redis/state-options.ts",
      "redis/values.ts",
    ],
  },
};

/** The source folders (`package/folder`, or `package/file` at `src/`'s top) of a closure. */
function folders(sources: Set<string>): string[] {
  return [
    ...new Set([...sources].map((s) => s.replace(/^([\w-]+)\/src\/([^/]+).*$/, "$1/$2"))),
  ].sort();
}

beforeAll(async () => {
  for (const name of packages) built.set(name, await buildPackage(name));
});

describe("import graph of the built subpaths", () => {
  it("finds every subpath's entry chunk", () => {
    expect(built.get("policy")?.entries.has("@kubeimg/policy/node-mirrors")).toBe(true);
    expect(built.get("core")?.entries.has("@kubeimg/core")).toBe(true);
  });

  it("@kubeimg/core's root (errors and guards) imports nothing", () => {
    expect([...closure("@kubeimg/core").externals]).toEqual([]);
  });

  it("holds each subpath's static import graph", () => {
    const found: Record<string, { externals: string[]; folders: string[] }> = {};
    for (const pkg of built.values()) {
      for (const subpath of pkg.entries.keys()) {
        const { externals, sources } = closure(subpath);
        found[subpath] = { externals: [...externals].sort(), folders: folders(sources) };
      }
    }
    expect(found).toEqual(held);
  });

  it("@kubeimg/redis loads the Redis client when a sender is created, not at import", () => {
    expect([...closure("@kubeimg/redis").externals].filter((e) => e.startsWith("@redis/"))).toEqual(
      [],
    );
    expect(closure("@kubeimg/redis").sources.has("redis/src/deferred/redis-client-node.ts")).toBe(
      true,
    );
  });

  it("no subpath loads zod, its locales or yaml at import", () => {
    const offenders: string[] = [];
    for (const pkg of built.values()) {
      for (const subpath of pkg.entries.keys()) {
        const eager = [...closure(subpath).externals].filter((e) => /^(zod|yaml)(\/|$)/.test(e));
        if (eager.length > 0) offenders.push(`${subpath}: ${eager.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("only the …/yaml subpaths reach the YAML reader: @kubeimg/policy/tags/yaml does, tags does not", () => {
    const yamlReader = ["policy/src/deferred/yaml-node.ts", "policy/src/objects/yaml-documents.ts"];
    const reaches = (subpath: string) =>
      yamlReader.filter((file) => closure(subpath).sources.has(file));
    expect(reaches("@kubeimg/policy/tags/yaml")).toEqual(yamlReader);
    expect(reaches("@kubeimg/policy/routing/yaml")).toEqual(yamlReader);
    for (const subpath of [
      "@kubeimg/policy/tags",
      "@kubeimg/policy/tags/argocd",
      "@kubeimg/policy/tags/kargo",
      "@kubeimg/policy/tags/dialects",
      "@kubeimg/policy/routing",
    ]) {
      expect({ subpath, reaches: reaches(subpath) }).toEqual({ subpath, reaches: [] });
    }
  });

  it("@kubeimg/policy/node-mirrors imports routing only through its public entry", () => {
    const inputs = built.get("policy")?.inputs ?? {};
    const reached: string[] = [];
    for (const [file, meta] of Object.entries(inputs)) {
      if (!file.startsWith("src/node-mirrors/")) continue;
      for (const imported of meta.imports) {
        if (imported.path.startsWith("src/routing/")) reached.push(imported.path);
      }
    }
    expect(reached.length).toBeGreaterThan(0);
    expect([...new Set(reached)]).toEqual(["src/routing/index.ts"]);
  });
});

/**
 * The `@kubeimg/cli` library entry, built as its package build does (every
 * dependency bundled, split at dynamic imports): importing it for `runCli`,
 * `runPolicyTests` or the types loads the command line's frame, and each
 * command's code and the policy-test engine only when a run needs them.
 */
describe("import graph of @kubeimg/cli", () => {
  let sources: Set<string>;

  beforeAll(async () => {
    const result = await build({
      absWorkingDir: join(repoRoot, "packages", "cli"),
      entryPoints: { index: "./src/index.ts" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      conditions: ["@kubeimg/source", "@kubeimg/bundle"],
      outdir: "out",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((o) => outputs[o]?.entryPoint === "src/index.ts");
    sources = new Set();
    const seen = new Set<string>();
    const visit = (output: string): void => {
      if (seen.has(output)) return;
      seen.add(output);
      const meta = outputs[output];
      if (meta === undefined) throw new Error(`no output ${output}`);
      for (const [input, { bytesInOutput }] of Object.entries(meta.inputs)) {
        if (bytesInOutput > 0) sources.add(input);
      }
      for (const imported of meta.imports) {
        if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
      }
    };
    if (entry === undefined) throw new Error("no entry chunk for src/index.ts");
    visit(entry);
  });

  it("loads no command and no policy-test engine at import", () => {
    const loaded = [...sources];
    expect(loaded.filter((s) => /^src\/commands\/(?!all-commands|command\.ts)/.test(s))).toEqual(
      [],
    );
    expect(
      loaded.filter((s) => /^src\/policy-tests\/(engine|environment|evaluate)/.test(s)),
    ).toEqual([]);
    expect(
      loaded.filter((s) =>
        /\/(yaml|zod)@|\/policy\/src\/(routing|tags|node-mirrors|pull-credentials)\/(?!releases\.ts)/.test(
          s,
        ),
      ),
    ).toEqual([]);
  });

  it("still holds the frame: the command table, argument parsing and the policy-test runner", () => {
    for (const frame of [
      "src/commands/all-commands.ts",
      "src/args/parse-command-args.ts",
      "src/policy-tests/run.ts",
    ]) {
      expect(sources.has(frame)).toBe(true);
    }
  });
});
