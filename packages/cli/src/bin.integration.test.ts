import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("bin/kubeimg.js before a build", () => {
  it("says in one line to build first, exit 2, no stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubeimg-bin-"));
    try {
      // A copy of the package's bin without dist/, as in a fresh checkout.
      cpSync(fileURLToPath(new URL("../bin", import.meta.url)), join(dir, "bin"), {
        recursive: true,
      });
      cpSync(fileURLToPath(new URL("../package.json", import.meta.url)), join(dir, "package.json"));
      const run = spawnSync(process.execPath, [join(dir, "bin", "kubeimg.js"), "parse", "nginx"], {
        encoding: "utf8",
      });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        "kubeimg: the program is not built yet: run `pnpm build` first (or `pnpm -s kubeimg …` from the checkout, which runs the sources)\n",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
