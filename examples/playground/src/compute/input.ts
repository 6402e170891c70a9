/**
 * What every view shares: the shape of a problem placed on its input line,
 * the bound on what is read, and the YAML reader (aliases capped, syntax
 * errors placed on their line).
 */

import { describeYamlProblem, readYamlDocuments } from "@kubeimg/policy/objects";
import { LineCounter, parseAllDocuments } from "yaml";

/** The largest paste the worker reads; past it the answer is an input error, not a slow parse. */
export const MAX_INPUT_CHARS = 2_000_000;

/**
 * The most nodes one pasted document may hold once its aliases are expanded.
 * Lower than the library's default, which is sized for files: what is pasted
 * here is a policy, a few objects, CRs or a Pod, and the page must stay
 * responsive (an alias bomb of half a million nodes is refused).
 */
export const MAX_EXPANDED_NODES = 100_000;

/** One problem with the pasted text, placed on the line it is about. */
export interface InputIssue {
  /** Which input box: `policy`, `tags`, `objects`, `refs`, `crs`, `pod`, `image`. */
  readonly input: string;
  /** 1-based line in that box, when the problem can be placed. */
  readonly line: number | undefined;
  /** The field path, such as `spec.policy.semver.range`. */
  readonly path: string;
  /** The offending value, as text. */
  readonly value: string;
  readonly message: string;
  /** For an unknown field: the known field probably meant. */
  readonly suggestion?: string;
}

// ---------------------------------------------------------------------------
// YAML reading shared by the views

export interface ParsedYaml {
  readonly values: unknown[];
  /** The same values with the index of the document each came from. */
  readonly documents: readonly { readonly index: number; readonly value: unknown }[];
  /** Finds the 1-based line of a dotted field path inside document `doc`. */
  lineOf(doc: number, path: string): number | undefined;
}

/**
 * Parses one or more YAML documents. What aliases expand to is bounded (an
 * alias bomb is an error, not an explosion), and a syntax error becomes an
 * issue on its line.
 */
export function readYaml(text: string, input: string): ParsedYaml | InputIssue {
  if (text.length > MAX_INPUT_CHARS) {
    return tooLarge(input, text.length);
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    const err = doc.errors[0];
    if (err !== undefined) {
      return {
        input,
        line: lines.linePos(err.pos[0]).line,
        path: "",
        value: text.slice(err.pos[0], Math.min(err.pos[1], err.pos[0] + 40)),
        message: `YAML: ${err.message.split("\n")[0]}`,
      };
    }
  }
  // The values come from policy's bounded reader, which refuses a document
  // whose aliases expand past its bound before building anything; the
  // documents parsed above serve only to place lines.
  const read = readYamlDocuments(text, { maxExpandedNodes: MAX_EXPANDED_NODES });
  if (!read.ok) {
    const { problem } = read;
    return {
      input,
      line: problem.kind === "too-large" ? undefined : problem.position?.line,
      path: "",
      value: "",
      message: `YAML: ${problem.kind === "syntax" ? problem.message : describeYamlProblem(problem)}`,
    };
  }
  const values: unknown[] = [];
  const documents: { index: number; value: unknown }[] = [];
  for (const [index, value] of read.values.entries()) {
    if (value !== null && value !== undefined) {
      values.push(value);
      documents.push({ index, value });
    }
  }
  return {
    values,
    documents,
    lineOf(index, path) {
      const doc = list[index];
      if (doc === undefined) return undefined;
      const dotted = path.replace(/\[(\d+)\]/g, ".$1");
      const keys =
        dotted === "" ? [] : dotted.split(".").map((k) => (/^\d+$/.test(k) ? Number(k) : k));
      // Walk down as far as the path exists: a missing field is reported on its parent.
      for (let n = keys.length; n >= 0; n--) {
        const node = doc.getIn(keys.slice(0, n), true) as {
          range?: [number, number, number];
        } | null;
        if (node !== null && node !== undefined && typeof node === "object" && node.range) {
          return lines.linePos(node.range[0]).line;
        }
      }
      return undefined;
    },
  };
}

export function tooLarge(input: string, size: number): InputIssue {
  return {
    input,
    line: undefined,
    path: "",
    value: `${size} characters`,
    message: `the input is larger than the playground reads (${MAX_INPUT_CHARS} characters)`,
  };
}

export function isIssue(x: unknown): x is InputIssue {
  return typeof x === "object" && x !== null && "message" in x && "input" in x;
}

export function show(value: unknown): string {
  if (value === undefined) return "(missing)";
  if (typeof value === "string") return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Exposed for the unit tests: whether the YAML reader refuses an alias bomb. */
export function yamlProblem(text: string): InputIssue | undefined {
  const r = readYaml(text, "policy");
  return isIssue(r) ? r : undefined;
}
