import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Decode,
  FoldName,
  JsonSyntaxError,
  MarshalStringMap,
  members,
  Quote,
  type StrictValue,
  strict,
  type Value,
} from "./json.js";
import { toWellFormed } from "./utf8.js";

function plain(value: Value): unknown {
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

describe("Decode with members", () => {
  it("agrees with JSON.parse on JSON without repeated members", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(plain(Decode(toWellFormed(text), members))).toEqual(JSON.parse(wellFormed(text)));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps repeated members in order", () => {
    expect(Decode('{"a":1,"A":2,"a":3}', members)).toEqual({
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
    expect(Decode(toWellFormed(text), members)).toEqual({ kind: "string", value: want });
  });

  it.each(["", "{", '{"a":01}', '"\\x"', '"a\tb"', "[1,]", "nul", "{} {}", "\uFEFF{}"])(
    "rejects %j",
    (text) => {
      expect(() => Decode(toWellFormed(text), members)).toThrow();
    },
  );

  it("folds names as encoding/json matches fields", () => {
    expect(FoldName("uſername")).toBe(FoldName("USERNAME"));
    expect(FoldName("Auths")).toBe("AUTHS");
    expect(FoldName("authé")).not.toBe(FoldName("AUTHE"));
  });

  it("folds every code point on its own: ASCII letters up, ſ to S, the Kelvin sign to K", () => {
    const byCodePoint = (name: string) =>
      [...name]
        .map((ch) =>
          ch >= "a" && ch <= "z"
            ? ch.toUpperCase()
            : ch === "\u017f"
              ? "S"
              : ch === "\u212a"
                ? "K"
                : ch,
        )
        .join("");
    const letters = fc.constantFrom(
      "a",
      "z",
      "A",
      "_",
      "-",
      "é",
      "\u017f",
      "\u212a",
      "\u0130",
      "😀",
      "\ud800",
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: letters })),
        (name) => {
          expect(FoldName(name)).toBe(byCodePoint(name));
        },
      ),
    );
  });
});

function toPlain(v: StrictValue): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, toPlain(x)]));
  if (Array.isArray(v)) return v.map(toPlain);
  return v;
}

describe("Decode with strict", () => {
  it("agrees with JSON.parse on JSON without repeated keys", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(toPlain(Decode(text, strict))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps __proto__ as a plain key", () => {
    const value = Decode('{"__proto__":{"x":1}}', strict);
    expect(value instanceof Map && value.get("__proto__")).toEqual(new Map([["x", 1]]));
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
    expect(() => Decode(text, strict)).toThrow(JsonSyntaxError);
  });

  it("names the offset of a repeated key", () => {
    expect(() => Decode('{"a":1, "a":2}', strict)).toThrow(
      expect.objectContaining({ Offset: 8, message: 'duplicate field "a" at offset 8' }),
    );
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    expect(() => Decode("[".repeat(200_000), strict)).toThrow(/depth|nesting/);
  });
});

describe("Quote", () => {
  it("agrees with JSON.parse on well-formed strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(JSON.parse(Quote(s, "go1.19"))).toBe(s);
        expect(JSON.parse(Quote(s, "go1.22"))).toBe(s);
      }),
    );
  });

  // Expected values are what Go 1.19's encoding/json writes (and Go 1.22's, where they differ).
  it.each([
    {
      name: "backspace and form feed",
      in: "a\bb\fc",
      go119: '"a\\u0008b\\u000cc"',
      go122: '"a\\bb\\fc"',
    },
    {
      name: "other control characters, DEL raw",
      in: "\u0000\u0001\u001f\u007f",
      go119: '"\\u0000\\u0001\\u001f\u007f"',
    },
    { name: "HTML-safe", in: "<a&b>", go119: '"\\u003ca\\u0026b\\u003e"' },
    { name: "line and paragraph separators", in: "\u2028\u2029", go119: '"\\u2028\\u2029"' },
    {
      name: "lone surrogates stand for invalid bytes",
      in: "\udcff\ud800",
      go119: '"\\ufffd\\ufffd"',
    },
    { name: "quote, backslash, slash, non-ASCII", in: 'ü"\\/😀', go119: '"ü\\"\\\\/😀"' },
    { name: "short escapes", in: "\t\n\r", go119: '"\\t\\n\\r"' },
  ])("$name", ({ in: input, go119, go122 }) => {
    expect(Quote(input, "go1.19")).toBe(go119);
    expect(Quote(input, "go1.22")).toBe(go122 ?? go119);
  });
});

describe("MarshalStringMap", () => {
  it("sorts keys and escapes as Go's encoding/json does", () => {
    expect(
      MarshalStringMap({ b: "x<y>&z", a: 'q"\\\n\u2028', "\u00e9": "\u0001\b" }, "go1.22"),
    ).toBe('{"a":"q\\"\\\\\\n\\u2028","b":"x\\u003cy\\u003e\\u0026z","\u00e9":"\\u0001\\b"}');
  });

  it("sorts by UTF-8 bytes, not UTF-16 units", () => {
    expect(MarshalStringMap({ "😀": "1", "\uff01": "2" }, "go1.22")).toBe(
      '{"\uff01":"2","😀":"1"}',
    );
  });
});
