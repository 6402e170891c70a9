import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeGoBase64 } from "./go-base64.js";

describe("decodeGoBase64", () => {
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
    expect(decodeGoBase64(input, { padded })).toBe(want);
  });
});

describe("decodeGoBase64 on canonical input", () => {
  it("decodes what Buffer encodes, padded and unpadded", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const padded = Buffer.from(bytes).toString("base64");
        const expected = String.fromCharCode(...bytes);
        expect(decodeGoBase64(padded, { padded: true })).toBe(expected);
        expect(decodeGoBase64(padded.replace(/=+$/, ""), { padded: false })).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
