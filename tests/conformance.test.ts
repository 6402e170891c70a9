/**
 * Runs every conformance suite that has a handler over the project's copy of
 * the vectors. A suite passes only when every one of its vectors does.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  defaultConformanceDir,
  formatReports,
  handledSuites,
  readVectors,
  runConformance,
} from "../scripts/conformance/runner.js";

function countVectors(suite: string): number {
  const dir = join(defaultConformanceDir, suite);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .reduce((n, f) => n + readVectors(join(dir, f)).length, 0);
}

describe("conformance", () => {
  const suites = handledSuites();

  it("has a handler for at least one suite", () => {
    expect(suites.length).toBeGreaterThan(0);
    expect(suites).toContain("reference");
  });

  it.each(suites)("%s: every public vector passes", async (suite) => {
    const [report] = await runConformance({ suites: [suite] });
    expect(report, formatReports(report ? [report] : [])).toBeDefined();
    if (!report) return;
    expect(report.problem).toBeUndefined();
    expect(report.failed, formatReports([report])).toBe(0);
    expect(report.passed).toBe(countVectors(suite));
  });
});
