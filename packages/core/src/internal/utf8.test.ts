import { describe, expect, it } from "vitest";
import { decodeBytes, fromByteStringEscaped, toWellFormed } from "./utf8.js";

describe("decodeBytes", () => {
  it.each([
    { bytes: [0x61, 0xe2, 0x82, 0x62], want: "a\ufffd\ufffdb" },
    { bytes: [0xed, 0xa0, 0x80], want: "\ufffd\ufffd\ufffd" },
    { bytes: [0xc0, 0x80], want: "\ufffd\ufffd" },
    { bytes: [0xf0, 0x9f, 0x98, 0x80], want: "😀" },
    { bytes: [0xf4, 0x90, 0x80, 0x80], want: "\ufffd\ufffd\ufffd\ufffd" },
    { bytes: [0xef, 0xbb, 0xbf, 0x61], want: "\ufeffa" },
  ])("decodes $bytes as Go's string conversion does", ({ bytes, want }) => {
    expect(decodeBytes(new Uint8Array(bytes))).toBe(want);
  });
});

describe("fromByteStringEscaped", () => {
  it("keeps undecodable bytes as lone low surrogates and decodes the rest", () => {
    const bytes = String.fromCharCode(0x61, 0xff, 0xc3, 0xbc, 0xc3);
    expect(fromByteStringEscaped(bytes)).toBe("a\udcffü\udcc3");
  });
});

describe("toWellFormed", () => {
  it("replaces lone surrogates only", () => {
    expect(toWellFormed("a\ud800b😀\udc00")).toBe("a\ufffdb😀\ufffd");
  });
});
