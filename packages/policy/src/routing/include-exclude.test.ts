import { compileRegexp, requiredLiteralPrefix } from "@kubeimg/core/regexp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileIncludeExcludeFilter } from "./include-exclude.js";

describe("compileIncludeExcludeFilter", () => {
  it.each([
    { include: [], exclude: [], input: "anything", want: false }, // no pattern: matches nothing
    { include: [], exclude: ["x"], input: "anything", want: true }, // exclude-only includes .*
    { include: [], exclude: ["any.*"], input: "anything", want: false },
    { include: ["a|b"], exclude: [], input: "a", want: true }, // wrapped in a group before anchoring
    { include: ["a|b"], exclude: [], input: "ab", want: false },
    { include: ["docker\\.io/.+"], exclude: [], input: "xdocker.io/a", want: false }, // anchored
    { include: ["^docker\\.io/.+$"], exclude: [], input: "docker.io/a", want: true }, // user anchors are harmless
    { include: [".*"], exclude: [], input: "a\nb", want: false }, // Go's . does not match newline
    { include: [".+"], exclude: [], input: "", want: false },
    { include: ["(?i)DOCKER\\.io/.+"], exclude: [], input: "docker.io/a", want: true },
    {
      include: ["docker\\.io/.+"],
      exclude: [".*:latest"],
      input: "docker.io/library/nginx:1.25",
      want: true,
    },
    {
      include: ["docker\\.io/.+"],
      exclude: [".*:latest"],
      input: "docker.io/library/nginx:latest",
      want: false,
    },
  ])("$include / $exclude on $input: $want", ({ include, exclude, input, want }) => {
    expect(compileIncludeExcludeFilter(include, exclude).match(input)).toBe(want);
  });

  it("throws the regexp error of a pattern Go refuses", () => {
    expect(() => compileIncludeExcludeFilter(["(?=x)"], [])).toThrowError(
      expect.objectContaining({ code: "COMPILE_ERROR" }),
    );
  });
});

describe("requiredLiteralPrefix", () => {
  it.each([
    ["registry\\.example\\.com/.+", "registry.example.com/"],
    ["docker\\.io/library/(nginx|redis):.+", "docker.io/library/"],
    ["abc?", "ab"],
    ["abc*", "ab"],
    ["abc+", "abc"],
    ["ab{2}", "a"],
    ["a|b", ""],
    ["(a|b)c", ""],
    ["[ab]c", ""],
    ["\\d+", ""],
    ["(?i)abc", ""],
    ["abc(?i)def", "abc"],
    ["a[|]b", "a"],
    ["ab[[:alpha:](]|zz", ""], // the ( sits in a class: the | is top-level
    ["ab[]|]c", "ab"],
    ["caf\u00e9", "caf"],
    [".*", ""],
  ])("%s -> %j", (pattern, prefix) => {
    expect(requiredLiteralPrefix(pattern)).toBe(prefix);
  });

  it("never rejects a string the anchored pattern matches", () => {
    const patterns = [
      "ab?c+",
      "a\\.b/(c|d)*",
      "x[yz]+w",
      "a{2,3}b",
      "(?i)ab",
      "ab(?i)cd",
      "a\\+b",
      "a.b|c",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.stringMatching(/^[a-dA-D.+/xyzw]{0,8}$/),
        (pattern, s) => {
          if (compileRegexp(`^(${pattern})$`).matchString(s)) {
            expect(s.startsWith(requiredLiteralPrefix(pattern))).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
