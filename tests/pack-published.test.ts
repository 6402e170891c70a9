import { spawnSync } from "node:child_process";
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

describe("a private workspace package refuses to be packed", () => {
  const privateDirs = ["packages", "examples"].flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(root, parent, e.name, "package.json"))
      .filter((file) => {
        try {
          return (JSON.parse(readFileSync(file, "utf8")) as { private?: boolean }).private === true;
        } catch {
          return false;
        }
      }),
  );

  it("every one has the refusing prepack script", () => {
    expect(privateDirs.length).toBeGreaterThan(0);
    for (const file of privateDirs) {
      const { scripts } = JSON.parse(readFileSync(file, "utf8")) as {
        scripts?: Record<string, string>;
      };
      expect({ file, prepack: scripts?.prepack }).toEqual({
        file,
        prepack: "node ../../scripts/private-pack.mjs",
      });
    }
  });

  it("the script fails, naming the package and pnpm pack:published", () => {
    const run = spawnSync(process.execPath, [join(root, "scripts", "private-pack.mjs")], {
      encoding: "utf8",
      env: { ...process.env, npm_package_name: "@kubeimg/testkit" },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("@kubeimg/testkit is private");
    expect(run.stderr).toContain("`pnpm pack:published`");
  });
});
