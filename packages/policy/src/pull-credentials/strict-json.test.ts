import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonValue, parseStrictJson } from "./strict-json.js";

function toPlain(v: JsonValue): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, toPlain(x)]));
  if (Array.isArray(v)) return v.map(toPlain);
  return v;
}

describe("parseStrictJson", () => {
  it("agrees with JSON.parse on JSON without repeated keys", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(toPlain(parseStrictJson(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    '{"a":1,"a":2}',
    '{"a":{"b":1,"b":1}}',
    '[{"x":1,"x":1}]',
    "{} {}",
    "[1,]",
    "01",
    "1.",
    ".5",
    "+1",
    "NaN",
    '"\\u12"',
    "'a'",
    "\u00a0{}",
    "",
  ])("rejects %j", (text) => {
    expect(() => parseStrictJson(text)).toThrow();
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    expect(() => parseStrictJson("[".repeat(200_000))).toThrow(/depth|nesting/);
  });
});
