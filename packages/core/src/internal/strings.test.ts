import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Compare, ToLower } from "./strings.js";

/** The order Go gives: the UTF-8 bytes, compared one by one. */
function utf8Compare(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
  }
  return Math.sign(x.length - y.length);
}

describe("Compare", () => {
  it.each([
    { a: "a", b: "b", want: -1 },
    { a: "ab", b: "a", want: 1 },
    { a: "é", b: "z", want: 1 },
    { a: "same", b: "same", want: 0 },
    // Where UTF-16 and UTF-8 disagree: a supplementary character sorts after U+E000..U+FFFF.
    { a: "\uFF01", b: "😀", want: -1 },
    { a: "\uffff", b: "😀", want: -1 },
    { a: "😀", b: "\uE000", want: 1 },
  ])("$a vs $b → $want", ({ a, b, want }) => {
    expect(Compare(a, b)).toBe(want);
  });

  it("orders by UTF-8 bytes on any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        expect(Compare(a, b)).toBe(utf8Compare(a, b));
      }),
    );
  });
});

describe("ToLower (Go strings.ToLower)", () => {
  it.each([
    ["LINUX", "linux"],
    ["İOS", "ios"],
    ["ΣΑΣ", "σασ"],
    ["ǅ", "ǆ"],
    ["\u1c89", "\u1c89"], // a capital only since Unicode 16
    ["plain", "plain"],
  ])("%j is %j", (s, want) => {
    expect(ToLower(s)).toBe(want);
  });
});
