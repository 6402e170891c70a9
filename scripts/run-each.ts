/**
 * Runs every `<folder>/*.<kind>.ts` program, for each of `folders`
 * (optionally only those whose
 * name contains one of the filters) one after another, each in its own Node
 * process. Workspace packages resolve from source, or with `built` from
 * their `dist/` builds, as an installed package would; `args` go to every
 * program. Exits non-zero when
 * any program fails or nothing matched.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./conformance/runner.js";

export function runEach(
  folders: string | readonly string[],
  kind: string,
  filters: readonly string[],
  { built = false, args = [] }: { built?: boolean; args?: readonly string[] } = {},
): number {
  const found: [folder: string, file: string][] = [];
  for (const folder of typeof folders === "string" ? [folders] : folders) {
    for (const file of readdirSync(join(repoRoot, folder)).sort()) {
      if (!file.endsWith(`.${kind}.ts`)) continue;
      if (filters.length === 0 || filters.some((name) => file.includes(name))) {
        found.push([folder, file]);
      }
    }
  }
  if (found.length === 0) {
    console.error(`no *.${kind}.ts matches ${filters.join(", ") || "(all)"}`);
    return 1;
  }
  let failed = 0;
  for (const [folder, file] of found) {
    const dir = join(repoRoot, folder);
    console.log(`\n## ${folder}/${file}`);
    const result = spawnSync(
      process.execPath,
      [
        ...(built ? [] : ["--conditions=@kubeimg/source"]),
        "--import",
        "tsx",
        join(dir, file),
        ...args,
      ],
      { stdio: "inherit", cwd: repoRoot },
    );
    if (result.status !== 0) {
      console.error(`${folder}/${file} exited with ${result.status ?? result.signal}`);
      failed++;
    }
  }
  return failed === 0 ? 0 : 1;
}
