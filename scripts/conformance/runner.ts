/**
 * The conformance runner: runs every `*.jsonl` vector of the suites it is
 * asked for and reports, per suite, how many passed and which failed.
 *
 * A suite folder without a handler is refused, as is a named suite whose
 * folder is missing, so that no vector is ever silently skipped.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SuiteHandler, Vector, VectorOutcome } from "./types.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const repoRoot = resolve(here, "..", "..");

/** The project's own copy of the public vectors: the runner's default. */
export const defaultConformanceDir = join(repoRoot, "conformance");

/** Where the shared upstream vectors live when this checkout sits beside them. */
export const sharedConformanceDir = resolve(repoRoot, "..", "shared", "conformance");

export interface Failure {
  readonly id: string;
  readonly file: string;
  readonly expected: unknown;
  readonly got: unknown;
}

export interface SuiteReport {
  readonly suite: string;
  readonly passed: number;
  readonly failed: number;
  readonly failures: readonly Failure[];
  /** Set when the suite could not run at all (no handler, no folder, no vectors). */
  readonly problem?: string;
}

/** Lists the suites that have a handler in `handlers/`. */
export function handledSuites(): string[] {
  return readdirSync(join(here, "handlers"))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Loads the handler of a suite, or undefined when the suite has none. */
export async function loadHandler(suite: string): Promise<SuiteHandler | undefined> {
  const file = join(here, "handlers", `${suite}.ts`);
  if (!existsSync(file)) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as { default: SuiteHandler };
  return mod.default;
}

/** Lists the suite folders of a conformance directory. */
export function suiteFolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

/** Reads the vectors of one `*.jsonl` file, skipping blank and comment-only lines. */
export function readVectors(file: string): Vector[] {
  const vectors: Vector[] = [];
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const value = JSON.parse(line) as Record<string, unknown>;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "comment") return;
    if (typeof value.id !== "string") {
      throw new Error(`${file}:${index + 1}: vector without a string id`);
    }
    vectors.push(value as Vector);
  });
  return vectors;
}

export interface RunOptions {
  /** The conformance folder; defaults to the project's copy. */
  readonly dir?: string;
  /** The suites to run; all folders of `dir` when empty. */
  readonly suites?: readonly string[];
  /** Handlers by suite name; defaults to the files in `handlers/`. */
  readonly handlers?: Readonly<Record<string, SuiteHandler>>;
}

/** Runs the suites and returns one report per suite, in name order. */
export async function runConformance(options: RunOptions = {}): Promise<SuiteReport[]> {
  const dir = resolve(options.dir ?? defaultConformanceDir);
  if (!existsSync(dir)) {
    return [{ suite: dir, passed: 0, failed: 0, failures: [], problem: "no such directory" }];
  }
  const suites = options.suites?.length ? [...options.suites] : suiteFolders(dir);
  const reports: SuiteReport[] = [];
  for (const suite of suites) {
    reports.push(await runSuite(dir, suite, options.handlers));
  }
  return reports;
}

async function runSuite(
  dir: string,
  suite: string,
  handlers: Readonly<Record<string, SuiteHandler>> | undefined,
): Promise<SuiteReport> {
  const suiteDir = join(dir, suite);
  const empty = { suite, passed: 0, failed: 0, failures: [] };
  if (!existsSync(suiteDir) || !statSync(suiteDir).isDirectory()) {
    return { ...empty, problem: `suite folder ${suiteDir} is missing` };
  }
  const handler = handlers ? handlers[suite] : await loadHandler(suite);
  if (!handler) return { ...empty, problem: `no handler for suite "${suite}"` };
  const files = readdirSync(suiteDir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  if (files.length === 0) return { ...empty, problem: `no *.jsonl files in ${suiteDir}` };

  let passed = 0;
  const failures: Failure[] = [];
  for (const file of files) {
    for (const vector of readVectors(join(suiteDir, file))) {
      let outcome: VectorOutcome;
      try {
        outcome = await handler.run(vector, { suiteDir, rootDir: dir });
      } catch (error) {
        outcome = { ok: false, expected: vector, got: `handler threw: ${String(error)}` };
      }
      if (outcome.ok) passed++;
      else failures.push({ id: vector.id, file, expected: outcome.expected, got: outcome.got });
    }
  }
  return { suite, passed, failed: failures.length, failures };
}

/** True when every suite ran and no vector failed. */
export function allPassed(reports: readonly SuiteReport[]): boolean {
  return reports.every((r) => r.problem === undefined && r.failed === 0);
}

/** Formats the reports: one summary line per suite, then every failure. */
export function formatReports(reports: readonly SuiteReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(
      r.problem === undefined
        ? `${r.suite}: ${r.passed} passed, ${r.failed} failed`
        : `${r.suite}: 0 passed, 0 failed — refused: ${r.problem}`,
    );
  }
  for (const r of reports) {
    for (const f of r.failures) {
      lines.push(`FAIL ${r.suite} ${f.id} (${f.file})`);
      lines.push(`  expected: ${clip(JSON.stringify(f.expected))}`);
      lines.push(`  got:      ${clip(typeof f.got === "string" ? f.got : JSON.stringify(f.got))}`);
    }
  }
  return lines.join("\n");
}

function clip(text: string | undefined, max = 2000): string {
  if (text === undefined) return "undefined";
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
