/**
 * Builds the static playground into dist/: the page script and the worker
 * script bundled by esbuild from the packages' public entries, each view's
 * code split into chunks they share, and the HTML. The HTML preloads the
 * Tags view's chunks (the view a fresh page opens on), so the browser
 * fetches and compiles them while it loads the page script.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");

/** The output of `entry` and every chunk it imports statically, as metafile paths. */
function chunksOf(meta: Metafile, entry: string): string[] {
  const outputs = Object.entries(meta.outputs);
  const first = outputs.find(([, o]) => o.entryPoint === entry)?.[0];
  if (first === undefined) throw new Error(`build: no output for ${entry}`);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of meta.outputs[file]?.imports ?? []) {
      if (i.kind === "import-statement") visit(i.path);
    }
  };
  visit(first);
  return [...seen];
}

export async function buildPlayground(): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    entryPoints: { main: join(here, "src/main.ts"), worker: join(here, "src/worker.ts") },
    outdir: out,
    absWorkingDir: here,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: false,
    legalComments: "none",
    metafile: true,
    conditions: ["@kubeimg/source"],
    loader: { ".yaml": "text", ".tags": "text" },
    logLevel: "warning",
  });
  const meta = result.metafile;
  // The metafile's paths are relative to absWorkingDir.
  const preload = chunksOf(meta, "src/compute/tags.ts")
    .map((file) => `<link rel="modulepreload" href="./${relative(out, join(here, file))}">`)
    .join("\n");
  const html = readFileSync(join(here, "src/index.html"), "utf8");
  const marker = '<script type="module" src="./main.js"></script>';
  if (!html.includes(marker)) throw new Error("build: index.html lost its main.js script tag");
  writeFileSync(join(out, "index.html"), html.replace(marker, `${marker}\n${preload}`));
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await buildPlayground();
  console.log(`playground built into ${dir}`);
}
