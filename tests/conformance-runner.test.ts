/** The runner's own contract: it never skips a vector silently. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectOrError } from "../scripts/conformance/compare.js";
import { allPassed, formatReports, runConformance } from "../scripts/conformance/runner.js";
import type { SuiteHandler } from "../scripts/conformance/types.js";

const upper: SuiteHandler = {
  run: (vector) =>
    expectOrError(vector, () => {
      const input = vector.input as string;
      if (input === "") throw Object.assign(new Error("empty"), { code: "EMPTY" });
      return input.toUpperCase();
    }),
};

describe("runConformance", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "kubeimg-conformance-"));
    mkdirSync(join(dir, "upper"));
    writeFileSync(
      join(dir, "upper", "vectors.jsonl"),
      [
        JSON.stringify({ comment: "a note, not a vector" }),
        JSON.stringify({ id: "u-1", input: "ab", expect: "AB" }),
        JSON.stringify({ id: "u-2", input: "", error: "EMPTY" }),
        JSON.stringify({ id: "u-3", input: "x", expect: "y" }),
        "",
      ].join("\n"),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("counts passes and reports each failure with expected and got", async () => {
    const reports = await runConformance({ dir, handlers: { upper } });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ suite: "upper", passed: 2, failed: 1 });
    expect(reports[0]?.failures[0]).toMatchObject({ id: "u-3", expected: { expect: "y" } });
    const text = formatReports(reports);
    expect(text.split("\n")[0]).toBe("upper: 2 passed, 1 failed");
    expect(text).toContain("FAIL upper u-3");
    expect(allPassed(reports)).toBe(false);
  });

  it("refuses a suite folder it has no handler for", async () => {
    mkdirSync(join(dir, "mystery"));
    writeFileSync(join(dir, "mystery", "v.jsonl"), `${JSON.stringify({ id: "m-1" })}\n`);
    const reports = await runConformance({ dir, handlers: { upper } });
    const mystery = reports.find((r) => r.suite === "mystery");
    expect(mystery?.problem).toMatch(/no handler/);
    expect(allPassed(reports)).toBe(false);
  });

  it("refuses a named suite whose folder is missing", async () => {
    const reports = await runConformance({ dir, suites: ["absent"], handlers: { upper } });
    expect(reports[0]?.problem).toMatch(/missing/);
    expect(allPassed(reports)).toBe(false);
  });

  it("treats an exception without a code as a failure, not as an error code", async () => {
    const throwing: SuiteHandler = {
      run: (vector) =>
        expectOrError(vector, () => {
          throw new TypeError("boom");
        }),
    };
    const reports = await runConformance({ dir, suites: ["upper"], handlers: { upper: throwing } });
    expect(reports[0]?.passed).toBe(0);
    expect(reports[0]?.failed).toBe(3);
  });
});
