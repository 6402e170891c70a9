import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../scripts/test-summary.mjs", import.meta.url));

describe("scripts/test-summary.mjs (the last line of pnpm verify)", () => {
  it("reports skipped and todo tests beside passed and failed", () => {
    const dir = mkdtempSync(join(tmpdir(), "kubeimg-summary-"));
    try {
      const file = join(dir, "results.json");
      writeFileSync(
        file,
        JSON.stringify({
          numPassedTests: 10,
          numFailedTests: 1,
          numPendingTests: 3,
          numTodoTests: 2,
        }),
      );
      expect(execFileSync(process.execPath, [script, file], { encoding: "utf8" })).toBe(
        "tests: 10 passed, 1 failed, 5 skipped\n",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
