/**
 * What the pure policy subpaths pull into a browser bundle (esbuild,
 * minified, platform browser, from source): never zod's classic API (about
 * 95 KB minified; the schemas use `zod/mini`), no YAML parser in
 * `@kubeimg/policy/routing` or `@kubeimg/policy/tags` (text loading lives in
 * `@kubeimg/policy/routing/yaml` and `@kubeimg/policy/tags/yaml`), and no schema at all for an application
 * that imports no parsing function (the schemas are constants that bundlers
 * drop when unused), and none of the Argo CD and Kargo dialects in
 * `@kubeimg/policy/tags` (each has a subpath of its own, and neither carries
 * the other's engine). The sizes themselves are held on the packed tarballs by
 * `scripts/check-consumer.ts`.
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

async function bundleInputs(source: string): Promise<[string, number][]> {
  const result = await build({
    stdin: { contents: source, resolveDir: repoRoot, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    conditions: ["@kubeimg/source"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output?.inputs ?? {}).map(([input, { bytesInOutput }]) => [
    input,
    bytesInOutput,
  ]);
}

/** The node_modules packages (`zod/v4/classic`, `yaml`) that put code in a bundle of `source`. */
async function bundledPackages(source: string): Promise<string[]> {
  const names = new Set<string>();
  for (const [input, bytesInOutput] of await bundleInputs(source)) {
    if (bytesInOutput === 0) continue;
    const match = /node_modules\/(?!\.pnpm)((?:@[^/]+\/)?[^/]+)(?:\/(v4\/[^/]+))?/.exec(
      input.replace(/.*node_modules\/\.pnpm\/[^/]+\//, ""),
    );
    if (match?.[1]) names.add(match[2] ? `${match[1]}/${match[2]}` : match[1]);
  }
  return [...names].sort();
}

describe("browser bundle contents", () => {
  it.each(["@kubeimg/policy/tags", "@kubeimg/policy/routing"])(
    "%s holds zod/mini but neither zod's classic API nor a YAML parser",
    async (entry) => {
      const packages = await bundledPackages(`export * from "${entry}";`);
      expect(packages).toContain("zod/v4/mini");
      expect(packages).not.toContain("zod/v4/classic");
      expect(packages).not.toContain("yaml");
    },
  );

  it.each(["@kubeimg/policy/routing/yaml", "@kubeimg/policy/tags/yaml"])(
    "%s holds the YAML parser",
    async (entry) => {
      const packages = await bundledPackages(`export * from "${entry}";`);
      expect(packages).toContain("yaml");
    },
  );

  it("a page that selects tags without parsing objects carries no zod", async () => {
    const packages = await bundledPackages(
      `export { selectLatestTag } from "@kubeimg/policy/tags";`,
    );
    expect(packages.filter((p) => p.startsWith("zod"))).toEqual([]);
  });

  it("@kubeimg/policy/tags carries none of the Argo CD and Kargo dialects", async () => {
    const files = await policyTagFiles(`export * from "@kubeimg/policy/tags";`);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => /^(argocd|kargo|dialect)\/|^dialect-objects/.test(f))).toEqual([]);
  });

  it.each([
    ["@kubeimg/policy/tags/argocd", "kargo/"],
    ["@kubeimg/policy/tags/kargo", "argocd/"],
  ])("%s carries none of the other dialect's engine", async (entry, other) => {
    const files = await policyTagFiles(`export * from "${entry}";`);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith(other))).toEqual([]);
  });
});

/** The files under `packages/policy/src/tags/` that put code in a bundle of `source`. */
async function policyTagFiles(source: string): Promise<string[]> {
  const prefix = "packages/policy/src/tags/";
  return (await bundleInputs(source))
    .filter(([input, bytes]) => bytes > 0 && input.startsWith(prefix))
    .map(([input]) => input.slice(prefix.length))
    .sort();
}
