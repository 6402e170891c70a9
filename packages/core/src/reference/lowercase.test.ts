import { describe, expect, it } from "vitest";
import { hasUpperCase, toLowerAscii } from "./lowercase.js";

describe("hasUpperCase (Go: strings.ToLower(s) != s)", () => {
  it.each([
    ["abc", false],
    ["aBc", true],
    ["é", false],
    ["É", true],
    ["\u0130", true], // İ
    ["\u212a", true], // Kelvin sign
    ["𑢠", true], // Warang Citi capital letter A, outside the BMP
    ["日本", false],
    ["\ud800", false], // a lone surrogate is left alone
  ])("%j → %s", (s, want) => {
    expect(hasUpperCase(s, 0, s.length)).toBe(want);
  });
});

describe("toLowerAscii", () => {
  it.each([
    ["ABC/def:Ghi", "abc/def:ghi"],
    ["\u0130mage", "image"], // Go lowers U+0130 to a plain "i"
    ["\u212aube", "kube"],
    ["Émile", undefined], // stays non-ASCII: can never match the grammar
  ])("%j → %j", (s, want) => {
    expect(toLowerAscii(s)).toBe(want);
  });
});
