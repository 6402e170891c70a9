/**
 * `runPolicyTests`: finds the test files, runs every case through the
 * library (one engine with the other commands), and with `update` writes
 * the answers of new cases into their `expect`.
 */
import { readdir, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { upstreamPairs } from "../args/upstream.js";
import { CliError } from "../errors/cli-error.js";
import { readInputFile } from "../files/read-file.js";
import type { CliIo } from "../io/io.js";
import type { TestUpstream } from "./environment.js";
import type { ListTags, Mismatch } from "./evaluate.js";
import { type CaseKind, POLICY_TEST_UPSTREAMS } from "./spec.js";
import type { TestFile } from "./test-file.js";

/** How {@link runPolicyTests} runs. */
export interface RunPolicyTestsOptions {
  /** Where relative paths start, and what shown file names are relative to (default: `process.cwd()`). */
  readonly cwd?: string;
  /** Runs only the cases whose name matches this RE2 pattern (Go syntax, as `--run`). */
  readonly run?: string;
  /** Writes the answers of cases without `expect` into their file (never those of failing cases). */
  readonly update?: boolean;
  /** Refuses cases that list tags from a live registry (`registry: true`). */
  readonly offline?: boolean;
  /** Lists tags live for `registry: true` cases; without it such a case is refused. */
  readonly listTags?: ListTags;
  /** Receives warnings (fields the CRDs do not know are errors; routing objects kuik ignores). */
  readonly onWarning?: (line: string) => void;
  /**
   * The upstream releases to reproduce, as `--upstream NAME=VERSION` (default:
   * the newest of each). A test file's own `upstream:` wins for that file.
   */
  readonly upstream?: PolicyTestUpstream;
}

/**
 * The upstream releases a policy test reproduces, by `--upstream` name: each
 * one of the releases that command accepts (an unknown one is refused).
 */
export interface PolicyTestUpstream {
  /** A pull case's containerd hosts root: 2.3 or 2.4. */
  readonly containerd?: string;
  /** A pull case's registries.conf: 5.36 or 5.40. */
  readonly "containers-image"?: string;
  /** A pullCheck case's kubelet: 1.35, 1.36 or 1.37. */
  readonly kubelet?: string;
  /** A Flux select case's Masterminds/semver: v3.4.0 or v3.5.0. */
  readonly semver?: string;
}

/** How one case ended. `new`: it has no `expect` yet; `updated`: `update` wrote it.
 *
 * @inline
 */
export type PolicyTestStatus = "passed" | "failed" | "new" | "updated";

/** One case's result.
 *
 * @inline
 */
export interface PolicyTestCaseResult {
  /** The test file, relative to `cwd` when inside it. */
  readonly file: string;
  /** The case's 1-based line in the file. */
  readonly line: number;
  /** The file's `metadata.name` (default: the file name). */
  readonly suite: string;
  readonly name: string;
  readonly kind: "select" | "route" | "pull" | "pullCheck";
  readonly status: PolicyTestStatus;
  readonly expected: Readonly<Record<string, unknown>> | null;
  readonly actual: Readonly<Record<string, unknown>>;
  /** The expected fields that differ, with what was found. */
  readonly mismatches: readonly {
    readonly field: string;
    readonly expected: unknown;
    readonly actual: unknown;
  }[];
  /** The upstream releases the answer reproduced, by `--upstream` name (empty when it depends on none). */
  readonly upstream: Readonly<Record<string, string>>;
  /** The decision's trace (why this tag, why this order); empty for a passing case. */
  readonly explain: readonly string[];
}

/** The result of {@link runPolicyTests}. */
export interface PolicyTestReport {
  /** The test files found, in the order run. */
  readonly files: readonly string[];
  readonly cases: readonly PolicyTestCaseResult[];
  readonly passed: number;
  readonly failed: number;
  /** Cases without `expect` (a failure unless `update`). */
  readonly new: number;
  readonly updated: number;
  /** Cases `run` left out. */
  readonly skipped: number;
}

const TEST_FILE = /(^|\.)kubeimg-test\.yaml$/;

async function findTestFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 32) return;
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.isDirectory()) {
        if (e.name.startsWith(".") || e.name === "node_modules") continue;
        await walk(join(dir, e.name), depth + 1);
      } else if (e.isFile() && TEST_FILE.test(e.name)) {
        found.push(join(dir, e.name));
      }
    }
  };
  for (const p of paths) {
    const absolute = isAbsolute(p) ? p : join(cwd, p);
    const info = await stat(absolute).catch((error: unknown) => {
      throw new CliError("FILE_NOT_FOUND", `${p}: no such file or directory`, p, { cause: error });
    });
    if (info.isDirectory()) await walk(absolute, 0);
    else found.push(absolute);
  }
  if (found.length === 0) {
    throw new CliError(
      "MISSING_OBJECT",
      `${paths.join(", ")}: no test file (*.kubeimg-test.yaml or kubeimg-test.yaml) found`,
      paths.join(","),
    );
  }
  return [...new Set(found)];
}

function shownName(absolute: string, cwd: string): string {
  const r = relative(cwd, absolute);
  return r === "" || r.startsWith("..") || isAbsolute(r) ? absolute : r;
}

