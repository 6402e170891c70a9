/**
 * The API site (`pnpm docs`) documents every public subpath: each package's
 * `typedoc.json` lists exactly the `@kubeimg/source` files of its `exports`
 * map, except the internal subpaths (`@kubeimg/core/internal`,
 * `@kubeimg/policy/internal` and its per-product parts), which make no
 * stability promise and are not documented.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

const published = ["cli", "core", "policy", "redis", "registry"];
const undocumented = new Set([
  "@kubeimg/core/internal",
  "@kubeimg/policy/internal",
  "@kubeimg/policy/internal/availability",
  "@kubeimg/policy/internal/objects",
  "@kubeimg/policy/internal/releases",
  "@kubeimg/policy/internal/tags",
]);

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(repoRoot, file), "utf8")) as Record<string, unknown>;
}

describe("API site entry points", () => {
  it.each(published)("packages/%s: typedoc documents every public subpath", (dir) => {
    const manifest = readJson(`packages/${dir}/package.json`) as {
      name: string;
      exports: Record<string, string | { "@kubeimg/source"?: string }>;
    };
    const expected: string[] = [];
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === "string" || target["@kubeimg/source"] === undefined) continue;
      const name = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      if (!undocumented.has(name)) expected.push(target["@kubeimg/source"]);
    }
    const { entryPoints } = readJson(`packages/${dir}/typedoc.json`) as { entryPoints: string[] };
    expect([...entryPoints].sort()).toEqual(expected.sort());
  });

  it("the root typedoc configuration leaves entry points to each package", () => {
    const root = readJson("typedoc.json") as { packageOptions: Record<string, unknown> };
    expect(root.packageOptions.entryPoints).toBeUndefined();
  });
});
