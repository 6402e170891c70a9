import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileBacktrack } from "./backtrack.js";
import { compileOnePass } from "./onepass.js";
import {
  type Compiled,
  compiled as compileOrUndefined,
  mustCompile,
  reference,
} from "./program.test-support.js";

function viaBacktrack(c: Compiled, input: string, ncap: number) {
  const matcher = compileBacktrack(c.prog, c.cond, c.prefix);
  if (matcher === undefined || input.length > matcher.maxLength) return "unsupported";
  const cap = new Int32Array(ncap);
  return matcher.exec(input, cap, ncap) ? [...cap] : null;
}

describe("compileBacktrack", () => {
  it.each([
    { pattern: "^RELEASE\\.(?P<ts>.*)Z$", input: "RELEASE.2024-01-01T00-00-00Z" },
    { pattern: "-(?P<n>\\d+)$", input: "main-1-200" },
    { pattern: ".*-rc.*", input: "1.0.0-rc.1" },
    { pattern: "(a+?)(a*)", input: "aaa" },
    { pattern: "(a|ab)(c|bcd)(d*)", input: "abcd" },
    { pattern: "(?i)(k+)", input: "xK\u212Ak" },
    { pattern: "\\b(\\w+)\\b", input: "  héllo world" },
    { pattern: "(?m)^(b)$", input: "a\nb\nc" },
    { pattern: "(😀|x)+", input: "a😀x😀" },
    { pattern: "abc(d)?", input: "zzabcabcd" }, // literal prefix search
    { pattern: "(a*)*", input: "b" },
    { pattern: "x*", input: "" },
  ])("$pattern on $input agrees with the Pike VM", ({ pattern, input }) => {
    const re2 = mustCompile(pattern);
    const ncap = re2.ncap;
    expect(viaBacktrack(re2, input, ncap)).toEqual(reference(re2, input));
    expect(viaBacktrack(re2, input, 0)).toEqual(reference(re2, input) === null ? null : []);
  });

  it("agrees with the Pike VM on every pattern and input of the regexp vectors", () => {
    const file = fileURLToPath(
      new URL("../../../../conformance/regexp/vectors.jsonl", import.meta.url),
    );
    let checked = 0;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const v = JSON.parse(line) as { pattern?: string; input?: string };
      if (v.pattern === undefined || v.input === undefined) continue;
      const re2 = compileOrUndefined(v.pattern);
      if (re2 === undefined) continue;
      const ncap = re2.ncap;
      const want = reference(re2, v.input);
      const got = viaBacktrack(re2, v.input, ncap);
      if (got !== "unsupported") {
        expect(got, `${v.pattern} on ${JSON.stringify(v.input)}`).toEqual(want);
        checked++;
      }
      const onepass = compileOnePass(re2.onepass);
      if (onepass !== undefined) {
        const cap = new Int32Array(ncap);
        const hit = onepass.exec(v.input, cap, ncap);
        expect(hit ? [...cap] : null, `one-pass ${v.pattern}`).toEqual(want);
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("agrees with the Pike VM on generated patterns and inputs", () => {
    const atom = fc.constantFrom(
      "a",
      "b",
      "ab",
      "[0-9]",
      "[a-c]",
      "\\d",
      "\\w",
      ".",
      "é",
      "😀",
      "(?i:k)",
      "-",
      "\\b",
      "\\B",
      "$",
      "^",
      "(?m:$)",
      "(?m:^)",
      "(?s:.)",
      "[^a]",
      "\\z",
    );
    const piece = fc
      .tuple(atom, fc.constantFrom("", "?", "*", "+", "{1,2}", "??", "*?", "+?"))
      .map(([a, q]) => (/^(\\[bBz]|\$|\^|\(\?m:[$^]\))$/.test(a) ? a : a + q));
    const group = fc
      .tuple(
        fc.array(piece, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("(", "(?:", "(?P<n>"),
        fc.constantFrom("", "|", "|b"),
        fc.constantFrom("", "*", "?", "+"),
      )
      .map(([ps, open, alt, q]) => `${open}${ps.join("")}${alt})${q}`);
    const pattern = fc
      .array(fc.oneof(piece, group), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.join(""));
    const input = fc
      .array(fc.constantFrom(..."ab09-.é😀\nK\u212A_ ".split("")), { maxLength: 10 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 5 }), (p, inputs) => {
        const re2 = compileOrUndefined(p);
        if (re2 === undefined) return;
        const ncap = re2.ncap;
        for (const s of inputs) {
          expect(viaBacktrack(re2, s, ncap), `${p} on ${JSON.stringify(s)}`).toEqual(
            reference(re2, s),
          );
        }
      }),
      { numRuns: 2000, seed: 20261121 },
    );
  });
});
