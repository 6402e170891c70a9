// `pnpm -s kubeimg …` from the checkout: the built program when it is at
// least as new as every source file it is built from (it starts in a fraction
// of the time), the TypeScript sources through tsx otherwise, so an edit is
// never hidden behind a stale build.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The newest modification time under `dir`, test files left out; 0 when it cannot be read. */
export function newestSource(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!/\.test(-support)?\.ts$/.test(entry.name))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The built program of the checkout at `root`. */
export function builtProgram(root) {
  return join(root, "packages/cli/dist/cli.js");
}

/** True when the built program exists and no source it bundles is newer. */
export function builtIsCurrent(root) {
  let builtAt;
  try {
    builtAt = statSync(builtProgram(root)).mtimeMs;
  } catch {
    return false;
  }
  // The program bundles every workspace package it imports, read from source.
  for (const pkg of ["cli", "core", "policy", "registry"]) {
    if (newestSource(join(root, "packages", pkg, "src")) > builtAt) return false;
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (builtIsCurrent(repoRoot)) {
    await import(pathToFileURL(builtProgram(repoRoot)).href);
  } else {
    const result = spawnSync(
      process.execPath,
      [
        "--conditions=@kubeimg/source",
        "--import",
        import.meta.resolve("tsx"),
        join(repoRoot, "packages/cli/src/cli.ts"),
        ...process.argv.slice(2),
      ],
      { stdio: "inherit" },
    );
    process.exitCode = result.status ?? 1;
  }
}
