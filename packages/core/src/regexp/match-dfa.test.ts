import { seededRandom as seeded } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import { compileMatchDfa } from "./match-dfa.js";
import { grammarCase } from "./pattern-grammar.test-support.js";
import { compiled, mustCompile, reference } from "./program.test-support.js";

function dfaAnswer(pattern: string, input: string): boolean | undefined | "declined" {
  const c = mustCompile(pattern);
  const dfa = compileMatchDfa(c.prog, c.cond);
  return dfa === undefined ? "declined" : dfa.test(input);
}

describe("compileMatchDfa", () => {
  it.each([
    { pattern: ".*-rc.*", input: "1.0.0-rc.1", want: true },
    { pattern: ".*-rc.*", input: "1.0.0", want: false },
    { pattern: "(nginx|pause):[0-9]", input: "docker.io/library/nginx:1.25", want: true },
    { pattern: "(?i)ALPINE", input: "3.19-alpine", want: true },
    { pattern: "(?i)k", input: "\u212A", want: true },
    { pattern: "^a|b$", input: "xab", want: true },
    { pattern: "^a|b$", input: "xbx", want: false },
    { pattern: "^(docker\\.io/.+|ghcr\\.io/.*)$", input: "ghcr.io/", want: true },
    { pattern: "^(docker\\.io/.+|ghcr\\.io/.*)$", input: "docker.io/", want: false },
    { pattern: "x*$", input: "", want: true },
    { pattern: "^$", input: "", want: true },
    { pattern: "^$", input: "\n", want: false },
    { pattern: "$^", input: "", want: true },
    { pattern: "a$^", input: "a", want: false },
    { pattern: "😀+z", input: "a😀😀z", want: true },
    { pattern: "[^a]", input: "\uD800", want: true }, // a lone surrogate is one character
  ])("$pattern on $input", ({ pattern, input, want }) => {
    expect(dfaAnswer(pattern, input)).toBe(want);
  });

  it("declines the assertions it does not model", () => {
    expect(dfaAnswer("\\bx", "x")).toBe("declined");
    expect(dfaAnswer("(?m)^x", "x")).toBe("declined");
  });

  it("gives the Pike VM's answer on the grammar's patterns", () => {
    const random = seeded(7);
    let checked = 0;
    for (let k = 0; k < 3000; k++) {
      const g = grammarCase(random);
      const c = compiled(g.pattern);
      if (c === undefined) continue;
      const dfa = compileMatchDfa(c.prog, c.cond);
      if (dfa === undefined) continue;
      for (const s of g.inputs) {
        const got = dfa.test(s);
        if (got === undefined) continue;
        expect(got, `${g.pattern} on ${JSON.stringify(s)}`).toBe(reference(c, s, 0) !== null);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it("gives up past its state bound instead of growing without limit", () => {
    // (a|b)*a(a|b){12}: a DFA needs 2^13 states to tell where the match may end.
    const c = mustCompile("(a|b)*a(a|b){12}c");
    const dfa = compileMatchDfa(c.prog, c.cond);
    let s = "";
    const random = seeded(3);
    for (let i = 0; i < 20_000; i++) s += random() < 0.5 ? "a" : "b";
    expect(dfa?.test(s)).toBeUndefined();
    expect(reference(c, `${s}c`, 0)).not.toBeNull();
  });
});
