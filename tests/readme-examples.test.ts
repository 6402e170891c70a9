/**
 * Every README block runs in `pnpm check:packages` against the tarballs:
 * offline, or against a real registry and redis-server when what it
 * assumes needs one. And the runner of
 * scripts/check-examples.ts fails a block that is broken: an unexpected
 * error, a result comment the code does not give, a log that prints nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extractExamples, importsSomething } from "../scripts/check-examples.js";
import { assumedValues } from "../scripts/examples-assumed.js";
import {
  declaredNames,
  type Example,
  linkWorkspacePackages,
  planExample,
  runExamples,
  statedLiteral,
} from "../scripts/run-examples.js";

const { readme, docComments } = extractExamples();

describe("README blocks", () => {
  it("are there to check", () => {
    expect(readme.length).toBeGreaterThan(5);
  });

  it.each(readme.map((e) => ({ where: e.where, example: e })))(
    "$where runs offline or against a server",
    ({ example }) => {
      expect(planExample(example)).not.toMatchObject({ where: "nowhere" });
    },
  );
});

describe("@example blocks", () => {
  it("each imports what it uses (an example compiles as pasted)", () => {
    expect(docComments.length).toBeGreaterThan(100);
    expect(docComments.filter((e) => !importsSomething(e)).map((e) => e.where)).toEqual([]);
  });
});

describe("the assumed values", () => {
  it("each is declared by a README block (none is left over)", () => {
    const declared = new Set(readme.flatMap((e) => declaredNames(e.code)));
    expect(Object.keys(assumedValues).filter((name) => !declared.has(name))).toEqual([]);
  });
});

const block = (code: string, run = true): Example => ({ where: "README.md:1", code, run });

describe("planExample", () => {
  it.each([
    { code: 'import { x } from "y";\nx;', want: { where: "offline" } },
    { code: "declare const signal: AbortSignal;", want: { where: "offline" } },
    {
      code: "declare const registry: string;",
      want: { where: "online", needs: ["registry"] },
    },
    {
      code: "declare const redisUrl: string;\ndeclare const registry: string;",
      want: { where: "online", needs: ["redis", "registry"] },
    },
    { code: "declare const cluster: string;", want: { where: "nowhere" } },
  ])("$code", ({ code, want }) => {
    expect(planExample(block(code))).toMatchObject(want);
  });

  it("names what has no value, and where to give it one", () => {
    const plan = planExample(block("declare const [a, { b }]: [string, { b: string }];"));
    expect(plan).toMatchObject({ where: "nowhere" });
    expect(plan.where === "nowhere" && plan.why).toMatch(/a, b.*scripts\/examples-assumed\.ts/);
  });

  it("runs no block fenced no-run", () => {
    expect(planExample(block("1;", false))).toMatchObject({ where: "nowhere" });
  });
});

describe("declaredNames", () => {
  it("reads plain and destructured declarations, nothing else", () => {
    expect(
      declaredNames(
        "declare const a: string;\ndeclare const [b, , c]: string[];\ndeclare const { d, e: f }: X;\nconst g = 1;",
      ),
    ).toEqual(["a", "b", "c", "d", "f"]);
  });
});

describe("statedLiteral", () => {
  it.each([
    { comment: '// "Always": no tag means :latest', want: '"Always"' },
    { comment: "// 42", want: "42" },
    { comment: "// true (RE2)", want: "true" },
    { comment: "// undefined", want: "undefined" },
    { comment: '// ["a", "b"]: in order', want: '["a", "b"]' },
    { comment: '// { mustPull: true, reason: "x" }', want: '{ mustPull: true, reason: "x" }' },
    { comment: "// [ 'linux/amd64', … ]", want: undefined },
    { comment: '// "sha256:aaaa…"', want: undefined },
    { comment: "// { mustPull, reason }", want: undefined },
    { comment: "// credentials in the kubelet's order", want: undefined },
    { comment: "// RE2: linear time", want: undefined },
  ])("$comment", ({ comment, want }) => {
    expect(statedLiteral(comment)).toBe(want);
  });
});

describe("README blocks that need no server", () => {
  // The same blocks `pnpm check:packages` runs on the packed tarballs, here
  // on the sources, for a quicker answer.
  const offline = readme.filter((e) => planExample(e).where === "offline");
  const dir = mkdtempSync(join(tmpdir(), "kubeimg-readme-offline-"));
  const nodeOptions = linkWorkspacePackages(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(offline.map((e, i) => ({ where: e.where, example: e, i })))(
    "$where runs from the sources",
    ({ example, i }) => {
      expect(runExamples(dir, [example], { nodeOptions, runDir: `run${i}` })).toEqual([]);
    },
  );
});

describe("runExamples fails a broken block", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubeimg-readme-examples-"));
  const nodeOptions = linkWorkspacePackages(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (code: string) => runExamples(dir, [block(code)], { nodeOptions });
  const pullPolicy = 'import { defaultPullPolicy } from "@kubeimg/core/reference";\n';

  it("passes a block whose comments hold", () => {
    expect(run(`${pullPolicy}defaultPullPolicy("nginx"); // "Always": no tag`)).toEqual([]);
  });

  it.each([
    {
      what: "a result comment the code does not give",
      code: `${pullPolicy}\ndefaultPullPolicy("nginx"); // "IfNotPresent"`,
      want: /README\.md:3: the comment says 'IfNotPresent', the code gives 'Always'/,
    },
    {
      what: "an error, even one its comments announce",
      code: `${pullPolicy}defaultPullPolicy("Nginx"); // throws: upper case`,
      want: /does not run \(exit 1\)/,
    },
    {
      what: "a block that needs a server it is not given",
      code: "declare const registry: string;\nconsole.log(registry);",
      want: /needs a registry: it runs in tests\/readme-examples\.integration\.test\.ts/,
    },
    {
      what: "a block that logs to stdout and prints nothing",
      code: "if (Math.random() > 2) console.log('never');",
      want: /logs to stdout but printed nothing/,
    },
  ])("$what", ({ code, want }) => {
    const failures = run(code);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(want);
  });
});
