import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script, without types
import { builtIsCurrent } from "../scripts/kubeimg.mjs";

const isCurrent = builtIsCurrent as (root: string) => boolean;
let root: string;

function file(path: string, seconds: number): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, "");
  utimesSync(full, seconds, seconds);
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("pnpm -s kubeimg's launcher", () => {
  it("runs the built program only when no source it bundles is newer", () => {
    root = mkdtempSync(join(tmpdir(), "kubeimg-launcher-"));
    file("packages/cli/src/cli.ts", 1_000);
    file("packages/policy/src/routing/compile.ts", 1_000);
    expect(isCurrent(root)).toBe(false); // not built
    file("packages/cli/dist/cli.js", 2_000);
    expect(isCurrent(root)).toBe(true);
    file("packages/policy/src/routing/compile.test.ts", 3_000); // tests are not bundled
    expect(isCurrent(root)).toBe(true);
    file("packages/policy/src/routing/compile.ts", 3_000);
    expect(isCurrent(root)).toBe(false); // an edit since the build
  });
});
