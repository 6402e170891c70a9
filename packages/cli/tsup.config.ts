/**
 * Two builds. The library entry (`@kubeimg/cli`: `runCli`) follows the shared
 * package build. The program (`dist/cli.js`, started by `bin/kubeimg.js`) is
 * one self-contained ES module: every dependency, the kubeimg packages
 * included (read from source), is bundled, so the installed command starts
 * without resolving a tree of packages and needs no other build first.
 */
import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";
import { packageBuild } from "../../scripts/tsup-package.js";

/**
 * Bundle everything except Node's built-ins, reading workspace packages from
 * source. `@kubeimg/bundle` picks the static variants of `#zod` and `#yaml`:
 * their Node variants load zod and yaml from `node_modules` at run time,
 * which the self-contained program does not have.
 */
const selfContained: Options = {
  noExternal: [/.*/],
  esbuildOptions(options) {
    options.conditions = ["@kubeimg/source", "@kubeimg/bundle"];
  },
};

/**
 * CommonJS dependencies (yaml) bundled into an ES module call `require` for
 * Node's built-ins; esbuild's shim throws "Dynamic require of … is not
 * supported" unless a real `require` is in scope. The CommonJS build has one.
 */
const esmRequireBanner = {
  js: 'import { createRequire as __kubeimgCreateRequire } from "node:module"; const require = __kubeimgCreateRequire(import.meta.url);',
};

/**
 * The options that build the `kubeimg` program into `outDir`; the tests use
 * them to build the binary they run.
 */
export function programBuild(outDir: string): Options {
  return {
    entry: { cli: fileURLToPath(new URL("./src/cli.ts", import.meta.url)) },
    format: ["esm"],
    platform: "node",
    removeNodeProtocol: false,
    target: "node20",
    outDir,
    clean: false,
    sourcemap: false,
    splitting: false,
    treeshake: true,
    banner: esmRequireBanner,
    ...selfContained,
  };
}

export default defineConfig([
  {
    ...packageBuild(new URL("./package.json", import.meta.url)),
    ...selfContained,
    banner: (ctx) => (ctx.format === "esm" ? esmRequireBanner : {}),
    // Everything is bundled: maps of the bundled packages would be most of the
    // tarball (3.7 MB); the packages they come from ship their own.
    sourcemap: false,
    // Both builds share `dist/`; the library build must not delete the program.
    clean: ["!cli.js"],
  },
  programBuild("dist"),
]);
