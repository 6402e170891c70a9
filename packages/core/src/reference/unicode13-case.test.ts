import { describe, expect, it } from "vitest";
import { lowerCaseChanges, UNICODE13_UPPER_RUNS } from "./unicode13-case.js";

describe("lowerCaseChanges (Go 1.19: unicode.ToLower(r) != r)", () => {
  it.each([
    [0x00c0, true], // À, first of a run
    [0x00d6, true], // Ö, last of that run
    [0x00d7, false], // × sits between two runs
    [0x00df, false], // ß has no simple lower-case form
    [0x0100, true], // Ā, an even member of a step-2 run
    [0x0101, false], // ā, the odd member in between
    [0x0130, true], // İ lowers to "i"
    [0x0131, false], // ı is already lower case
    [0x03a3, true], // Σ
    [0x01c5, true], // ǅ, a title-case letter, lowers to ǆ
    [0x212a, true], // Kelvin sign
    [0x2c2e, true],
    [0x2c2f, false], // added in Unicode 14
    [0x1c89, false], // added in Unicode 16
    [0xa7c0, false], // added in Unicode 14
    [0x10400, true], // Deseret, outside the BMP
    [0x10570, false], // Vithkuqi, Unicode 14
    [0x1e921, true], // Adlam, the last capital of Unicode 13
    [0x1e922, false],
    [0x10ffff, false],
  ])("U+%s → %s", (codePoint, want) => {
    expect(lowerCaseChanges(codePoint)).toBe(want);
  });

  it("keeps the runs sorted, disjoint and stepped as declared", () => {
    let previous = 0x7f;
    for (const [first, last, step] of UNICODE13_UPPER_RUNS) {
      expect(first).toBeGreaterThan(previous);
      expect(last).toBeGreaterThanOrEqual(first);
      expect((last - first) % step).toBe(0);
      previous = last;
    }
  });
});
