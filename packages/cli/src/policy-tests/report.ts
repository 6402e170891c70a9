/**
 * The outputs of `kubeimg test`: a line per case with the expected and
 * actual values and the trace of a failure, JUnit XML, and GitHub Actions
 * workflow commands pointing at each failing case's line.
 */
import type { Colors } from "../output/color.js";
import { sanitizeLines, sanitizeText } from "../output/sanitize.js";
import type { PolicyTestCaseResult, PolicyTestReport } from "./run.js";

function show(value: unknown): string {
  if (value === undefined || value === null) return "-";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function mismatchLines(c: PolicyTestCaseResult): string[] {
  const rows =
    c.status === "new"
      ? Object.entries(c.actual).map(([field, actual]) => [field, "(no expect)", show(actual)])
      : c.mismatches.map((m) => [m.field, show(m.expected), show(m.actual)]);
  const all = [["", "expected", "actual"], ...rows];
  const w0 = Math.max(...all.map((r) => (r[0] ?? "").length));
  const w1 = Math.max(...all.map((r) => (r[1] ?? "").length));
  return all.map(([f = "", e = "", a = ""]) => `${f.padEnd(w0)}  ${e.padEnd(w1)}  ${a}`.trimEnd());
}

/**
 * Returns the human report: per file, one line per case (✓, ✗, or `+` for
 * a new case), and under each failure the expected and actual values side
 * by side and the decision's trace; then a summary line.
 */
export function renderHuman(report: PolicyTestReport, c: Colors): string {
  const out: string[] = [];
  let file: string | undefined;
  for (const r of report.cases) {
    if (r.file !== file) {
      file = r.file;
      out.push(c.bold(sanitizeText(`${r.file}${r.suite === r.file ? "" : ` (${r.suite})`}`)));
    }
    const name = sanitizeText(r.name);
    if (r.status === "passed") out.push(`  ${c.green("✓")} ${name}`);
    else if (r.status === "updated")
      out.push(`  ${c.green("✓")} ${name} ${c.dim("(expect written)")}`);
    else {
      const mark = r.status === "new" ? c.yellow("+") : c.red("✗");
      const why =
        r.status === "new" ? "no expect (run with --update to record the answer)" : "failed";
      out.push(`  ${mark} ${name}  ${c.dim(`${r.file}:${r.line} ${r.kind}: ${why}`)}`);
      for (const line of mismatchLines(r)) out.push(`      ${sanitizeText(line)}`);
      if (r.explain.length > 0) {
        out.push(`      ${c.dim("why:")}`);
        for (const line of r.explain) out.push(`        ${c.dim(sanitizeText(line))}`);
      }
    }
  }
  out.push(summaryLine(report));
  return `${out.join("\n")}\n`;
}

/** Returns `3 passed, 1 failed, …` for a report. */
export function summaryLine(report: PolicyTestReport): string {
  const parts = [`${report.passed} passed`, `${report.failed} failed`];
  if (report.new > 0) parts.push(`${report.new} without expect`);
  if (report.updated > 0) parts.push(`${report.updated} written`);
  if (report.skipped > 0) parts.push(`${report.skipped} not matching --run`);
  const files = report.files.length;
  return `${parts.join(", ")} (${report.cases.length} case${report.cases.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"})`;
}

// XML 1.0 has no way to carry these, even as character references.
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

function xml(text: string): string {
  return text
    .replace(NOT_XML, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function failureText(r: PolicyTestCaseResult): string {
  return [
    ...mismatchLines(r),
    ...(r.explain.length > 0 ? ["why:", ...r.explain.map((l) => `  ${l}`)] : []),
  ].join("\n");
}

/**
 * Returns the report as JUnit XML: a `testsuite` per test file, a
 * `testcase` per case (`classname` the suite, `file` and `line` its place),
 * a `failure` for a failing or new case.
 */
export function renderJunit(report: PolicyTestReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = report.failed + report.new;
  out.push(
    `<testsuites name="kubeimg test" tests="${report.cases.length}" failures="${failures}" errors="0">`,
  );
  for (const file of report.files) {
    const cases = report.cases.filter((c) => c.file === file);
    const failed = cases.filter((c) => c.status === "failed" || c.status === "new").length;
    const suite = cases[0]?.suite ?? file;
    out.push(
      `  <testsuite name="${xml(suite)}" file="${xml(file)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0">`,
    );
    for (const c of cases) {
      const open = `    <testcase name="${xml(c.name)}" classname="${xml(suite)}" file="${xml(c.file)}" line="${c.line}"`;
      if (c.status === "passed" || c.status === "updated") {
        out.push(`${open}/>`);
        continue;
      }
      const message =
        c.status === "new"
          ? "no expect: run kubeimg test --update to record the answer"
          : c.mismatches
              .map((m) => `${m.field}: expected ${show(m.expected)}, got ${show(m.actual)}`)
              .join("; ");
      out.push(`${open}>`);
      out.push(
        `      <failure message="${xml(message)}" type="${c.status === "new" ? "NoExpect" : "Mismatch"}">${xml(failureText(c))}</failure>`,
      );
      out.push("    </testcase>");
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return `${out.join("\n")}\n`;
}

// GitHub's workflow-command escapes: the message keeps only %, CR and LF
// special; a property value also its `:` and `,` separators.
const escapeData = (s: string) =>
  s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** Returns one `::error file=…,line=…::` workflow command per failing or new case. */
export function renderGithubAnnotations(report: PolicyTestReport): string {
  return report.cases
    .filter((c) => c.status === "failed" || c.status === "new")
    .map((c) => {
      const title = `kubeimg test: ${c.name}`;
      const body =
        c.status === "new"
          ? "no expect: run kubeimg test --update to record the answer"
          : c.mismatches
              .map((m) => `${m.field}: expected ${show(m.expected)}, got ${show(m.actual)}`)
              .join("\n");
      return `::error file=${escapeProperty(c.file)},line=${c.line},title=${escapeProperty(sanitizeText(title))}::${escapeData(sanitizeLines(body))}\n`;
    })
    .join("");
}
