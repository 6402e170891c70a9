/**
 * `pnpm check:packages`: builds every package, packs it as a user would get
 * it, runs publint and attw (every resolution profile: node10, node16 CJS
 * and ESM, bundler) on each tarball, then the consumer check
 * (scripts/check-consumer.ts) on all of them together.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkConsumer } from "./check-consumer.js";
import { repoRoot } from "./conformance/runner.js";

const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);
const packagesDir = join(repoRoot, "packages");
// Private workspace packages (the test kit) are never packed or published.
const packages = readdirSync(packagesDir)
  .filter(
    (name) => !JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")).private,
  )
  .sort();
const out = mkdtempSync(join(tmpdir(), "kubeimg-pack-"));
const failedPackages = new Set<string>();
const tarballs: string[] = [];
let consumerFailures: string[] = [];

try {
  execFileSync("pnpm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  for (const name of packages) {
    const dir = join(packagesDir, name);
    const before = new Set(readdirSync(out));
    execFileSync("pnpm", ["pack", "--pack-destination", out], { cwd: dir, stdio: "ignore" });
    const tarball = readdirSync(out).find((f) => !before.has(f));
    if (!tarball) throw new Error(`pnpm pack wrote nothing for ${name}`);
    const path = join(out, tarball);
    for (const [tool, args] of [
      [bin("publint"), ["run", path, "--strict"]],
      [bin("attw"), [path]],
    ] as const) {
      const result = spawnSync(tool, args, { stdio: "inherit" });
      if (result.status !== 0) {
        console.error(`✗ ${name}: ${tool.split("/").pop()} failed`);
        failedPackages.add(name);
      }
    }
    console.log(`checked ${tarball}`);
    tarballs.push(path);
  }
  consumerFailures = await checkConsumer(tarballs);
  for (const failure of consumerFailures) console.error(`✗ consumer: ${failure}`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
const failed = failedPackages.size;
console.log(
  `check:packages: ${packages.length - failed} passed, ${failed} failed; consumer check: ${consumerFailures.length} failures`,
);
process.exitCode = failed === 0 && consumerFailures.length === 0 ? 0 : 1;
