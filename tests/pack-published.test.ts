import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = (dir: string) =>
  JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as {
    name: string;
    private?: boolean;
  };

describe("pnpm pack:published (pnpm -r pack also packs private workspace packages)", () => {
  it("selects exactly the published packages: none private, none left out", () => {
    const script = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts["pack:published"] as string;
    expect(script).toContain('--filter "./packages/*"');
    const excluded = [...script.matchAll(/--filter "!([^"]+)"/g)].map((m) => m[1]);
    const packages = readdirSync(join(root, "packages")).map(manifest);
    const selected = packages.filter((p) => !excluded.includes(p.name));
    expect(selected.filter((p) => p.private === true).map((p) => p.name)).toEqual([]);
    expect(packages.filter((p) => p.private !== true).length).toBe(selected.length);
  });
});
