/**
 * Builds the static playground into dist/: the page script and the worker
 * script bundled by esbuild from the packages' public entries, and the HTML.
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");

export async function buildPlayground(): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { main: join(here, "src/main.ts"), worker: join(here, "src/worker.ts") },
    outdir: out,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: false,
    legalComments: "none",
    conditions: ["@kubeimg/source"],
    loader: { ".yaml": "text", ".tags": "text" },
    logLevel: "warning",
  });
  copyFileSync(join(here, "src/index.html"), join(out, "index.html"));
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await buildPlayground();
  console.log(`playground built into ${dir}`);
}
