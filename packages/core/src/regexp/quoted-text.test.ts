import { describe, expect, it } from "vitest";
import { skipQuotedText } from "./quoted-text.js";

describe("skipQuotedText", () => {
  it.each([
    ["a\\Q(?P<x>\\Eb", 1, 11],
    ["\\Q\\E", 0, 4],
    ["\\Q[:]", 0, 5],
    ["x\\Qa\\Eb\\Ec", 1, 6],
  ])("%j from %i → %i", (pattern, at, after) => {
    expect(skipQuotedText(pattern, at)).toBe(after);
  });
});
