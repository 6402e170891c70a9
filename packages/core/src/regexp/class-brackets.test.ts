import { describe, expect, it } from "vitest";
import { escapeClassBrackets, restoreClassBrackets } from "./class-brackets.js";

describe("escapeClassBrackets", () => {
  it.each([
    // Go reads `[` then `:` then the closing `]`: no `:]` follows the `[:`.
    { pattern: "[[:]]", want: "[\\[:]]", badName: undefined },
    { pattern: "a[^[:]b]", want: "a[^\\[:]b]", badName: undefined },
    { pattern: "[x[:]", want: "[x\\[:]", badName: undefined },
    { pattern: "[:]|[x[:]]", want: "[:]|[x\\[:]]", badName: undefined },
    // A later `:]` makes Go read the name `[:]:]`, which it rejects.
    { pattern: "[[:]:]]", want: "[[:]:]]", badName: "[:]:]" },
    { pattern: "[[:][:]]", want: "[[:][:]]", badName: "[:][:]" },
    { pattern: "[[:]]|[[:]]", want: "[[:]]|[[:]]", badName: "[:]]|[[:]" },
    // Not inside a class, or not where Go looks for a POSIX class.
    { pattern: "[:]", want: "[:]", badName: undefined },
    { pattern: "\\[[:]", want: "\\[[:]", badName: undefined },
    { pattern: "\\Q[[:]]\\E", want: "\\Q[[:]]\\E", badName: undefined },
    { pattern: "(?P<[[:]>x)", want: "(?P<[[:]>x)", badName: undefined },
    { pattern: "[a-[:]]", want: "[a-[:]]", badName: undefined }, // `[` is the range's high end
    { pattern: "[\\x{41}-[:]]", want: "[\\x{41}-[:]]", badName: undefined },
    // After a class escape, `-` is a character of its own, never a range.
    { pattern: "[\\d-[:]", want: "[\\d-\\[:]", badName: undefined },
    { pattern: "[\\p{Greek}-[:]", want: "[\\p{Greek}-\\[:]", badName: undefined },
    { pattern: "[[:alpha:]-[:]", want: "[[:alpha:]-\\[:]", badName: undefined },
    { pattern: "[\\[:]]", want: "[\\[:]]", badName: undefined },
    { pattern: "[\\p{[}[:]]", want: "[\\p{[}\\[:]]", badName: undefined },
    { pattern: "[[:alpha:]]", want: "[[:alpha:]]", badName: undefined },
    // Go's `\x` takes the next two characters, whatever they are.
    { pattern: "\\x[[:]]", want: "\\x[[:]]", badName: undefined },
    { pattern: "\\p[[:]]", want: "\\p[[:]]", badName: undefined },
    { pattern: "[\\x[[:]]", want: "[\\x[[:]]", badName: undefined },
    { pattern: "[][:]]", want: "[]\\[:]]", badName: undefined }, // `]` first is literal
    { pattern: "[]][:]]", want: "[]][:]]", badName: undefined }, // `[:]` outside a class
  ])("$pattern", ({ pattern, want, badName }) => {
    const rewrite = escapeClassBrackets(pattern);
    expect(rewrite.pattern).toBe(want);
    expect(rewrite.badName).toBe(badName);
  });
});

describe("restoreClassBrackets", () => {
  it.each([
    { pattern: "[[:]a(", fragment: "[\\[:]a(", want: "[[:]a(" },
    { pattern: "x[:]|[y[:]](", fragment: "]|[y\\[:]](", want: "]|[y[:]](" },
    { pattern: "[[:]]a**", fragment: "**", want: "**" },
    { pattern: "a**", fragment: "**", want: "**" },
  ])("$fragment in $pattern", ({ pattern, fragment, want }) => {
    expect(restoreClassBrackets(fragment, escapeClassBrackets(pattern))).toBe(want);
  });
});
