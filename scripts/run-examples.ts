/**
 * How the examples check runs a block (scripts/check-examples.ts extracts
 * and compiles them): where it runs (offline, against a real registry and
 * redis-server, or nowhere), the values it assumes defined before it, the
 * result comments checked against what it gives, and the servers and
 * scratch projects the runs need.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { repoRoot } from "./conformance/runner.js";
import { assumedValues, type ExampleNeed, type OnlineValues } from "./examples-assumed.js";

/** One code block of a README or a doc comment. */
export interface Example {
  /** `path:line` of the block's first line of code, relative to the repository. */
  where: string;
  code: string;
  /** False for a block fenced as `ts no-run`. */
  run: boolean;
}

/** The names a block assumes: those of its `declare const …` statements, in order. */
export function declaredNames(code: string): string[] {
  const file = ts.createSourceFile("example.ts", code, ts.ScriptTarget.ES2022, true);
  const names: string[] = [];
  const collect = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.push(name.text);
    else
      for (const element of name.elements)
        if (!ts.isOmittedExpression(element)) collect(element.name);
  };
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) continue;
    for (const declaration of statement.declarationList.declarations) collect(declaration.name);
  }
  return names;
}

/** Where a block runs: offline, against real servers (with what it needs), or nowhere. */
export type ExamplePlan =
  | { readonly where: "offline" }
  | { readonly where: "online"; readonly needs: readonly ExampleNeed[] }
  | { readonly where: "nowhere"; readonly why: string };

/** Where `example` runs, from its fence and the values of {@link assumedValues} it declares. */
export function planExample(example: Example): ExamplePlan {
  if (!example.run) return { where: "nowhere", why: "fenced `ts no-run`" };
  const names = declaredNames(example.code);
  const missing = names.filter((n) => !Object.hasOwn(assumedValues, n));
  if (missing.length > 0) {
    return {
      where: "nowhere",
      why: `it declares ${missing.join(", ")}, with no value in scripts/examples-assumed.ts (give ${
        missing.length === 1 ? "it" : "them"
      } one there, or build ${missing.length === 1 ? "it" : "them"} in the block)`,
    };
  }
  const needs = [
    ...new Set(names.flatMap((n) => assumedValues[n]?.needs ?? [])),
  ].sort() as ExampleNeed[];
  return needs.length === 0 ? { where: "offline" } : { where: "online", needs };
}

/**
 * An `@example` block the offline check runs: it assumes nothing it does
 * not build itself (the table of assumed values is the READMEs').
 */
export const runnableDocExample = (e: Example) => e.run && !/^\s*declare\s/m.test(e.code);

/**
 * A primitive at the start of a result comment (`ref.string; // "docker.io/…"`):
 * a JSON string, a number, a boolean, `null` or `undefined`, followed by the
 * end of the comment or by punctuation that begins its explanation.
 */
const statedPrimitive =
  /^("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|undefined)(?=$|[\s,:;.)])/;

/** Whether `node` is made of literals only (strings, numbers, booleans, arrays, plain objects). */
function isLiteral(node: ts.Node): boolean {
  if (ts.isParenthesizedExpression(node)) return isLiteral(node.expression);
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isLiteral);
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.every(
      (p) =>
        ts.isPropertyAssignment(p) &&
        (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
        isLiteral(p.initializer),
    );
  }
  if (ts.isPrefixUnaryExpression(node)) return ts.isNumericLiteral(node.operand);
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isNumericLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isIdentifier(node) && node.text === "undefined")
  );
}

/**
 * The literal a result comment starts with, as source text: a primitive, or
 * an array or object literal (`// { mustPull: true, reason: "…" }`, its
 * brackets balanced and nothing but literals inside). Undefined when the
 * comment states none (`// credentials in the kubelet's order`) or
 * abbreviates it with `…`.
 */
export function statedLiteral(comment: string): string | undefined {
  const literal = leadingLiteral(comment.replace(/^\/\/\s*/, ""));
  // An ellipsis abbreviates (`"sha256:aaaa…"`): prose, not a value to compare.
  return literal?.includes("…") ? undefined : literal;
}

function leadingLiteral(text: string): string | undefined {
  const primitive = statedPrimitive.exec(text);
  if (primitive) return primitive[1];
  if (text[0] !== "[" && text[0] !== "{") return undefined;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== undefined) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) {
        const literal = text.slice(0, i + 1);
        const source = `(${literal});`;
        const parsed = ts.createSourceFile("stated.ts", source, ts.ScriptTarget.ES2022);
        const statement = parsed.statements[0];
        const syntax = ts.transpileModule(source, { reportDiagnostics: true }).diagnostics ?? [];
        const ok =
          syntax.length === 0 &&
          parsed.statements.length === 1 &&
          statement !== undefined &&
          ts.isExpressionStatement(statement) &&
          isLiteral(statement.expression);
        return ok ? literal : undefined;
      }
    }
  }
  return undefined;
}