function quietIo(cwd: string): CliIo {
  const sink = { write() {} };
  return { stdout: sink, stderr: sink, env: {}, cwd, fetch: globalThis.fetch };
}

/**
 * Runs the policy test files `paths` names (files, or directories searched
 * recursively for `*.kubeimg-test.yaml` and `kubeimg-test.yaml`) and returns
 * every case's result. Each case is answered by the library call the
 * matching command makes (`kubeimg tags`, `route`, `route --node-config`,
 * `pull-check`). An invalid test file, or a resource it names, rejects with
 * a {@link CliError} naming the file, line, field and value.
 *
 * @example
 * ```ts no-run
 * import { runPolicyTests } from "@kubeimg/cli";
 * import { expect, it } from "vitest";
 *
 * // A vitest file beside the policy tests: one test per case.
 * const report = await runPolicyTests(["policy-tests/"], { offline: true });
 * for (const c of report.cases) it(c.name, () => expect(c.mismatches).toEqual([]));
 * ```
 */
export async function runPolicyTests(
  paths: readonly string[],
  options: RunPolicyTestsOptions = {},
): Promise<PolicyTestReport> {
  const { compileRegexp, evaluateCase, readTestFile, TestEnvironment } = await import(
    "./engine.js"
  );
  const cwd = options.cwd ?? process.cwd();
  const io = quietIo(cwd);
  const note = options.onWarning ?? (() => {});
  const filter =
    options.run === undefined ? undefined : compileRunPattern(options.run, compileRegexp);
  const defaults = testUpstream(options.upstream ?? {});
  const files = await findTestFiles(paths.length === 0 ? ["."] : paths, cwd);
  const cases: PolicyTestCaseResult[] = [];
  const shown: string[] = [];
  let skipped = 0;
  for (const absolute of files) {
    const name = shownName(absolute, cwd);
    shown.push(name);
    const file = await readInputFile(absolute, io);
    const test = readTestFile({ name, text: file.text });
    // A test file models one cluster: the releases it names win over the caller's.
    const upstream = { ...defaults, ...test.upstream } as TestUpstream;
    const env = new TestEnvironment(test, absolute, io, note, upstream);
    const context = {
      test,
      env,
      offline: options.offline === true,
      listTags: options.listTags,
      upstream,
    };
    const recorded: { index: number; value: Record<string, unknown> }[] = [];
    for (const tc of test.cases) {
      if (filter !== undefined && !filter(tc.name)) {
        skipped++;
        continue;
      }
      const answer = await evaluateCase(context, tc);
      const isNew = tc.expect === undefined;
      const failed = !isNew && answer.mismatches.length > 0;
      if (isNew && options.update === true)
        recorded.push({ index: tc.index, value: answer.recorded });
      const status: PolicyTestStatus = isNew
        ? options.update === true
          ? "updated"
          : "new"
        : failed
          ? "failed"
          : "passed";
      cases.push({
        file: name,
        line: tc.line,
        suite: test.suite,
        name: tc.name,
        kind: tc.kind as CaseKind,
        status,
        expected: tc.expect ?? null,
        actual: answer.actual,
        mismatches: answer.mismatches as Mismatch[],
        upstream: answer.upstream,
        explain: status === "passed" || status === "updated" ? [] : [...(await answer.explain())],
      });
    }
    if (recorded.length > 0) await writeExpectations(test, absolute, recorded);
  }
  const count = (s: PolicyTestStatus) => cases.filter((c) => c.status === s).length;
  return {
    files: shown,
    cases,
    passed: count("passed"),
    failed: count("failed"),
    new: count("new"),
    updated: count("updated"),
    skipped,
  };
}

/** The caller's releases, checked as `--upstream` checks them, the newest for each name not given. */
function testUpstream(given: PolicyTestUpstream): TestUpstream {
  const pairs = Object.entries(given).flatMap(([name, version]) =>
    version === undefined ? [] : [`${name}=${String(version)}`],
  );
  const chosen = upstreamPairs(pairs, "test", POLICY_TEST_UPSTREAMS);
  return Object.fromEntries(POLICY_TEST_UPSTREAMS.map((n) => [n, chosen[n]])) as TestUpstream;
}

function compileRunPattern(
  pattern: string,
  compileRegexp: typeof import("./engine.js").compileRegexp,
): (name: string) => boolean {
  try {
    const re = compileRegexp(pattern);
    return (name) => re.matchString(name);
  } catch (error) {
    throw new CliError(
      "USAGE",
      `--run ${JSON.stringify(pattern)}: ${(error as Error).message}`,
      pattern,
      { cause: error },
    );
  }
}

/** Writes `expect` into each recorded case, keeping the file's comments and layout. */
async function writeExpectations(
  test: TestFile,
  absolute: string,
  recorded: readonly { index: number; value: Record<string, unknown> }[],
): Promise<void> {
  const { document } = test;
  for (const { index, value } of recorded) {
    document.setIn(["cases", index, "expect"], document.createNode(value));
  }
  await writeFile(absolute, document.toString({ lineWidth: 0 }));
}
