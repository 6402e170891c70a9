/**
 * What every case kind's evaluation shares: the answer and mismatch types,
 * the context a case runs in, and the comparison of expected with actual.
 */
import type { TagInfo } from "@kubeimg/policy/tags/dialects";
import { colorsFor } from "../output/color.js";
import { PolicyRefError, type TestEnvironment, type TestUpstream } from "./environment.js";
import { failAt, type TestCase, type TestFile } from "./test-file.js";

export type Json = Record<string, unknown>;

/** Lists a repository's tags live, for `registry: true` (the CLI passes the registry options). */
export type ListTags = (request: {
  readonly dialect: "flux" | "argocd" | "kargo";
  readonly image: string;
  readonly exclusionList: readonly string[] | undefined;
  readonly insecure: boolean;
  readonly needsMetadata: boolean;
}) => Promise<readonly TagInfo[]>;

/** What a case's evaluation gives the runner. */
export interface CaseAnswer {
  /** What the library answered, for output and comparison. */
  readonly actual: Json;
  /** What `--update` writes into `expect`. */
  readonly recorded: Json;
  /** One row per expected field that differs. */
  readonly mismatches: readonly Mismatch[];
  /** The upstream releases the answer depends on, by `--upstream` name (none for a route case). */
  readonly upstream: Readonly<Record<string, string>>;
  /** The decision's trace, built on demand. */
  readonly explain: () => Promise<readonly string[]> | readonly string[];
}

/** An expected field and what was found instead. */
export interface Mismatch {
  readonly field: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** The context of one case's evaluation. */
export interface CaseContext {
  readonly test: TestFile;
  readonly env: TestEnvironment;
  readonly offline: boolean;
  readonly listTags: ListTags | undefined;
  /** The releases the file's cases reproduce: its `upstream:`, else `--upstream`, else the newest. */
  readonly upstream: TestUpstream;
}

export const plain = colorsFor(
  { stdout: { write() {} }, stderr: { write() {} }, env: {}, cwd: "/", fetch: globalThis.fetch },
  { noColor: true },
);

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function compareFields(expect: Json | undefined, actual: Json): Mismatch[] {
  if (expect === undefined) return [];
  return Object.entries(expect)
    .filter(([field, want]) => !same(want, actual[field]))
    .map(([field, want]) => ({ field, expected: want, actual: actual[field] ?? null }));
}

/** Runs `f`, turning a missing object into an error at the case's field `at`. */
export async function at<T>(
  c: CaseContext,
  tc: TestCase,
  field: readonly (string | number)[],
  f: () => Promise<T> | T,
): Promise<T> {
  try {
    return await f();
  } catch (error) {
    if (error instanceof PolicyRefError) {
      failAt(c.test, ["cases", tc.index, tc.kind, ...field], error.message);
    }
    throw error;
  }
}

export function requireExpectKeys(
  c: CaseContext,
  tc: TestCase,
  exactlyOne: boolean,
  keys: readonly string[],
): void {
  if (tc.expect === undefined) return;
  const given = keys.filter((k) => k in (tc.expect as Json));
  if (given.length === 0 || (exactlyOne && given.length > 1)) {
    failAt(
      c.test,
      ["cases", tc.index, "expect"],
      exactlyOne
        ? `give exactly one of ${keys.join(", ")}`
        : `give at least one of ${keys.join(", ")}`,
    );
  }
}
