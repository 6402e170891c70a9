/**
 * What the pure policy subpaths pull into a browser bundle (esbuild,
 * minified, platform browser, from source): never zod's classic API (about
 * 95 KB minified; the schemas use `zod/mini`), no YAML parser in
 * `@kubeimg/policy/routing` or `@kubeimg/policy/tags` (text loading lives in
 * `@kubeimg/policy/routing/yaml`), and no schema at all for an application
 * that imports no parsing function (the schemas are constants that bundlers
 * drop when unused). The sizes themselves are held on the packed tarballs by
 * `scripts/check-consumer.ts`.
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

/** The node_modules packages (`zod/v4/classic`, `yaml`) that put code in a bundle of `source`. */
async function bundledPackages(source: string): Promise<string[]> {
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
  const names = new Set<string>();
  const [output] = Object.values(result.metafile.outputs);
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
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

  it("@kubeimg/policy/routing/yaml holds the YAML parser", async () => {
    const packages = await bundledPackages(`export * from "@kubeimg/policy/routing/yaml";`);
    expect(packages).toContain("yaml");
  });

  it("a page that selects tags without parsing objects carries no zod", async () => {
    const packages = await bundledPackages(
      `export { selectLatestTag } from "@kubeimg/policy/tags";`,
    );
    expect(packages.filter((p) => p.startsWith("zod"))).toEqual([]);
  });
});
