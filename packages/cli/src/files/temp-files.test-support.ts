/**
 * Temporary directories of input files for the CLI tests.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temporary directory holding the given files; `remove()` deletes it. */
export interface TempFiles {
  readonly dir: string;
  path(name: string): string;
  remove(): void;
}

/** Writes `files` (name → content) into a new temporary directory. */
export function tempFiles(files: Readonly<Record<string, string>>): TempFiles {
  const dir = mkdtempSync(join(tmpdir(), "kubeimg-cli-test-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return {
    dir,
    path: (name) => join(dir, name),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
