/**
 * Reads a `kubeimg test` file: bounded YAML, one document, every field
 * checked against the format's table (`spec.ts`); an unknown field is
 * refused with "did you mean", a wrong value with its path and what was
 * found, each with the file and line.
 */
import { type Document, isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { closestName } from "../args/suggest.js";
import { CliError } from "../errors/cli-error.js";
import type { InputFile } from "../files/read-file.js";
import { yamlDocuments } from "../files/yaml-documents.js";
import {
  ANY_CASE_FIELDS,
  CASE_KINDS,
  type CaseKind,
  caseSpec,
  type FieldSpec,
  TEST_FILE_SPEC,
} from "./spec.js";

type Json = Record<string, unknown>;

/** One case as written, with its kind and line. */
export interface TestCase {
  readonly index: number;
  readonly name: string;
  readonly kind: CaseKind;
  readonly input: Json;
  readonly expect: Json | undefined;
  /** 1-based line of the case in its file. */
  readonly line: number;
}

/** A test file, validated. */
export interface TestFile {
  /** The file's name as shown (relative to the working directory when inside it). */
  readonly name: string;
  readonly suite: string;
  readonly resources: readonly string[];
  readonly kuikConfig: string | undefined;
  readonly nodeConfig: string | undefined;
  /** The releases the file's `upstream:` names (each wins over `--upstream` for this file). */
  readonly upstream: Readonly<Record<string, string>>;
  readonly cases: readonly TestCase[];
  /** The parsed document, kept for `--update`. */
  readonly document: Document;
  /** Returns the 1-based line of the node at `path` (or of its closest parent). */
  readonly lineOf: (path: readonly (string | number)[]) => number;
}

/** Returns `cases[1].select.tags[0]` for a path. */
export function fieldPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The validator of one file: each problem becomes a CliError naming file, line and field. */
class Checker {
  readonly cases: TestCase[] = [];

  constructor(
    readonly file: string,
    readonly lineOf: (path: readonly (string | number)[]) => number,
  ) {}

  fail(
    path: readonly (string | number)[],
    problem: string,
    code: "UNKNOWN_FIELD" | "INVALID_POLICY_TEST" = "INVALID_POLICY_TEST",
  ): never {
    const where = path.length === 0 ? "(top)" : fieldPath(path);
    throw new CliError(code, `${this.file}:${this.lineOf(path)}: ${where}: ${problem}`, this.file);
  }

  check(value: unknown, spec: FieldSpec, path: (string | number)[]): void {
    const wrong = (what: string) =>
      this.fail(path, `must be ${what} (found ${describeValue(value)})`);
    switch (spec.type) {
      case "string":
        // YAML reads `5.40` as the number 5.4: say how to keep it a string.
        if (typeof value === "number") {
          this.fail(path, `must be a string (found ${describeValue(value)}); quote it`);
        }
        if (typeof value !== "string") wrong("a string");
        if (spec.enum && !spec.enum.includes(value as string)) {
          const hint = closestName(value as string, spec.enum);
          this.fail(
            path,
            `must be one of ${spec.enum.join(", ")} (found ${describeValue(value)})${hint ? `; did you mean ${hint}?` : ""}`,
          );
        }
        return;
      case "boolean":
        if (typeof value !== "boolean") wrong("true or false");
        if (spec.const && value !== true) wrong("true");
        return;
      case "integer":
        if (typeof value !== "number" || !Number.isSafeInteger(value) || value < spec.minimum) {
          wrong(`an integer from ${spec.minimum}`);
        }
        return;
      case "array":
        if (!Array.isArray(value)) wrong("a list");
        for (const [i, item] of (value as unknown[]).entries())
          this.check(item, spec.items, [...path, i]);
        return;
      case "map":
        if (!isObject(value)) wrong("an object");
        for (const [key, item] of Object.entries(value as Json)) {
          this.check(item, spec.values, [...path, key]);
        }
        return;
      case "case":
        this.cases.push(checkCase(this, value, path[path.length - 1] as number));
        return;
      case "object": {
        if (!isObject(value)) wrong("an object");
        const known = Object.keys(spec.fields);
        for (const [key, item] of Object.entries(value as Json)) {
          const field = spec.fields[key];
          if (field === undefined) this.unknown([...path, key], known);
          this.check(item, field, [...path, key]);
        }
        for (const key of spec.required ?? []) {
          if (!(key in (value as Json))) this.fail([...path], `${key} is required`);
        }
        return;
      }
    }
  }

  unknown(path: readonly (string | number)[], known: readonly string[]): never {
    const typed = String(path[path.length - 1]);
    const hint = closestName(typed, known);
    return this.fail(
      path,
      `unknown field${hint ? `; did you mean ${hint}?` : ""} (known: ${known.join(", ")})`,
      "UNKNOWN_FIELD",
    );
  }
}

function checkCase(checker: Checker, value: unknown, index: number): TestCase {
  const path = ["cases", index];
  if (!isObject(value)) {
    checker.fail(path, `must be an object (found ${describeValue(value)})`);
  }
  for (const key of Object.keys(value)) {
    if (!ANY_CASE_FIELDS.includes(key)) checker.unknown([...path, key], ANY_CASE_FIELDS);
  }
  const kinds = CASE_KINDS.filter((k) => k in value);
  if (kinds.length !== 1) {
    checker.fail(
      path,
      kinds.length === 0
        ? `needs one of ${CASE_KINDS.join(", ")}`
        : `has ${kinds.join(" and ")}; give one per case`,
    );
  }
  const kind = kinds[0] as CaseKind;
  checker.check(value, caseSpec(kind), path);
  const expect = value.expect as Json | undefined;
  return {
    index,
    name: value.name as string,
    kind,
    input: value[kind] as Json,
    expect,
    line: checker.lineOf(path),
  };
}

/**
 * Returns the validated test file. Throws an `INVALID_YAML` or
 * `YAML_TOO_LARGE` {@link CliError} for unreadable YAML, `UNKNOWN_FIELD`
 * for a field the format does not have (with "did you mean"), and
 * `INVALID_POLICY_TEST` for a wrong value, each naming the file, line and
 * field.
 */
export function readTestFile(file: InputFile): TestFile {
  const documents = yamlDocuments(file);
  const lineCounter = new LineCounter();
  const document = parseDocument(file.text, { lineCounter, keepSourceTokens: false });
  const lineOf = (path: readonly (string | number)[]): number => {
    const line = (node: unknown) => {
      const offset = (node as { range?: [number, number] } | null | undefined)?.range?.[0];
      return offset === undefined ? undefined : lineCounter.linePos(offset).line;
    };
    for (let n = path.length; n > 0; n--) {
      const parent = document.getIn(path.slice(0, n - 1), true);
      const last = path[n - 1];
      // A field's line is its key's: its value may start on the next line.
      const found = isMap(parent)
        ? line(parent.items.find((p) => (p.key as { value?: unknown } | null)?.value === last)?.key)
        : isSeq(parent) && typeof last === "number"
          ? line(parent.items[last])
          : undefined;
      if (found !== undefined) return found;
    }
    return line(document.contents) ?? 1;
  };
  const checker: Checker = new Checker(file.name, lineOf);
  if (documents.length !== 1) {
    checker.fail([], `must hold exactly one YAML document (found ${documents.length})`);
  }
  const value = documents[0];
  if (!isObject(value)) checker.fail([], `must be an object (found ${describeValue(value)})`);
  checker.check(value, TEST_FILE_SPEC, []);
  const cases = checker.cases;
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) {
      checker.fail(["cases", c.index, "name"], `${JSON.stringify(c.name)} is used twice`);
    }
    names.add(c.name);
  }
  const metadata = value.metadata as { name?: string } | undefined;
  return {
    name: file.name,
    suite: metadata?.name ?? file.name,
    resources: (value.resources as string[] | undefined) ?? [],
    kuikConfig: value.kuikConfig as string | undefined,
    nodeConfig: value.nodeConfig as string | undefined,
    upstream: (value.upstream as Record<string, string> | undefined) ?? {},
    cases,
    document,
    lineOf,
  };
}

/** Throws the `INVALID_POLICY_TEST` error of `test` at the field `path`. */
export function failAt(test: TestFile, path: readonly (string | number)[], problem: string): never {
  return new Checker(test.name, test.lineOf).fail(path, problem);
}
