/**
 * The project keeps its own copy of the public vectors so that a clone
 * tests itself. When the shared upstream folder sits beside this checkout,
 * the copy must be byte-for-byte the same (upstream kubelet files under
 * `pullmanager/ondisk/` are never copied).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConformanceDir, sharedConformanceDir } from "../scripts/conformance/runner.js";

function listVectorFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) {
        if (relative(dir, full) === join("pullmanager", "ondisk")) continue;
        walk(full);
      } else if (/\.(jsonl|md)$/.test(name)) {
        out.push(relative(dir, full));
      }
    }
  };
  walk(dir);
  return out.sort();
}

describe("the project's copy of the conformance vectors", () => {
  it("holds vectors and the format of every suite", () => {
    const files = listVectorFiles(defaultConformanceDir);
    expect(files).toContain("README.md");
    expect(files.filter((f) => f.endsWith("FORMAT.md")).length).toBeGreaterThanOrEqual(7);
  });

  it.runIf(existsSync(sharedConformanceDir))("is identical to ../shared/conformance", () => {
    const ours = listVectorFiles(defaultConformanceDir);
    const theirs = listVectorFiles(sharedConformanceDir);
    expect(ours).toEqual(theirs);
    for (const file of theirs) {
      const a = readFileSync(join(defaultConformanceDir, file));
      const b = readFileSync(join(sharedConformanceDir, file));
      expect(a.equals(b), `${file} differs from the shared copy`).toBe(true);
    }
  });
});
