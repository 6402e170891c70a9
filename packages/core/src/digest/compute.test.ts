import { describe, expect, it } from "vitest";
import { computeDigest } from "./compute.js";
import { parseDigest } from "./parse.js";

describe("computeDigest", () => {
  const hello = new TextEncoder().encode("hello");
  it.each([
    {
      algorithm: "sha256",
      want: "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
    },
    {
      algorithm: "sha384",
      want: "sha384:59e1748777448c69de6b800d7a33bbfb9ff1b463e44354c3553bcdb9c666fa90125a3c79f90397bdf5f6a13de828684f",
    },
    {
      algorithm: "sha512",
      want: "sha512:9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043",
    },
  ] as const)("$algorithm of 'hello'", async ({ algorithm, want }) => {
    const d = await computeDigest(hello, algorithm);
    expect(d.string).toBe(want);
    expect(parseDigest(d.string).string).toBe(want); // always a valid digest
  });

  it("defaults to sha256 and accepts an ArrayBuffer", async () => {
    const d = await computeDigest(new ArrayBuffer(0));
    expect(d.string).toBe(
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  it("refuses an unknown algorithm with a typed error", async () => {
    await expect(computeDigest(hello, "md5" as "sha256")).rejects.toMatchObject({
      code: "DIGEST_UNSUPPORTED",
      input: "md5",
    });
  });
});
