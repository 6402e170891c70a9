/**
 * The project keeps its own copy of the public vectors so that a clone
 * tests itself. When the shared upstream folders sit beside this checkout,
 * each suite of the copy must be byte-for-byte the same as that suite in
 * either `../shared/conformance/` or `../shared/conformance-next/` (a suite
 * is born in `conformance-next/` and may later move to `conformance/`).
 * Every suite of `../shared/conformance/` must be in the copy; a suite of
 * `conformance-next/` that the project has not implemented yet is not.
 * Upstream kubelet files under `pullmanager/ondisk/` are never copied.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConformanceDir, sharedConformanceDir } from "../scripts/conformance/runner.js";

const sharedNextDir = resolve(sharedConformanceDir, "..", "conformance-next");

function listVectorFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) {
        if (full.endsWith(join("pullmanager", "ondisk"))) continue;
        walk(full);
      } else if (/\.(jsonl|md)$/.test(name)) {
        out.push(relative(dir, full));
      }
    }
  };
  walk(dir);
  return out.sort();
}

function suitesOf(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

/** Whether `suite` in our copy holds exactly the files of `suite` under `root`. */
function sameSuite(suite: string, root: string): boolean {
  const theirDir = join(root, suite);
  if (!existsSync(theirDir)) return false;
  const ours = listVectorFiles(join(defaultConformanceDir, suite));
  const theirs = listVectorFiles(theirDir);
  if (ours.length !== theirs.length || ours.some((f, i) => f !== theirs[i])) return false;
  return theirs.every((file) =>
    readFileSync(join(defaultConformanceDir, suite, file)).equals(
      readFileSync(join(theirDir, file)),
    ),
  );
}

describe("the project's copy of the conformance vectors", () => {
  it("holds vectors and the format of every suite", () => {
    const files = listVectorFiles(defaultConformanceDir);
    expect(files).toContain("README.md");
    for (const suite of suitesOf(defaultConformanceDir)) {
      expect(files, `${suite} has no FORMAT.md`).toContain(join(suite, "FORMAT.md"));
    }
    expect(suitesOf(defaultConformanceDir).length).toBeGreaterThanOrEqual(7);
  });

  it.runIf(existsSync(sharedConformanceDir))(
    "has every suite of ../shared/conformance, and its README",
    () => {
      expect(suitesOf(defaultConformanceDir)).toEqual(
        expect.arrayContaining(suitesOf(sharedConformanceDir)),
      );
      const readme = (dir: string) => readFileSync(join(dir, "README.md"));
      expect(readme(defaultConformanceDir).equals(readme(sharedConformanceDir))).toBe(true);
    },
  );

  it.runIf(existsSync(sharedConformanceDir))(
    "holds each suite exactly as ../shared/conformance or ../shared/conformance-next has it",
    () => {
      for (const suite of suitesOf(defaultConformanceDir)) {
        const matches = sameSuite(suite, sharedConformanceDir) || sameSuite(suite, sharedNextDir);
        expect(
          matches,
          `conformance/${suite} differs from the shared copies (or is in neither)`,
        ).toBe(true);
      }
    },
  );
});
