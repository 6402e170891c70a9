import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldFieldName, type GoJsonValue, parseGoJson } from "./go-json.js";

function plain(value: GoJsonValue): unknown {
  switch (value.kind) {
    case "object":
      return Object.fromEntries(value.members.map(([k, v]) => [k, plain(v)]));
    case "array":
      return value.items.map(plain);
    case "string":
      return value.value;
    case "number":
      return Number(value.text);
    case "boolean":
      return value.value;
    case "null":
      return null;
  }
}

const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

describe("parseGoJson", () => {
  it("agrees with JSON.parse on JSON without repeated members", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(plain(parseGoJson(text))).toEqual(JSON.parse(wellFormed(text)));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps repeated members in order", () => {
    expect(parseGoJson('{"a":1,"A":2,"a":3}')).toEqual({
      kind: "object",
      members: [
        ["a", { kind: "number", text: "1" }],
        ["A", { kind: "number", text: "2" }],
        ["a", { kind: "number", text: "3" }],
      ],
    });
  });

  it.each([
    { text: '"\\ud83d\\ude00"', want: "😀" },
    { text: '"\\ud83d"', want: "\uFFFD" },
    { text: '"\\ude00\\ud83d"', want: "\uFFFD\uFFFD" },
    { text: '"\\ud83dx"', want: "\uFFFDx" },
  ])("decodes surrogate escapes as Go: $text", ({ text, want }) => {
    expect(parseGoJson(text)).toEqual({ kind: "string", value: want });
  });

  it.each(["", "{", '{"a":01}', '"\\x"', '"a\tb"', "[1,]", "nul", "{} {}", "\uFEFF{}"])(
    "rejects %j",
    (text) => {
      expect(() => parseGoJson(text)).toThrow();
    },
  );

  it("folds names as encoding/json matches fields", () => {
    expect(foldFieldName("uſername")).toBe(foldFieldName("USERNAME"));
    expect(foldFieldName("Auths")).toBe("AUTHS");
    expect(foldFieldName("authé")).not.toBe(foldFieldName("AUTHE"));
  });
});
