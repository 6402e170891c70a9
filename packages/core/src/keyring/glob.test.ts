import { describe, expect, it } from "vitest";
import { globMatch } from "./glob.js";

describe("globMatch (Go filepath.Match)", () => {
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
    expect(globMatch(bytes(pattern), bytes(name))).toBe(want);
  });
});
