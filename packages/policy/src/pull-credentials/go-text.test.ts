import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8LikeGo, quoteGoJson } from "./go-text.js";

describe("Go string semantics", () => {
  it("quoteGoJson agrees with JSON.parse on well-formed strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(JSON.parse(quoteGoJson(s))).toBe(s);
      }),
    );
  });

  it.each([
    { bytes: [0x61, 0xe2, 0x82, 0x62], want: "a\ufffd\ufffdb" },
    { bytes: [0xed, 0xa0, 0x80], want: "\ufffd\ufffd\ufffd" },
    { bytes: [0xc0, 0x80], want: "\ufffd\ufffd" },
    { bytes: [0xf0, 0x9f, 0x98, 0x80], want: "😀" },
    { bytes: [0xf4, 0x90, 0x80, 0x80], want: "\ufffd\ufffd\ufffd\ufffd" },
    { bytes: [0xef, 0xbb, 0xbf, 0x61], want: "\ufeffa" },
  ])("decodeUtf8LikeGo $bytes", ({ bytes, want }) => {
    expect(decodeUtf8LikeGo(new Uint8Array(bytes))).toBe(want);
  });
});
