/**
 * Runs every `<folder>/*.<kind>.ts` program (optionally only those whose
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
  folder: string,
  kind: string,
  filters: readonly string[],
  { built = false, args = [] }: { built?: boolean; args?: readonly string[] } = {},
): number {
  const dir = join(repoRoot, folder);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(`.${kind}.ts`))
    .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
    .sort();
  if (files.length === 0) {
    console.error(`no ${folder}/*.${kind}.ts matches ${filters.join(", ") || "(all)"}`);
    return 1;
  }
  let failed = 0;
  for (const file of files) {
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
