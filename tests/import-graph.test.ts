/**
 * What importing one public subpath loads, read from the static imports of
 * the chunks the packages build into (esbuild with code splitting and every
 * dependency external, as the package build does). A cold process pays for
 * every module in that closure, so zod and its locales belong only to the
 * subpaths that parse with a schema, and the error base at `@kubeimg/core`'s
 * root loads nothing at all.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

const packages = ["core", "policy", "registry"] as const;

interface Built {
  /** Output file of each subpath, e.g. `@kubeimg/policy/routing` → `out/routing/index.js`. */
  entries: Map<string, string>;
  outputs: Metafile["outputs"];
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
  return { entries, outputs: result.metafile.outputs };
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

/** The subpaths whose functions parse with a zod schema. */
const schemaSubpaths = new Set([
  "@kubeimg/core/keyring",
  "@kubeimg/policy/tags",
  "@kubeimg/policy/routing",
  "@kubeimg/policy/routing/yaml",
  "@kubeimg/policy/pull-credentials",
  "@kubeimg/policy/pull-credentials/fs",
  "@kubeimg/policy/objects",
  // Internal: the command's English parse of a Secret and the record codec.
  "@kubeimg/policy/internal",
  "@kubeimg/registry/adapters",
]);

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

  it("zod loads only where a schema is used", () => {
    const offenders: string[] = [];
    for (const [name, pkg] of built) {
      for (const subpath of pkg.entries.keys()) {
        if (schemaSubpaths.has(subpath)) continue;
        const zod = [...closure(subpath).externals].filter((e) => e.startsWith("zod"));
        if (zod.length > 0) offenders.push(`${subpath} (${name}): ${zod.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("@kubeimg/policy/node-mirrors loads none of the routing schemas", () => {
    const sources = [...closure("@kubeimg/policy/node-mirrors").sources];
    expect(sources.filter((s) => /routing\/[a-z-]*schema\.ts$|routing\/load\.ts$/.test(s))).toEqual(
      [],
    );
  });
});
