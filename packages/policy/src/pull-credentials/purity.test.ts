/**
 * The main entry stays pure: outside `fs/` no pull-credentials module imports
 * a Node built-in, and nothing is imported for its side effects. Besides its
 * own files it may import only core, zod, yaml and the package's pure Go
 * string helpers (`../go/`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(here).filter(
  (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".testkit.ts"),
);

describe("@kubeimg/policy/pull-credentials purity", () => {
  it.each(sources)("%s imports no Node built-in and nothing for side effects", (file) => {
    const text = readFileSync(join(here, file), "utf8");
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm)].map(
      (m) => m[1],
    );
    for (const s of specifiers) {
      expect(s, `${file} imports ${s}`).toMatch(
        /^(\.\/|\.\.\/go\/[a-z-]+\.js$|@kubeimg\/core|zod$|yaml$)/,
      );
      expect(s, `${file} reaches into fs/`).not.toMatch(/^\.\/fs\//);
    }
    expect(text).not.toMatch(/^\s*import\s+"[^"]+";/m);
    expect(text).not.toMatch(/\brequire\(/);
  });
});
