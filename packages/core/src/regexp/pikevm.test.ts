import { describe, expect, it } from "vitest";
import { compilePike } from "./pikevm.js";
import { mustCompile, reference } from "./program.test-support.js";

describe("compilePike", () => {
  it.each([
    { pattern: "(a+)+$", input: `${"a".repeat(20_000)}!` },
    { pattern: "(x+x+)+y", input: "x".repeat(20_000) },
    { pattern: "(a|aa)*b", input: "a".repeat(20_000) },
    { pattern: "^(\\w+\\s?)*$", input: `${"word ".repeat(4_000)}!` },
    { pattern: "(.*a){12}", input: "a".repeat(20_000) },
  ])("stays linear on the catastrophic $pattern", ({ pattern, input }) => {
    const c = mustCompile(pattern);
    const vm = compilePike(c.prog, c.cond, c.prefix);
    const cap = new Int32Array(c.ncap);
    vm.exec(input, 0, cap, c.ncap);
    // A backtracking engine takes exponential steps here; the Pike VM adds
    // each instruction at most once per input position.
    expect(vm.steps()).toBeLessThanOrEqual((input.length + 1) * c.prog.inst.length);
    vm.exec(input, 0, cap, 0);
    expect(vm.steps()).toBeLessThanOrEqual((input.length + 1) * c.prog.inst.length);
  });

  it("searches from a later position with the context of the character before it", () => {
    const c = mustCompile("\\b(b)|^a");
    const vm = compilePike(c.prog, c.cond, c.prefix);
    const cap = new Int32Array(c.ncap);
    expect(vm.exec("ab b", 1, cap, c.ncap)).toBe(true);
    expect([...cap]).toEqual([3, 4, 3, 4]); // no word boundary between a and b
    expect(vm.exec("ab", 1, cap, c.ncap)).toBe(false); // ^ does not hold at 1
  });

  it("skips to the literal prefix and reads astral characters as one", () => {
    const c = mustCompile("abc(😀.)");
    expect(c.prefix).toBe("abc😀");
    expect(reference(c, "xxabc😀😀")).toEqual([2, 9, 5, 9]);
    expect(reference(c, "abc😀")).toBeNull();
  });
});
