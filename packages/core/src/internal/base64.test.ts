import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecodeString } from "./base64.js";

describe("DecodeString", () => {
  it.each([
    { input: "Zm9vOmJhcg==", padded: true, want: "foo:bar" },
    { input: "Zm9vOmJhcg=", padded: true, want: undefined },
    { input: "Zm9v\r\nOmJh\ncg==", padded: true, want: "foo:bar" },
    { input: "Zm9vOmJhcg=\n=", padded: true, want: "foo:bar" },
    { input: "Zm9vOmJhcg== ", padded: true, want: undefined },
    { input: "Zm9vOmJhcg", padded: false, want: "foo:bar" },
    { input: "Zm9vOmJhcg==", padded: false, want: undefined },
    { input: "Zm9vOmJhc", padded: false, want: undefined }, // one sextet left over
    { input: "Zm9vOmJhch", padded: false, want: "foo:bar" }, // non-zero trailing bits are accepted
    { input: "dXNlcjpw-_8_", padded: false, want: undefined },
    { input: "", padded: true, want: "" },
  ])("$input (padded: $padded)", ({ input, padded, want }) => {
    expect(DecodeString(input, { padded })).toBe(want);
  });
});

describe("DecodeString on canonical input", () => {
  it("decodes what Buffer encodes, padded and unpadded", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const padded = Buffer.from(bytes).toString("base64");
        const expected = String.fromCharCode(...bytes);
        expect(DecodeString(padded, { padded: true })).toBe(expected);
        expect(DecodeString(padded.replace(/=+$/, ""), { padded: false })).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
