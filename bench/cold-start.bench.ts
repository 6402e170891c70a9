/**
 * What loading kubeimg costs a fresh process: for each public subpath of the
 * built packages, the CPU time (user + system, read by the child itself at
 * exit) of `node` importing it, against `node` importing nothing, in
 * alternating rounds. The fraction is (import − bare) ÷ bare; the issue's
 * bound is 25 %.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./lib.js";

const root = join(import.meta.dirname, "..");
const rounds = Number(process.env.KUBEIMG_COLD_ROUNDS ?? 5);

function subpaths(): string[] {
  const out: string[] = [];
  for (const name of ["core", "policy", "registry"]) {
    const pkg = JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (typeof target === "object") out.push(`@kubeimg/${name}${key.slice(1)}`);
    }
  }
  return out;
}

/** CPU milliseconds of one fresh `node` that imports `specifier` (nothing when undefined). */
function cpuMs(specifier: string | undefined): number {
  const load = specifier === undefined ? "" : `await import(${JSON.stringify(specifier)});`;
  const script = `${load}const u=process.cpuUsage();process.stdout.write(String((u.user+u.system)/1000));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${specifier}: ${run.stderr}`);
  return Number(run.stdout);
}

const targets = subpaths();
const samples = new Map<string | undefined, number[]>([[undefined, []]]);
for (const t of targets) samples.set(t, []);
for (let r = 0; r < rounds; r++) {
  for (const t of [undefined, ...targets]) samples.get(t)?.push(cpuMs(t));
}
const bare = median(samples.get(undefined) ?? []);
console.log(`\n### cold start: CPU of a fresh node importing one subpath (${rounds} rounds)\n`);
console.log("| subpath | CPU ms (median) | import ÷ `node -e 0` |");
console.log("| --- | ---: | ---: |");
console.log(`| (nothing: \`node -e 0\`) | ${bare.toFixed(1)} | 0 % |`);
for (const t of targets) {
  const ms = median(samples.get(t) ?? []);
  console.log(`| ${t} | ${ms.toFixed(1)} | ${(((ms - bare) / bare) * 100).toFixed(0)} % |`);
}
