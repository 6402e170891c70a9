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
    ["x\u1c89", false], // a capital only since Unicode 16: Go 1.19 (Unicode 13) keeps it
    ["\ua7cb", false], // Unicode 16
    ["\u2c2f", false], // Unicode 14
    ["\u{10570}", false], // Vithkuqi, Unicode 14, outside the BMP
    ["\u2c2e", true], // its older neighbour is upper case to Go too
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
