/**
 * The examples check, run by the consumer check on the packed tarballs:
 * every fenced `ts` block of the READMEs (root, packages, examples) and
 * every `@example` of the packages' sources that imports what it uses is
 * type-checked as pasted, under strict TypeScript, against the installed
 * tarballs. A block states what it assumes with `declare const …`.
 *
 * `@example` blocks with no import are fragments of their function's
 * documentation (the function's own module is implied); they are counted
 * but not compiled.
 *
 * A compiled block then runs, offline, against the same tarballs, unless it
 * assumes what it cannot have (`declare const …`) or its fence says
 * `ts no-run` (it needs a registry, a test runner, a node's files). A block
 * whose comments say a call `throws` may end in that error: a
 * `KubeimgError`-shaped one (an `Error` with a string `code`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { repoRoot } from "./conformance/runner.js";

export interface Example {
  /** `path:line` of the block's first line of code, relative to the repository. */
  where: string;
  code: string;
  /** False for a block fenced as `ts no-run`. */
  run: boolean;
}

function readmes(): string[] {
  const files = [join(repoRoot, "README.md")];
  for (const parent of ["packages", "examples"]) {
    for (const name of readdirSync(join(repoRoot, parent)).sort()) {
      const file = join(repoRoot, parent, name, "README.md");
      try {
        if (statSync(file).isFile()) files.push(file);
      } catch {
        // a directory without a README
      }
    }
  }
  return files;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** Fenced ```ts blocks of a Markdown text (`prefix` strips a doc comment's ` * `). */
function fencedBlocks(file: string, text: string, prefix: RegExp | null): Example[] {
  const lines = text.split("\n").map((l) => (prefix ? l.replace(prefix, "") : l));
  const blocks: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(?:ts|typescript)(\s+no-run)?\s*$/.exec(lines[i] ?? "");
    if (fence === null) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? "")) end++;
    blocks.push({
      where: `${relative(repoRoot, file)}:${start + 1}`,
      code: lines.slice(start, end).join("\n"),
      run: fence[1] === undefined,
    });
    i = end;
  }
  return blocks;
}

/** The README blocks, then the `@example` blocks of the packages' sources. */
export function extractExamples(): { readme: Example[]; docComments: Example[] } {
  const readme = readmes().flatMap((f) => fencedBlocks(f, readFileSync(f, "utf8"), null));
  const docComments: Example[] = [];
  for (const pkg of readdirSync(join(repoRoot, "packages")).sort()) {
    const src = join(repoRoot, "packages", pkg, "src");
    try {
      if (!statSync(src).isDirectory()) continue;
    } catch {
      continue;
    }
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, "utf8");
      if (!text.includes("@example")) continue;
      docComments.push(...fencedBlocks(file, text, /^\s*\* ?/));
    }
  }
  return { readme, docComments };
}

/** A block that imports what it uses (the standard for a pasted example). */
export const importsSomething = (e: Example) => /^\s*import\s/m.test(e.code);

/**
 * Type-checks the examples in `dir` (a scratch project with the tarballs
 * installed); returns one message per failing block.
 */
export function checkExamples(dir: string, tsc: string): string[] {
  const { readme, docComments } = extractExamples();
  const checked = [...readme, ...docComments.filter(importsSomething)];
  console.log(
    `examples: ${readme.length} README blocks, ${docComments.length} @example blocks (${
      checked.length - readme.length
    } with imports compiled)`,
  );
  const exDir = join(dir, "examples");
  mkdirSync(exDir, { recursive: true });
  const names = checked.map((e, i) => {
    const name = `example${i}.ts`;
    writeFileSync(join(exDir, name), `${e.code}\nexport {};\n`);
    return name;
  });
  const config = join(dir, "tsconfig.examples.json");
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        module: "esnext",
        moduleResolution: "bundler",
        target: "es2022",
        lib: ["es2022", "dom"],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [join(repoRoot, "node_modules", "@types")],
        types: ["node"],
        // The test runner a test example imports, from the workspace.
        paths: { vitest: [join(repoRoot, "node_modules", "vitest")] },
      },
      files: names.map((n) => `examples/${n}`),
    }),
  );
  const result = spawnSync(process.execPath, [tsc, "-p", config, "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 300_000,
  });
  if (result.status === 0) return runExamples(dir, checked);
  const failures = new Map<string, string[]>();
  for (const line of `${result.stdout}${result.stderr}`.split("\n")) {
    const m = /^examples\/example(\d+)\.ts\((\d+),\d+\): (.*)$/.exec(line);
    if (!m) continue;
    const example = checked[Number(m[1])];
    if (!example) continue;
    const [file, first] = example.where.split(":");
    const at = `${file}:${Number(first) + Number(m[2]) - 1}`;
    const list = failures.get(example.where) ?? [];
    list.push(`${at}: ${m[3]}`);
    failures.set(example.where, list);
  }
  if (failures.size === 0) {
    return [`examples: tsc exit ${result.status}\n${result.stdout}${result.stderr}`.trim()];
  }
  return [...failures.entries()].map(
    ([where, errors]) => `example ${where}\n  ${errors.join("\n  ")}`,
  );
}

/** A block that can run here: it assumes nothing it does not build itself. */
export const runnable = (e: Example) => e.run && !/^\s*declare\s/m.test(e.code);

/** The wrapper each block runs in: an error its comments announce is its answer. */
const RUNNER = `const [file, mayThrow] = process.argv.slice(2);
try {
  await import(file);
} catch (error) {
  const coded = error instanceof Error && typeof error.code === "string";
  if (!(mayThrow === "1" && coded)) throw error;
}
`;

/**
 * Runs the runnable blocks of `checked` (already type-checked) in `dir`, one
 * process each, offline; returns one message per block that failed.
 */
function runExamples(dir: string, checked: readonly Example[]): string[] {
  const runDir = join(dir, "run");
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, "runner.mjs"), RUNNER);
  const toRun = checked.filter(runnable);
  const failures: string[] = [];
  toRun.forEach((example, i) => {
    const file = join(runDir, `example${i}.mjs`);
    const js = ts.transpileModule(`${example.code}\nexport {};\n`, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(file, js);
    const mayThrow = /\bthrows\b/.test(example.code) ? "1" : "0";
    const result = spawnSync(process.execPath, [join(runDir, "runner.mjs"), file, mayThrow], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
      // No proxy, no credentials: what runs here must need neither.
      env: { PATH: process.env.PATH ?? "", HOME: dir, NODE_OPTIONS: "" },
    });
    if (result.status !== 0) {
      const why = `${result.stderr}`.trim().split("\n").slice(0, 6).join("\n  ");
      failures.push(`example ${example.where} does not run (exit ${result.status}):\n  ${why}`);
    }
  });
  console.log(`examples: ${toRun.length} of ${checked.length} compiled blocks run offline`);
  return failures;
}
