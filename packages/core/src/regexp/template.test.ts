// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Go Expand templates spell groups as ${name}.
import { describe, expect, it } from "vitest";
import { compileRegexp } from "./compile.js";
import { parseTemplate } from "./template.js";

/** Expands `template` over the leftmost match of `pattern` in `input`, as Flux's extract does. */
function expand(pattern: string, input: string, template: string): string | null {
  const re = compileRegexp(pattern);
  const m = re.findStringSubmatchIndex(input);
  return m === null ? null : re.expandString(template, input, m);
}

describe("Go Expand template rules", () => {
  it.each([
    // Literal text and $$.
    { pattern: "(a)", input: "a", template: "x$$y", want: "x$y" },
    { pattern: "(a)", input: "a", template: "", want: "" },
    { pattern: "(a)", input: "a", template: "plain", want: "plain" },
    // Numbers, including $0 and out-of-range numbers.
    { pattern: "(a)(b)", input: "ab", template: "$2$1", want: "ba" },
    { pattern: "(a)", input: "xa", template: "[$0]", want: "[a]" },
    { pattern: "(a)", input: "a", template: "$9", want: "" },
    { pattern: "(a)", input: "a", template: "$10", want: "" },
    // `$1x` is the name "1x", not group 1 then "x"; `${1}x` is group 1 then "x".
    { pattern: "(a)", input: "a", template: "$1x", want: "" },
    { pattern: "(a)", input: "a", template: "${1}x", want: "ax" },
    // A leading zero makes a name, not a number.
    { pattern: "(a)", input: "a", template: "$01", want: "" },
    // Names take the longest run of letters, digits and underscore.
    { pattern: "(?P<ts>\\d+)", input: "12", template: "$ts_", want: "" },
    { pattern: "(?P<ts>\\d+)", input: "12", template: "${ts}_", want: "12_" },
    { pattern: "(?P<ts>\\d+)", input: "12", template: "$ts-x", want: "12-x" },
    // Unicode letters are name characters.
    { pattern: "(?P<ts>\\d+)", input: "12", template: "$tsé", want: "" },
    // Malformed references keep the `$` literally and resume right after it.
    { pattern: "(a)", input: "a", template: "${1", want: "${1" },
    { pattern: "(a)", input: "a", template: "$", want: "$" },
    { pattern: "(a)", input: "a", template: "$-", want: "$-" },
    { pattern: "(a)", input: "a", template: "${}", want: "${}" },
    { pattern: "(a)", input: "a", template: "${a-b}", want: "${a-b}" },
    // JavaScript replacement syntax means nothing here.
    { pattern: "(?P<n>a)", input: "a", template: "$&", want: "$&" },
    { pattern: "(?P<n>a)", input: "a", template: "$<n>", want: "$<n>" },
    // A group that did not take part expands to nothing.
    { pattern: "(a)|(b)", input: "b", template: "<$1|$2>", want: "<|b>" },
    // Duplicate names: the first group of that name that took part.
    { pattern: "(?P<v>a)|(?P<v>b)", input: "b", template: "$v", want: "b" },
    { pattern: "(?P<v>a)(?P<v>b)", input: "ab", template: "$v", want: "a" },
    // A group named with digits is reached by number only.
    { pattern: "(?P<x>a)(?P<1>b)", input: "ab", template: "$1", want: "a" },
    // Nine digits are still a number (Go stops at 10^8 only before the next digit).
    { pattern: "(?P<123456789>a)", input: "a", template: "$123456789", want: "" },
    { pattern: "(?P<1234567890>a)", input: "a", template: "$1234567890", want: "a" },
    // The seed example.
    {
      pattern: "^RELEASE\\.(?P<timestamp>.*)Z$",
      input: "RELEASE.2024-01-02T03-04-05Z",
      template: "$timestamp",
      want: "2024-01-02T03-04-05",
    },
    // No match: no expansion at all.
    { pattern: "^x$", input: "y", template: "lit", want: null },
  ])("$pattern on $input with $template", ({ pattern, input, template, want }) => {
    expect(expand(pattern, input, template)).toBe(want);
  });
});

describe("parseTemplate", () => {
  it("merges literal text and classifies references", () => {
    expect(parseTemplate("v$1-${name}$$$")).toEqual([
      { kind: "literal", text: "v" },
      { kind: "number", group: 1 },
      { kind: "literal", text: "-" },
      { kind: "name", name: "name" },
      { kind: "literal", text: "$$" },
    ]);
  });
});

describe("compileTemplate", () => {
  it("reports the highest group it reads", () => {
    const re = compileRegexp("(a)(?P<b>b)(c)");
    expect(re.compileTemplate("x").maxGroup).toBe(-1);
    expect(re.compileTemplate("$0").maxGroup).toBe(0);
    expect(re.compileTemplate("$b").maxGroup).toBe(2);
    expect(re.compileTemplate("$9$b").maxGroup).toBe(2);
  });
});
