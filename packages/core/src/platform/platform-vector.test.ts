import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decrement } from "./platform-vector.js";

describe("decrement", () => {
  it("is n - 1 on canonical decimal text, past 2^53 and across carries", () => {
    for (const [n, want] of [
      ["1", "0"],
      ["2", "1"],
      ["10", "9"],
      ["100", "99"],
      ["1000000000000000000000", "999999999999999999999"],
      ["9223372036854775807", "9223372036854775806"],
      ["205", "204"],
      ["200", "199"],
    ]) {
      expect(decrement(n as string)).toBe(want);
    }
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), (n) => {
        expect(decrement(n.toString())).toBe((n - 1n).toString());
      }),
      { numRuns: 2000 },
    );
  });
});
