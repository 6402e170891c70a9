/** The References view: Go's distribution/reference answers, one row per line. */

import {
  defaultPullPolicy,
  familiarString,
  ImageReferenceError,
  parseNormalizedNamed,
} from "@kubeimg/core/reference";
import { type InputIssue, MAX_INPUT_CHARS, tooLarge } from "./input.js";

export interface ReferenceRow {
  readonly line: number;
  readonly input: string;
  readonly normalized: string | undefined;
  readonly familiar: string | undefined;
  readonly tag: string | undefined;
  readonly digest: string | undefined;
  readonly pullPolicy: string | undefined;
  /** The exact error Go's distribution/reference reports, with its stable code. */
  readonly error: { readonly code: string; readonly message: string } | undefined;
}

export interface ReferencesResult {
  readonly kind: "references";
  readonly issues: readonly InputIssue[];
  readonly rows: readonly ReferenceRow[];
}

/** The rows shown at most; a longer paste is answered for its first lines. */
export const MAX_REFERENCE_ROWS = 2000;

/** Runs the References view: one row per non-empty line. */
export function runReferences(text: string): ReferencesResult {
  if (text.length > MAX_INPUT_CHARS) {
    return { kind: "references", issues: [tooLarge("refs", text.length)], rows: [] };
  }
  const rows: ReferenceRow[] = [];
  const issues: InputIssue[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && rows.length < MAX_REFERENCE_ROWS; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === "" || raw.startsWith("#")) continue;
    try {
      const named = parseNormalizedNamed(raw);
      rows.push({
        line: i + 1,
        input: raw,
        normalized: named.string,
        familiar: familiarString(named),
        tag: named.tag,
        digest: named.digest,
        pullPolicy: defaultPullPolicy(raw),
        error: undefined,
      });
    } catch (error) {
      if (!(error instanceof ImageReferenceError)) throw error;
      rows.push({
        line: i + 1,
        input: raw,
        normalized: undefined,
        familiar: undefined,
        tag: undefined,
        digest: undefined,
        pullPolicy: undefined,
        error: { code: error.code, message: error.message },
      });
      issues.push({
        input: "refs",
        line: i + 1,
        path: "",
        value: JSON.stringify(raw),
        message: error.message,
      });
    }
  }
  return { kind: "references", issues, rows };
}
