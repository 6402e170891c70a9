/**
 * The rules that keep the house readable, held as tests rather than prose
 * (ARCHITECTURE.md explains each):
 *
 * - nothing outside a package reaches into its `src` by a relative path: other
 *   packages, tests, benchmarks, fuzzers and examples go through the
 *   `exports` map (`@kubeimg/<pkg>/<subpath>` or the private testkit);
 * - no import cycle between the modules of a package;
 * - no source file over 450 lines, unless listed below with its reason;
 * - an `index.ts` only re-exports: it is the list of what a folder offers,
 *   never where a behaviour lives;
 * - no tracked text file keeps a merge's conflict markers (raw, or mangled
 *   into a Markdown quote by a formatter).
 */

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

const MAX_LINES = 450;

/** Files allowed past {@link MAX_LINES}, each with the reason it stays whole. */
const LONG_FILES: Readonly<Record<string, string>> = {
  "packages/core/src/regexp/syntax.ts":
    "Go's regexp parser loop: the stack of partial expressions and the steps that push, concatenate and close it, which call each other in Go's order",
  "packages/policy/src/pull-credentials/fs/fs-store.ts":
    "the kubelet's fsPullRecordsAccessor: open and migrate, read, list, write and delete share one directory layout and one set of invariants",
  "packages/policy/src/semver/version.ts":
    "Masterminds' Version: its grammar, accessors and ordering, beside one upstream file",
  "packages/policy/src/node-mirrors/containerd-host-dir.ts":
    "one containerd host directory as containerd reads it: its hosts.toml decoded, or the certificate files it falls back to",
  "packages/policy/src/tags/argocd/select.ts":
    "Argo CD Image Updater's selection with its explain trace: the tag list, the three sorts and the notes that say which quirk decided share one pass's state",
  "packages/policy/src/availability/gate.ts":
    "the availability gate: check, peek, the single-flight marker and its refresh, circuit breakers and probe slots share one closure's state",
  "packages/redis/src/redis-state.ts":
    "the Redis state: every operation shares one connection's budget, its shared-or-local mode and its counters in one closure",
  "bench/webhook/cluster.ts":
    "the load and replica harness: certificates, fake registries, redis-server and the webhook's processes started and torn down as one cluster",
};

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.mts", "*.tsx"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && !file.endsWith(".d.ts"));
}

const files = trackedFiles();
/** Tests and their support, the private test kit included (it is never published). */
const isTest = (file: string) =>
  /\.test\.ts$|\.test-support\.ts$/.test(file) || file.startsWith("packages/testkit/");

/** Every module specifier a file imports, re-exports or loads dynamically. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), "utf8");
  return ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
}

/** `packages/<name>/src/…` → `<name>`; anything else → undefined. */
function packageOf(file: string): string | undefined {
  return /^packages\/([^/]+)\/src\//.exec(file)?.[1];
}

/** The package a file belongs to, its scripts included: `packages/<name>/…` → `<name>`. */
function ownerOf(file: string): string | undefined {
  return /^packages\/([^/]+)\//.exec(file)?.[1];
}

describe("house rules", () => {
  it("no relative import reaches into another package's src", () => {
    const offences: string[] = [];
    for (const file of files) {
      const own = ownerOf(file);
      for (const specifier of specifiersOf(file)) {
        if (!specifier.startsWith(".")) continue;
        const target = relative(repoRoot, resolve(repoRoot, dirname(file), specifier));
        const targetPackage = /^packages\/([^/]+)\//.exec(target)?.[1];
        if (targetPackage !== undefined && targetPackage !== own) {
          offences.push(`${file} imports ${specifier}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });

  it("no import cycle between the modules of a package", () => {
    const graph = new Map<string, string[]>();
    const sources = files.filter((file) => packageOf(file) !== undefined && !isTest(file));
    const known = new Set(sources);
    for (const file of sources) {
      const edges: string[] = [];
      for (const specifier of specifiersOf(file)) {
        if (!specifier.startsWith(".")) continue;
        const target = relative(
          repoRoot,
          resolve(repoRoot, dirname(file), specifier.replace(/\.js$/, ".ts")),
        );
        if (known.has(target)) edges.push(target);
        else if (known.has(join(target, "index.ts"))) edges.push(join(target, "index.ts"));
      }
      graph.set(file, edges);
    }
    const cycles = findCycles(graph);
    expect(cycles.map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it(`no source file over ${MAX_LINES} lines unless listed with its reason`, () => {
    const long: string[] = [];
    for (const file of files) {
      if (isTest(file)) continue;
      const lines = readFileSync(join(repoRoot, file), "utf8").split("\n").length - 1;
      if (lines > MAX_LINES && LONG_FILES[file] === undefined) long.push(`${file}: ${lines}`);
    }
    expect(long).toEqual([]);
  });

  it("every listed long file still exists and is still long", () => {
    for (const file of Object.keys(LONG_FILES)) {
      const lines = readFileSync(join(repoRoot, file), "utf8").split("\n").length - 1;
      expect(lines, file).toBeGreaterThan(MAX_LINES);
    }
  });

  it("index files only re-export", () => {
    const offences: string[] = [];
    for (const file of files) {
      if (!/(^|\/)index\.ts$/.test(file) || packageOf(file) === undefined) continue;
      const source = ts.createSourceFile(
        file,
        readFileSync(join(repoRoot, file), "utf8"),
        ts.ScriptTarget.Latest,
      );
      for (const statement of source.statements) {
        if (ts.isExportDeclaration(statement)) continue;
        offences.push(`${file}:${lineOf(source, statement)}: ${ts.SyntaxKind[statement.kind]}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("no tracked file keeps a merge's conflict markers", () => {
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" })
      .split("\0")
      .filter((file) => /\.(ts|mts|md|json|ya?ml|sh|toml|txt)$/.test(file));
    const offenders = tracked.flatMap((file) =>
      conflictMarkerLines(readFileSync(join(repoRoot, file), "utf8")).map((n) => `${file}:${n}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the conflict marker finder finds both forms (the rule can fail)", () => {
    const text = ["a", "  <<<<<<< HEAD", "b", "    =======", "c", "> > > > > > > topic", ""];
    expect(conflictMarkerLines(text.join("\n"))).toEqual([2, 4, 6]);
    expect(conflictMarkerLines("a\n> quoted text\n===\n")).toEqual([]);
  });

  it("the cycle finder finds a cycle (the rule can fail)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(findCycles(graph)).toEqual([["a", "b", "c", "a"]]);
  });
});

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** One cycle per strongly connected component that has one, as a path back to its start. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const mark = state.get(next);
      if (mark === undefined) visit(next);
      else if (mark === "open") {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        const key = [...cycle.slice(0, -1)].sort().join("\n");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      }
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** The 1-based lines of `text` that are conflict markers, raw or quoted by a Markdown formatter. */
function conflictMarkerLines(text: string): number[] {
  const marker = /^\s*(<{7}|>{7}|={7}$|(> ){7})/;
  return text.split("\n").flatMap((line, i) => (marker.test(line) ? [i + 1] : []));
}
