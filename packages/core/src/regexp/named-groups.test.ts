import { describe, expect, it } from "vitest";
import { findNamedGroups, renameDuplicateGroups } from "./named-groups.js";

describe("findNamedGroups", () => {
  it.each([
    { pattern: "(?P<a>x)(?<b>y)", want: ["a", "b"] },
    { pattern: "\\(?P<a>x)", want: [] }, // an escaped paren opens nothing
    { pattern: "[(?P<a>]x", want: [] }, // inside a class
    { pattern: "[]](?P<a>x)", want: ["a"] }, // `]` first in a class is literal
    { pattern: "[^]](?P<a>x)", want: ["a"] },
    { pattern: "[[:alpha:]](?P<a>x)", want: ["a"] },
    { pattern: "\\Q(?P<a>x)\\E(?P<b>y)", want: ["b"] },
    { pattern: "(?<=x)(?<!y)", want: [] }, // lookbehind is not a name
  ])("$pattern", ({ pattern, want }) => {
    expect(findNamedGroups(pattern).map((s) => s.name)).toEqual(want);
  });
});

describe("renameDuplicateGroups", () => {
  it("renames repeats only, avoiding names already in use", () => {
    const { pattern, originals } = renameDuplicateGroups("(?P<v>a)(?P<v_dup1>b)(?P<v>c)");
    expect(pattern).toBe("(?P<v>a)(?P<v_dup1>b)(?P<v_dup2>c)");
    expect([...originals]).toEqual([["v_dup2", "v"]]);
  });

  it("leaves invalid names for the parser to reject", () => {
    expect(renameDuplicateGroups("(?P<>a)(?P<>b)").pattern).toBe("(?P<>a)(?P<>b)");
  });
});
