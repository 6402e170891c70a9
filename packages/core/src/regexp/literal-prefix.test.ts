/**
 * The literal-prefix precheck against running the pattern: over the regexp
 * and tagpolicy vectors' patterns (as kuik wraps them, `^(P)$`, and as Flux
 * runs them when they start with `^`), no string the pattern matches lacks
 * the prefix, so refusing strings without it changes no answer.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRegexp, type GoRegexp } from "./compile.js";
import { requiredLiteralPrefix } from "./literal-prefix.js";

function vectors(suite: string): { pattern: string; inputs: string[] }[] {
  const url = new URL(`../../../../conformance/${suite}/vectors.jsonl`, import.meta.url);
  const out: { pattern: string; inputs: string[] }[] = [];
  for (const line of readFileSync(url, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const v = JSON.parse(line) as {
      pattern?: string;
      input?: string;
      tags?: string[];
      filterTags?: { pattern?: string };
    };
    const pattern = v.pattern ?? v.filterTags?.pattern;
    if (typeof pattern !== "string") continue;
    out.push({ pattern, inputs: [...(v.input === undefined ? [] : [v.input]), ...(v.tags ?? [])] });
  }
  return out;
}

function compiles(pattern: string): GoRegexp | undefined {
  try {
    return compileRegexp(pattern);
  } catch {
    return undefined;
  }
}

const all = [...vectors("regexp"), ...vectors("tagpolicy")];
/** Each usable pattern with the prefix the fast path trusts and the regexp it stands for. */
const cases = all.flatMap(({ pattern, inputs }) => {
  const out: { prefix: string; re: GoRegexp; inputs: string[] }[] = [];
  const wrapped = compiles(`^(${pattern})$`);
  if (wrapped) out.push({ prefix: requiredLiteralPrefix(pattern), re: wrapped, inputs });
  const flux = pattern.startsWith("^") ? compiles(pattern) : undefined;
  if (flux) out.push({ prefix: requiredLiteralPrefix(pattern.slice(1)), re: flux, inputs });
  return out;
});

describe("requiredLiteralPrefix over the vectors' patterns", () => {
  it("finds a prefix for some of them", () => {
    expect(cases.filter((c) => c.prefix !== "").length).toBeGreaterThan(50);
  });

  it("never refuses a string the pattern matches (the vectors' own inputs)", () => {
    for (const { prefix, re, inputs } of cases) {
      for (const s of inputs) if (re.matchString(s)) expect(s.startsWith(prefix)).toBe(true);
    }
  });

  it("never refuses a string the pattern matches (strings built from the prefix)", () => {
    const withPrefix = cases.filter((c) => c.prefix !== "");
    fc.assert(
      fc.property(
        fc.constantFrom(...withPrefix),
        fc.nat(12),
        fc.stringMatching(/^[a-z0-9.\-_/:vV]{0,10}$/),
        ({ prefix, re }, cut, tail) => {
          const s = prefix.slice(0, cut) + tail;
          if (re.matchString(s)) expect(s.startsWith(prefix)).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
