import { describe, expect, it } from "vitest";
import { familiarMatch, pathMatch } from "./match.js";
import { parseAnyReference, parseNormalizedNamed } from "./parse.js";

describe("pathMatch (Go path.Match)", () => {
  // The table of Go's path/match_test.go: `bad` marks ErrBadPattern.
  it.each([
    ["abc", "abc", true],
    ["*", "abc", true],
    ["*c", "abc", true],
    ["a*", "a", true],
    ["a*", "abc", true],
    ["a*", "ab/c", false],
    ["a*/b", "abc/b", true],
    ["a*/b", "a/c/b", false],
    ["a*b*c*d*e*/f", "axbxcxdxe/f", true],
    ["a*b*c*d*e*/f", "axbxcxdxexxx/f", true],
    ["a*b*c*d*e*/f", "axbxcxdxe/xxx/f", false],
    ["a*b*c*d*e*/f", "axbxcxdxexxx/fff", false],
    ["a*b?c*x", "abxbbxdbxebxczzx", true],
    ["a*b?c*x", "abxbbxdbxebxczzy", false],
    ["ab[c]", "abc", true],
    ["ab[b-d]", "abc", true],
    ["ab[e-g]", "abc", false],
    ["ab[^c]", "abc", false],
    ["ab[^b-d]", "abc", false],
    ["ab[^e-g]", "abc", true],
    ["a\\*b", "a*b", true],
    ["a\\*b", "ab", false],
    ["a?b", "a☺b", true],
    ["a[^a]b", "a☺b", true],
    ["a???b", "a☺b", false],
    ["a[^a][^a][^a]b", "a☺b", false],
    ["[a-ζ]*", "α", true],
    ["*[a-ζ]", "A", false],
    ["a?b", "a/b", false],
    ["a*b", "a/b", false],
    ["[\\]a]", "]", true],
    ["[\\-]", "-", true],
    ["[x\\-]", "x", true],
    ["[x\\-]", "-", true],
    ["[x\\-]", "z", false],
    ["[\\-x]", "x", true],
    ["[\\-x]", "-", true],
    ["[\\-x]", "a", false],
    ["[]a]", "]", "bad"],
    ["[-]", "-", "bad"],
    ["[x-]", "x", "bad"],
    ["[x-]", "-", "bad"],
    ["[x-]", "z", "bad"],
    ["[-x]", "x", "bad"],
    ["[-x]", "-", "bad"],
    ["[-x]", "a", "bad"],
    ["\\", "a", "bad"],
    ["[a-b-c]", "a", "bad"],
    ["[", "a", "bad"],
    ["[^", "a", "bad"],
    ["[^bc", "a", "bad"],
    ["a[", "a", "bad"],
    ["a[", "ab", "bad"],
    ["a[", "x", "bad"],
    ["a/b[", "x", "bad"],
    ["*x", "xxx", true],
  ] as const)("%j on %j → %s", (pattern, name, want) => {
    expect(pathMatch(pattern, name)).toBe(want === "bad" ? undefined : want);
  });
});

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
