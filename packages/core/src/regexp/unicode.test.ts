import { describe, expect, it } from "vitest";
import { compileRegexp } from "./compile.js";
import { caseMapping, simpleFold, unicodeTable } from "./unicode.js";

/** Every code point equivalent to `r` under simple folding, by walking the orbit. */
function orbit(r: number): number[] {
  const out = [r];
  for (let f = simpleFold(r); f !== r; f = simpleFold(f)) out.push(f);
  return out;
}

describe("simpleFold (Go's unicode.SimpleFold over Unicode 13 tables)", () => {
  it.each([
    [0x41, [0x41, 0x61]],
    [0x4b, [0x4b, 0x6b, 0x212a]], // K k Kelvin sign
    [0x53, [0x53, 0x73, 0x17f]], // S s long s
    [0x3a3, [0x3a3, 0x3c2, 0x3c3]], // Σ ς σ
    [0xb5, [0xb5, 0x39c, 0x3bc]], // micro sign, Μ, μ
    [0x1c4, [0x1c4, 0x1c5, 0x1c6]], // Ǆ ǅ ǆ
    [0xdf, [0xdf, 0x1e9e]], // ß ẞ
    [0x1e921, [0x1e921, 0x1e943]], // Adlam
    [0x31, [0x31]],
    [0x10ffff, [0x10ffff]],
  ])("orbit of %i", (r, want) => {
    expect(orbit(r)).toEqual(want);
  });

  it("walks orbits in increasing order with wrap-around, as Go documents", () => {
    expect(simpleFold(0x6b)).toBe(0x212a);
    expect(simpleFold(0x212a)).toBe(0x4b);
    expect(simpleFold(-1)).toBe(-1);
  });

  it("maps cases by Go's CaseRanges, UpperLower runs included", () => {
    expect(caseMapping.upper(0x61)).toBe(0x41);
    expect(caseMapping.lower(0x100)).toBe(0x101); // Ā ā, an UpperLower run
    expect(caseMapping.upper(0x101)).toBe(0x100);
    expect(caseMapping.lower(0x101)).toBe(0x101);
  });
});

describe("unicodeTable", () => {
  it("knows Go's category and script names and no others", () => {
    for (const name of [
      "L",
      "Lu",
      "Nd",
      "Zs",
      "C",
      "Co",
      "Greek",
      "Han",
      "Latin",
      "Common",
      "Any",
    ]) {
      expect(unicodeTable(name), name).toBeDefined();
    }
    for (const name of [
      "",
      "Foo",
      "IsGreek",
      "greek",
      "LC",
      "Cn",
      "X",
      "__proto__",
      "constructor",
    ]) {
      expect(unicodeTable(name), name).toBeUndefined();
    }
  });

  it("gives fold tables only where Go has them", () => {
    expect(unicodeTable("Lu")?.fold).toBeDefined();
    expect(unicodeTable("Greek")?.fold).toBeDefined();
    expect(unicodeTable("Nd")?.fold).toBeUndefined();
    expect(unicodeTable("Han")?.fold).toBeUndefined();
  });

  it("answers from Unicode 13 whatever the runtime knows", () => {
    // U+1FAE0 (melting face) was assigned in Unicode 14: not in Go 1.19's So.
    expect(compileRegexp("\\p{So}").matchString("\u{1FAE0}")).toBe(false);
    expect(compileRegexp("\\p{So}").matchString("😀")).toBe(true);
    // U+0870 (Arabic letter alef with attached fatha) is Unicode 14 too.
    expect(compileRegexp("\\p{Arabic}").matchString("\u0870")).toBe(false);
    expect(compileRegexp("\\p{Arabic}").matchString("\u0627")).toBe(true);
    expect(compileRegexp("^\\p{L}+$").matchString("héllo漢字Ωд")).toBe(true);
    expect(compileRegexp("^\\p{Lu}$").matchString("\u01C5")).toBe(false); // ǅ is Lt
    expect(compileRegexp("^(?i)\\p{Lu}$").matchString("\u01C5")).toBe(true); // folds to Ǆ
  });
});
