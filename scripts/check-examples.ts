/**
 * The examples check, run by the consumer check on the packed tarballs:
 * every fenced `ts` block of the READMEs (root, packages, examples) and
 * every `@example` of the packages' sources is type-checked as pasted,
 * under strict TypeScript, against the installed tarballs. A block imports
 * what it uses from the entries a user imports and states what it assumes
 * with `declare const …`; an `@example` that imports nothing fails (only
 * public functions take examples: a module-private helper's behaviour
 * belongs in its unit tests).
 *
 * A compiled block then runs against the same tarballs, one process each,
 * with every name it declares defined from scripts/examples-assumed.ts:
 * those needing a server against a real registry and redis-server started
 * here (the integration project runs them once more on the sources,
 * tests/readme-examples.integration.test.ts). A block importing from `vitest` is a test file and runs
 * under vitest. Every README block runs in one of the two: one declaring a
 * name with no value, or fenced `ts no-run`, fails the check (`no-run` is
 * for `@example` blocks that need what no table can give, a node's files).
 *
 * A run fails on an unexpected error, on a result comment the code does
 * not give (`defaultPullPolicy("nginx"); // "Always"` is checked), and when
 * a block that logs to stdout prints nothing. An `@example` block whose
 * comments say a call `throws` may end in that error: a `KubeimgError`-shaped
 * one (an `Error` with a string `code`); a README block may not.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./conformance/runner.js";
import {
  type Example,
  planExample,
  runExamples,
  runnableDocExample,
  startExampleServers,
} from "./run-examples.js";

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
export async function checkExamples(dir: string, tsc: string): Promise<string[]> {
  const { readme, docComments } = extractExamples();
  const checked = [...readme, ...docComments];
  console.log(`examples: ${readme.length} README blocks, ${docComments.length} @example blocks`);
  const fragments = docComments
    .filter((e) => !importsSomething(e))
    .map(
      (e) =>
        `example ${e.where} imports nothing: an example compiles as pasted, so import what it uses from the entry a user imports`,
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
  const runsNowhere = readme.flatMap((e) => {
    const plan = planExample(e);
    return plan.where === "nowhere" ? [`README example ${e.where} runs nowhere: ${plan.why}`] : [];
  });
  if (result.status === 0) {
    const failures = [...fragments, ...runsNowhere];
    const offline = readme.filter((e) => planExample(e).where === "offline");
    const docs = checked.slice(readme.length).filter(runnableDocExample);
    failures.push(...runExamples(dir, offline));
    failures.push(...runExamples(dir, docs, { runDir: "run-doc", readmeRules: false }));
    const online = readme.filter((e) => planExample(e).where === "online");
    const servers = await startExampleServers(join(dir, "servers"));
    try {
      failures.push(...runExamples(dir, online, { online: servers.online, runDir: "run-online" }));
    } finally {
      await servers.stop();
    }
    console.log(
      `examples: ${offline.length + docs.length} of ${checked.length} compiled blocks run offline, ${online.length} README blocks against a real registry and redis-server`,
    );
    return failures;
  }
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
    return [
      ...fragments,
      ...runsNowhere,
      `examples: tsc exit ${result.status}\n${result.stdout}${result.stderr}`.trim(),
    ];
  }
  return [
    ...fragments,
    ...runsNowhere,
    ...[...failures.entries()].map(
      ([where, errors]) => `example ${where}\n  ${errors.join("\n  ")}`,
    ),
  ];
}
