import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileOnePass } from "./onepass.js";
import { compiled, mustCompile, reference as pike } from "./program.test-support.js";

/** The Pike VM's answer (Go's semantics): the reference for the fast executor. */
function reference(pattern: string, input: string): number[] | null {
  return pike(mustCompile(pattern), input);
}

function fast(pattern: string, input: string): number[] | null | "not one-pass" {
  const c = mustCompile(pattern);
  const matcher = compileOnePass(c.onepass);
  if (matcher === undefined) return "not one-pass";
  const ncap = c.ncap;
  const cap = new Int32Array(ncap);
  return matcher.exec(input, cap, ncap) ? [...cap] : null;
}

describe("compileOnePass", () => {
  it.each([
    { pattern: "^v?(?P<v>[0-9]+\\.[0-9]+\\.[0-9]+)(-rc\\.[0-9]+)?$", input: "v1.2.3-rc.4" },
    { pattern: "^v?(?P<v>[0-9]+\\.[0-9]+\\.[0-9]+)(-rc\\.[0-9]+)?$", input: "1.2.3-alpine" },
    { pattern: "^main-[0-9a-f]+-(?P<ts>[0-9]+)$", input: "main-abc1234-1700000000" },
    { pattern: "^(?i)k(é)\\b", input: "\u212Aé", onePass: false },
    { pattern: "^a(?:b|c)d$", input: "acd" },
    { pattern: "^x(😀+)y", input: "x😀😀y", onePass: false },
    // Go takes a program as one-pass only when every way to Match ends in `$`/`\z`.
    { pattern: "^x(😀)y", input: "x😀y", onePass: false },
    { pattern: "^x(😀)y$", input: "x😀y" },
    { pattern: "^(?i)k(é)$", input: "\u212Aé" },
    { pattern: "^(a)(b)?$", input: "a" },
    { pattern: "^\\w+\\b$", input: "ab\n" },
    { pattern: "^(?m)a$", input: "a\nb", onePass: false },
    { pattern: "^(?m)a$\n", input: "a\nb", onePass: false },
    { pattern: "^(?m)a$\n\\z", input: "a\n" },
    { pattern: "^(?m)a$\n\\z", input: "a\nb" },
  ] as { pattern: string; input: string; onePass?: boolean }[])(
    "$pattern on $input agrees with the Pike VM",
    ({ pattern, input, onePass = true }) => {
      const got = fast(pattern, input);
      if (!onePass) {
        expect(got).toBe("not one-pass");
        return;
      }
      expect(got).toEqual(reference(pattern, input));
    },
  );

  it("declines patterns that are not one-pass", () => {
    expect(fast("^RELEASE\\.(?P<ts>.*)Z$", "RELEASE.1Z")).toBe("not one-pass");
    expect(fast("a+", "a")).toBe("not one-pass"); // unanchored
  });

  it("agrees with the Pike VM on generated anchored patterns and inputs", () => {
    const atom = fc.constantFrom(
      "a",
      "b",
      "[0-9]",
      "[a-c]",
      "\\d",
      "\\w",
      ".",
      "é",
      "😀",
      "(?i:k)",
      "\\.",
      "-",
      "\\b",
      "$",
      "(?m:$)",
      "(?s:.)",
      "[^a]",
    );
    const piece = fc
      .tuple(atom, fc.constantFrom("", "?", "*", "+", "{2}", "??"))
      .map(([a, q]) => (a === "\\b" || a === "$" || a === "(?m:$)" ? a : a + q));
    const group = fc
      .tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.constantFrom("(", "(?:", "(?P<n>"))
      .map(([ps, open]) => `${open}${ps.join("")})${""}`);
    const pattern = fc
      .array(fc.oneof(piece, group), { minLength: 1, maxLength: 5 })
      .map((parts) => `^${parts.join("")}$`);
    const input = fc
      .array(fc.constantFrom(..."ab09-.é😀\nK\u212A_ ".split("")), { maxLength: 8 })
      .map((cs) => cs.join(""));
    let checked = 0;
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (p, inputs) => {
        if (compiled(p) === undefined) return;
        for (const s of inputs) {
          const got = fast(p, s);
          if (got === "not one-pass") return;
          checked++;
          expect(got, `${p} on ${JSON.stringify(s)}`).toEqual(reference(p, s));
        }
      }),
      { numRuns: 1500, seed: 20261121 },
    );
    expect(checked).toBeGreaterThan(300);
  });

  it("runs the DFA exactly as the instruction walk, on the vectors' one-pass patterns", () => {
    const url = new URL("../../../../conformance/regexp/vectors.jsonl", import.meta.url);
    const patterns = new Set<string>([
      "^v?(?P<v>[0-9]+\\.[0-9]+\\.[0-9]+)(-rc\\.[0-9]+)?$",
      "^main-[0-9a-f]+-(?P<ts>[0-9]+)$",
    ]);
    for (const line of readFileSync(url, "utf8").split("\n")) {
      if (line.trim() !== "") patterns.add((JSON.parse(line) as { pattern: string }).pattern);
    }
    const matchers = [...patterns].flatMap((p) => {
      const c = compiled(p);
      const m = c && compileOnePass(c.onepass);
      return c && m?.hasDfa ? [{ m, ncap: c.ncap }] : [];
    });
    expect(matchers.length).toBeGreaterThan(20);
    const input = fc.stringMatching(/^[a-z0-9.\-_vV+\n]{0,14}$/);
    fc.assert(
      fc.property(fc.constantFrom(...matchers), input, fc.nat(8), ({ m, ncap }, s, k) => {
        const n = Math.min(ncap, 2 * k);
        const a = new Int32Array(ncap);
        const b = new Int32Array(ncap);
        expect(m.exec(s, a, n)).toBe(m.execSteps(s, b, n));
        expect([...a.subarray(0, n)]).toEqual([...b.subarray(0, n)]);
      }),
      { numRuns: 5000 },
    );
  });
});
