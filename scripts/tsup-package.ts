/**
 * Builds a tsup configuration for one workspace package from its own
 * `package.json`: every subpath export's `@kubeimg/source` file becomes an
 * entry, so the `exports` map is the single list of what a package ships.
 * The variants of each subpath import (`imports`, such as `#zod`) are built
 * as entries too and stay imports in the output, so Node and a consumer's
 * bundler each pick theirs (`node` or `default`) where the package is used.
 */
import { readFileSync } from "node:fs";
import { defineConfig, type Options } from "tsup";

interface ExportEntry {
  "@kubeimg/source"?: string;
}

export function packageBuild(packageJsonUrl: URL): Options {
  const pkg = JSON.parse(readFileSync(packageJsonUrl, "utf8")) as {
    exports: Record<string, ExportEntry | string>;
    imports?: Record<string, { "@kubeimg/source"?: Record<string, string> }>;
  };
  const entry: Record<string, string> = {};
  for (const target of Object.values(pkg.exports)) {
    if (typeof target === "string") continue;
    const source = target["@kubeimg/source"];
    if (source === undefined) continue;
    const name = source.replace(/^\.\/src\//, "").replace(/\.ts$/, "");
    entry[name] = source;
  }
  const imports = pkg.imports ?? {};
  for (const target of Object.values(imports)) {
    for (const source of Object.values(target["@kubeimg/source"] ?? {})) {
      entry[source.replace(/^\.\/src\//, "").replace(/\.ts$/, "")] = source;
    }
  }
  return defineConfig({
    entry,
    format: ["esm", "cjs"],
    dts: true,
    // One copy of each shared module (error classes above all) per format.
    splitting: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
    target: "es2022",
    platform: "node",
    // Keep `node:fs`, not `fs`: Deno and some bundlers need the prefix.
    removeNodeProtocol: false,
    outDir: "dist",
    external: Object.keys(imports),
  }) as Options;
}
