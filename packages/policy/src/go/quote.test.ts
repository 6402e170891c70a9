import { describe, expect, it } from "vitest";
import { quoteGo } from "./quote.js";

describe("quoteGo", () => {
  // Each expected value is what Go 1.19's fmt.Sprintf("%q", s) prints.
  it.each([
    ["", '""'],
    ["*-*", '"*-*"'],
    [">= 1.0, <2", '">= 1.0, <2"'],
    ['a"b', '"a\\"b"'],
    ["a\\b", '"a\\\\b"'],
    ["\u0007\b\t\n\u000b\f\r", '"\\a\\b\\t\\n\\v\\f\\r"'],
    ["\u0000\u001f\u007f", '"\\x00\\x1f\\x7f"'],
    ["\u0085\u00a0\u2028", '"\\u0085\\u00a0\\u2028"'],
    ["é日😀½", '"é日😀½"'],
    ["\u{e0001}", '"\\U000e0001"'],
    ["\ud800x", '"\ufffdx"'],
  ])("%j → %s", (input, quoted) => {
    expect(quoteGo(input)).toBe(quoted);
  });
});
