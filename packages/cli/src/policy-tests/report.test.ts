import { describe, expect, it } from "vitest";
import { colorsFor } from "../output/color.js";
import { renderGithubAnnotations, renderHuman, renderJunit } from "./report.js";
import type { PolicyTestCaseResult, PolicyTestReport } from "./run.js";
import { parseXml } from "./xml.test-support.js";

const hostile = "a <b> & \"c\" 'd' \u0000\u001b[31m\u2028 %0A, x:y";

function report(cases: PolicyTestCaseResult[]): PolicyTestReport {
  const count = (s: string) => cases.filter((c) => c.status === s).length;
  return {
    files: [...new Set(cases.map((c) => c.file))],
    cases,
    passed: count("passed"),
    failed: count("failed"),
    new: count("new"),
    updated: count("updated"),
    skipped: 0,
  };
}

const failing: PolicyTestCaseResult = {
  file: "t,1:x.kubeimg-test.yaml",
  line: 7,
  suite: hostile,
  name: hostile,
  kind: "select",
  status: "failed",
  expected: { tag: hostile },
  actual: { tag: "1.0.0" },
  mismatches: [{ field: "tag", expected: hostile, actual: "1.0.0" }],
  upstream: { semver: "v3.5.0" },
  explain: [`1.0.0 (selected): ${hostile}`],
};
const passing: PolicyTestCaseResult = {
  ...failing,
  name: "ok",
  status: "passed",
  mismatches: [],
  explain: [],
};

describe("renderJunit", () => {
  it("stays well-formed whatever the names hold, and keeps them readable", () => {
    const root = parseXml(renderJunit(report([failing, passing])));
    const [suite] = root.children;
    const [first, second] = suite?.children ?? [];
    // What XML cannot carry becomes U+FFFD; the rest round-trips.
    expect(first?.attributes.name).toBe(
      hostile.replaceAll("\u0000", "\ufffd").replaceAll("\u001b", "\ufffd"),
    );
    expect(first?.attributes.line).toBe("7");
    expect(first?.children[0]?.name).toBe("failure");
    expect(first?.children[0]?.text).toContain("1.0.0 (selected)");
    expect(second?.children).toEqual([]);
    expect(root.attributes).toMatchObject({ tests: "2", failures: "1", errors: "0" });
  });
});

describe("renderGithubAnnotations", () => {
  it("writes one escaped workflow command per failing case, on one line", () => {
    const text = renderGithubAnnotations(report([failing, passing]));
    const lines = text.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^::error file=t%2C1%3Ax\.kubeimg-test\.yaml,line=7,title=kubeimg test%3A /,
    );
    // No raw control character, and the message's own % and line breaks are escaped.
    expect([...(lines[0] ?? "")].filter((ch) => ch < " " || ch === "\u2028")).toEqual([]);
    expect(lines[0]).toContain("%250A");
  });
});

describe("renderHuman", () => {
  it("shows ✓ and ✗, never a raw control character from a file", () => {
    const text = renderHuman(
      report([failing, passing]),
      colorsFor(
        {
          stdout: { write() {} },
          stderr: { write() {} },
          env: {},
          cwd: "/",
          fetch: globalThis.fetch,
        },
        { noColor: true },
      ),
    );
    expect(text).toContain("  ✓ ok\n");
    expect(text).toContain("  ✗ a <b>");
    for (const ch of ["\u0000", "\u001b", "\u2028"]) expect(text).not.toContain(ch);
    expect(text).toContain("1 passed, 1 failed");
  });
});
