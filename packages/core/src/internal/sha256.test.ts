import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EncodeToString } from "./hex.js";
import { Sum256 } from "./sha256.js";

const hexSum = (data: Uint8Array) => EncodeToString(Sum256(data));

describe("Sum256", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
  ])("FIPS 180-4 example %j", (text, want) => {
    expect(hexSum(new TextEncoder().encode(text))).toBe(want);
  });

  it("agrees with node:crypto at every length around the block edges", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        expect(hexSum(data)).toBe(createHash("sha256").update(data).digest("hex"));
      }),
      { numRuns: 400 },
    );
  });
});
