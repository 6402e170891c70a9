import { describe, expect, it } from "vitest";
import { familiarMatch } from "./match.js";
import { parseAnyReference, parseNormalizedNamed } from "./parse.js";

describe("familiarMatch", () => {
  // distribution/reference normalize_test.go TestMatch.
  it.each([
    ["foo", "foo/**/ba[rz]", false],
    ["foo/any/bat", "foo/**/ba[rz]", false],
    ["foo/a/bar", "foo/**/ba[rz]", true],
    ["foo/b/baz", "foo/**/ba[rz]", true],
    ["foo/c/baz:tag", "foo/**/ba[rz]", true], // matched through the familiar name
    ["foo/c/baz:tag", "foo/*/baz:tag", true],
    ["foo/c/baz:tag", "foo/c/baz:tag", true],
    ["example.com/foo/c/baz:tag", "*/foo/c/baz", true],
    ["example.com/foo/c/baz:tag", "example.com/foo/c/baz", true],
    ["nginx:1.25", "library/*", false], // the familiar form has no library/
    ["nginx:1.25", "ngin?", true],
  ] as const)("%s against %j → %s", (reference, pattern, want) => {
    expect(familiarMatch(pattern, parseNormalizedNamed(reference))).toBe(want);
  });

  it("matches a digest-only reference on its digest", () => {
    const r = parseAnyReference(`sha256:${"a".repeat(64)}`);
    expect(familiarMatch("sha256:*", r)).toBe(true);
  });

  it("throws BAD_PATTERN for a malformed pattern", () => {
    expect(() => familiarMatch("[", parseNormalizedNamed("nginx"))).toThrow(
      expect.objectContaining({
        code: "BAD_PATTERN",
        input: "[",
        message: "syntax error in pattern",
      }),
    );
  });
});