/**
 * The block with each expression statement whose comment states a literal
 * result (`defaultPullPolicy("nginx"); // "Always": …`) wrapped in a check
 * that it is that value: a README's stated answers are part of the example.
 * A stated array must match element for element; a stated object names the
 * properties it vouches for (others may exist, as in `toMatchObject`).
 */
export function checkStatedResults(example: Example): string {
  const { code } = example;
  const file = ts.createSourceFile("example.ts", code, ts.ScriptTarget.ES2022, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isExpressionStatement(node)) {
      const comment = ts.getTrailingCommentRanges(code, node.end)?.[0];
      const stated =
        comment && comment.kind === ts.SyntaxKind.SingleLineCommentTrivia
          ? statedLiteral(code.slice(comment.pos, comment.end))
          : undefined;
      if (stated !== undefined) {
        const expression = node.expression;
        const line = file.getLineAndCharacterOfPosition(expression.getStart(file)).line;
        const [path, first] = example.where.split(":");
        const at = JSON.stringify(`${path}:${Number(first) + line}`);
        edits.push({
          start: expression.getStart(file),
          end: expression.end,
          text: `__kubeimgStated(${expression.getText(file)}, (${stated}), ${at})`,
        });
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/**
 * The module each block imports first: it defines the checker of stated
 * results and every name the block declares, on `globalThis`.
 */
function prelude(names: readonly string[]): string {
  const values = names.map(
    (n) => `globalThis[${JSON.stringify(n)}] = await (async () => (${assumedValues[n]?.value}))();`,
  );
  return `import { readFileSync } from "node:fs";
import { inspect } from "node:util";
const online = JSON.parse(process.env.KUBEIMG_EXAMPLES_ONLINE ?? "{}");
globalThis.__kubeimgStated = (actual, stated, at) => {
  const matches = (a, s) => {
    if (Array.isArray(s)) return Array.isArray(a) && a.length === s.length && s.every((x, i) => matches(a[i], x));
    if (s !== null && typeof s === "object") {
      return a !== null && typeof a === "object" && Object.keys(s).every((k) => matches(a[k], s[k]));
    }
    return Object.is(a, s);
  };
  if (!matches(actual, stated)) {
    const show = (v) => inspect(v, { depth: 4, breakLength: Infinity });
    throw new Error(\`\${at}: the comment says \${show(stated)}, the code gives \${show(actual)}\`);
  }
  return actual;
};
${values.join("\n")}
void online, readFileSync;
`;
}

/** The wrapper a plain block runs in: an error its comments announce is its answer. */
const RUNNER = `const [file, mayThrow] = process.argv.slice(2);
try {
  await import(file);
} catch (error) {
  const coded = error instanceof Error && typeof error.code === "string";
  if (!(mayThrow === "1" && coded)) throw error;
}
// A block has finished when its top level has: a connection it leaves open
// (a Redis state, a server) is what a long-running program keeps.
process.exit(process.exitCode ?? 0);
`;

/** A block that is a test file for the vitest runner (it imports from `vitest`). */
const isTestFile = (e: Example) => /^\s*import\s[^;]*\sfrom\s+["']vitest["']/m.test(e.code);

export interface RunOptions {
  /** Node's options for each block (the integration project loads the sources through tsx). */
  readonly nodeOptions?: readonly string[];
  /** The servers' addresses for blocks with {@link ExampleNeed}s. */
  readonly online?: OnlineValues;
  /** Subdirectory of `dir` for the run's files (default `run`). */
  readonly runDir?: string;
  /**
   * The README rules (default true): a result comment is checked, and a
   * block must end without an error. Off, as for `@example` blocks, a
   * block whose comments say a call `throws` may end in a coded error.
   */
  readonly readmeRules?: boolean;
}

/**
 * Runs each of `examples` (already type-checked) in `dir`, a project where
 * their imports resolve, one process each; returns one message per block
 * that failed: an unexpected error, a stated result the code does not give,
 * or a block that logs to stdout and prints nothing.
 */
export function runExamples(
  dir: string,
  examples: readonly Example[],
  options: RunOptions = {},
): string[] {
  const runDir = join(dir, options.runDir ?? "run");
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, "runner.mjs"), RUNNER);
  const vitest = join(dir, "node_modules", "vitest");
  if (examples.some(isTestFile) && !existsSync(vitest)) {
    // The test runner a test example imports, from the workspace.
    symlinkSync(realpathSync(join(repoRoot, "node_modules", "vitest")), vitest, "dir");
  }
  // Vitest resolves through Vite, which reads its conditions from a config,
  // not from Node's options.
  const conditions = (options.nodeOptions ?? []).flatMap((o) =>
    o.startsWith("--conditions=") ? [o.slice("--conditions=".length)] : [],
  );
  if (conditions.length > 0) {
    const all = JSON.stringify([...conditions, "import", "module", "node", "default"]);
    writeFileSync(
      join(runDir, "vitest.config.mjs"),
      `const conditions = ${all};
export default { resolve: { conditions }, ssr: { resolve: { conditions, externalConditions: ${JSON.stringify(conditions)} } } };
`,
    );
  }
  const readmeRules = options.readmeRules ?? true;
  const failures: string[] = [];
  const given: Record<ExampleNeed, unknown> = {
    registry: options.online?.registry,
    redis: options.online?.redisUrl,
  };
  examples.forEach((example, i) => {
    const plan = planExample(example);
    const missing = plan.where === "online" ? plan.needs.filter((n) => !given[n]) : [];
    if (missing.length > 0) {
      failures.push(
        `example ${example.where} needs a ${missing.join(" and a ")}: it runs in tests/readme-examples.integration.test.ts`,
      );
      return;
    }
    const test = isTestFile(example);
    const file = join(runDir, `example${i}${test ? ".test" : ""}.mjs`);
    writeFileSync(join(runDir, `example${i}.assumed.mjs`), prelude(declaredNames(example.code)));
    const js = ts.transpileModule(
      `${readmeRules ? checkStatedResults(example) : example.code}\nexport {};\n`,
      {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      },
    ).outputText;
    writeFileSync(file, `import "./example${i}.assumed.mjs";\n${js}`);
    const mayThrow = !readmeRules && /\bthrows\b/.test(example.code) ? "1" : "0";
    const args = test
      ? [join(vitest, "vitest.mjs"), "run", "--root", runDir, "--reporter", "verbose", file]
      : [join(runDir, "runner.mjs"), file, mayThrow];
    const result = spawnSync(process.execPath, [...(options.nodeOptions ?? []), ...args], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
      // No proxy, no credentials: what runs here needs only what it is given.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: dir,
        // A block's temporary files go with the scratch project.
        TMPDIR: runDir,
        NODE_OPTIONS: "",
        NO_COLOR: "1",
        KUBEIMG_EXAMPLES_ONLINE: JSON.stringify(options.online ?? {}),
      },
    });
    const output = `${result.stderr}${result.stdout}`.trim();
    // What a block printed, to write its comments from: KUBEIMG_EXAMPLES_VERBOSE=1.
    if (process.env.KUBEIMG_EXAMPLES_VERBOSE) console.log(`${example.where}\n${output}\n`);
    const excerpt = () =>
      output
        .split("\n")
        .filter((l) => l.trim() !== "")
        .slice(0, 12)
        .join("\n  ");
    if (result.status !== 0) {
      failures.push(
        `example ${example.where} does not run (exit ${result.status}${
          result.error ? `, ${result.error.message}` : ""
        }):\n  ${excerpt()}`,
      );
    } else if (!test && /\bconsole\.log\(/.test(example.code) && result.stdout.trim() === "") {
      failures.push(`example ${example.where} logs to stdout but printed nothing`);
    }
  });
  return failures;
}

/** The servers the online README blocks read, and how to stop them. */
export interface ExampleServers {
  readonly online: Required<OnlineValues>;
  stop(): Promise<void>;
}

/**
 * Starts what the README blocks that need a server read: a real registry
 * holding the images they name (`library/nginx:1.25`, a multi-platform
 * `team/app:1.0`) and a redis-server. Fails, never skips, when either
 * program is missing (`bash scripts/bootstrap.sh` installs them).
 */
export async function startExampleServers(dir: string): Promise<ExampleServers> {
  const testkit = await import("@kubeimg/testkit");
  mkdirSync(dir, { recursive: true });
  const registry = await testkit.startRegistry({
    dir,
    storageRoot: join(dir, "data"),
    name: "readme-examples",
  });
  let redis: Awaited<ReturnType<typeof testkit.startRedisServer>> | undefined;
  try {
    redis = await testkit.startRedisServer();
    const nginx = testkit.buildImage({ os: "linux", architecture: "amd64" }, "oci");
    await testkit.pushImage(registry.url, "library/nginx", nginx, ["1.25"]);
    const app = testkit.buildMultiPlatformImage();
    await testkit.pushMultiPlatformImage(registry.url, "team/app", app, ["1.0"]);
  } catch (error) {
    await redis?.stop();
    await registry.stop();
    throw error;
  }
  const started = redis;
  return {
    online: { registry: registry.host, redisUrl: started.url },
    async stop() {
      await started.stop();
      await registry.stop();
    },
  };
}

/**
 * Makes `dir` a project where the examples' imports resolve to the
 * workspace's packages, as sources: each published package is linked into
 * its `node_modules`. Returns the Node options a block runs with there (tsx
 * and the `@kubeimg/source` condition), for {@link RunOptions.nodeOptions}.
 * The integration project runs its README blocks so, with no build.
 */
export function linkWorkspacePackages(dir: string): string[] {
  const scope = join(dir, "node_modules", "@kubeimg");
  mkdirSync(scope, { recursive: true });
  for (const name of readdirSync(join(repoRoot, "packages")).sort()) {
    const pkg = join(repoRoot, "packages", name);
    const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as {
      name: string;
      private?: boolean;
    };
    if (manifest.private) continue;
    const link = join(dir, "node_modules", manifest.name);
    if (!existsSync(link)) symlinkSync(pkg, link, "dir");
  }
  const tsx = realpathSync(join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs"));
  return ["--import", pathToFileURL(tsx).href, "--conditions=@kubeimg/source"];
}
