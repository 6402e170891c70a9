import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Clean, Join, Match } from "./path.js";

describe("Match (Go filepath.Match)", () => {
  it.each([
    { pattern: "abc", name: "abc", want: true },
    { pattern: "*", name: "abc", want: true },
    { pattern: "*c", name: "abc", want: true },
    { pattern: "a*", name: "a", want: true },
    { pattern: "a*/b", name: "abc/b", want: true },
    { pattern: "a*/b", name: "a/c/b", want: false },
    { pattern: "a*b*c*d*e*/f", name: "axbxcxdxe/f", want: true },
    { pattern: "ab[c]", name: "abc", want: true },
    { pattern: "ab[b-d]", name: "abc", want: true },
    { pattern: "ab[^c]", name: "abc", want: false },
    { pattern: "ab[^b-d]", name: "abe", want: true },
    { pattern: "a\\*b", name: "a*b", want: true },
    { pattern: "a\\*b", name: "ab", want: false },
    { pattern: "a?b", name: "a☺b", want: true }, // ? is one rune, not one byte
    { pattern: "a?b", name: "a/b", want: false },
    { pattern: "*x", name: "xxx", want: true },
    // Malformed patterns are errors, even when the text already failed.
    { pattern: "[", name: "a", want: undefined },
    { pattern: "[^", name: "a", want: undefined },
    { pattern: "a[", name: "a", want: undefined },
    { pattern: "[a-", name: "a", want: undefined },
    { pattern: "*x[", name: "xxx", want: undefined },
    { pattern: "a\\", name: "a", want: undefined },
    { pattern: "[]a]", name: "]", want: undefined },
    { pattern: "[-]", name: "-", want: undefined },
  ])("$pattern ~ $name", ({ pattern, name, want }) => {
    const bytes = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));
    expect(Match(bytes(pattern), bytes(name))).toBe(want);
  });
});

describe("Join / Clean", () => {
  it.each([
    { parts: ["docker.io", "/nginxinc/nginx"], want: "docker.io/nginxinc/nginx" },
    {
      parts: ["harbor.example.com", "/mirror/", "library/nginx:1.25"],
      want: "harbor.example.com/mirror/library/nginx:1.25",
    },
    { parts: ["harbor.example.com", "enix", "x"], want: "harbor.example.com/enix/x" },
    { parts: ["", "/mirror", "a"], want: "/mirror/a" },
    { parts: ["", ""], want: "" },
    { parts: ["a", ""], want: "a" },
    { parts: ["a//b", "./c", "../d"], want: "a/b/d" },
    { parts: ["..", "a"], want: "../a" },
  ])("$parts -> $want", ({ parts, want }) => {
    expect(Join(...parts)).toBe(want);
  });

  it.each([
    ["", "."],
    ["/", "/"],
    ["/../a", "/a"],
    ["a/..", "."],
    ["a/b/", "a/b"],
  ])("clean %j -> %j", (input, want) => {
    expect(Clean(input)).toBe(want);
  });
});

describe("Join in two steps", () => {
  it("joining a precomputed registry/path prefix equals joining all three at once", () => {
    // Routing joins mirror.registry and mirror.path once per CR, then the image path per entry.
    const piece = fc.stringMatching(/^[a-z./]{0,8}$/);
    const imagePath = fc.stringMatching(/^[a-z0-9]+(\/[a-z0-9]+)*(:[a-z0-9][a-z0-9.]*)?$/);
    fc.assert(
      fc.property(piece, piece, imagePath, (registry, path, image) => {
        expect(Join(Join(registry, path), image)).toBe(Join(registry, path, image));
      }),
      { numRuns: 300 },
    );
  });
});
