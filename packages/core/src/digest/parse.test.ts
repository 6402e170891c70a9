import { describe, expect, it } from "vitest";
import { isDigestError } from "./errors.js";
import { isValidDigest, parseDigest, safeParseDigest } from "./parse.js";

const hex64 = "0123456789abcdef".repeat(4);

describe("parseDigest (go-digest v1.0.0 Parse)", () => {
  it.each([
    { input: `sha256:${hex64}`, algorithm: "sha256" },
    { input: `sha384:${hex64}${hex64.slice(0, 32)}`, algorithm: "sha384" },
    { input: `sha512:${hex64}${hex64}`, algorithm: "sha512" },
  ])("$algorithm", ({ input, algorithm }) => {
    const d = parseDigest(input);
    expect(d).toMatchObject({
      algorithm,
      encoded: input.slice(algorithm.length + 1),
      string: input,
    });
    expect(`${d}`).toBe(input);
    // Results are plain readonly objects, not frozen (a project decision).
    expect(Object.isFrozen(d)).toBe(false);
  });

  it.each([
    { input: "", code: "DIGEST_INVALID_FORMAT" }, // no ':'
    { input: ":abc", code: "DIGEST_INVALID_FORMAT" }, // ':' first
    { input: "sha256:", code: "DIGEST_INVALID_FORMAT" }, // ':' last
    { input: `sha256:${hex64.toUpperCase()}`, code: "DIGEST_INVALID_FORMAT" }, // registered, upper-case hex
    { input: "sha256:abc", code: "DIGEST_INVALID_LENGTH" },
    { input: `sha256:${hex64}0`, code: "DIGEST_INVALID_LENGTH" },
    // Go counts bytes: 63 hex digits and one two-byte character are 65 bytes.
    { input: `sha256:${hex64.slice(1)}é`, code: "DIGEST_INVALID_LENGTH" },
    { input: `md5:${"0".repeat(32)}`, code: "DIGEST_UNSUPPORTED" }, // OCI-shaped, not registered
    { input: `sha256+b64u:${hex64}`, code: "DIGEST_UNSUPPORTED" },
    { input: `blake3:${hex64}`, code: "DIGEST_UNSUPPORTED" },
    // Not registered and not OCI-shaped (the algorithm must be lower case).
    { input: `SHA256:${hex64}`, code: "DIGEST_INVALID_FORMAT" },
    { input: `sha256:${hex64}:x`, code: "DIGEST_INVALID_LENGTH" },
    { input: "a..b:abc", code: "DIGEST_INVALID_FORMAT" },
    // Rows of go-digest's own test table (testdigest): length is checked before hex.
    { input: "d41d8cd98f00b204e9800998ecf8427e", code: "DIGEST_INVALID_FORMAT" },
    { input: "sha256:d41d8cd98f00b204e9800m98ecf8427e", code: "DIGEST_INVALID_LENGTH" },
    { input: "sha256:abcdef0123456789", code: "DIGEST_INVALID_LENGTH" },
    { input: `sha512:${"abcdef0123456789".repeat(4)}`, code: "DIGEST_INVALID_LENGTH" },
    { input: "foo:d41d8cd98f00b204e9800998ecf8427e", code: "DIGEST_UNSUPPORTED" },
    { input: `sha384__foo+bar:${hex64}`, code: "DIGEST_INVALID_FORMAT" }, // repeated separators
    { input: `sha384.foo+bar:${hex64}`, code: "DIGEST_UNSUPPORTED" },
    { input: `sha384_foo+bar:${hex64}`, code: "DIGEST_UNSUPPORTED" },
  ])("$input → $code", ({ input, code }) => {
    try {
      parseDigest(input);
      expect.unreachable();
    } catch (error) {
      expect(isDigestError(error)).toBe(true);
      expect(error).toMatchObject({ code, input });
    }
    const safe = safeParseDigest(input);
    expect(safe.success).toBe(false);
    expect(isValidDigest(input)).toBe(false);
  });

  it("uses go-digest's messages", () => {
    expect(() => parseDigest("md5:00000000000000000000000000000000")).toThrow(
      "unsupported digest algorithm",
    );
    expect(() => parseDigest("sha256:0")).toThrow("invalid checksum digest length");
    expect(() => parseDigest("sha256")).toThrow("invalid checksum digest format");
  });
});
