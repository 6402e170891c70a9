import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeVerdict, encodeVerdict, isToken, scrubReason } from "./values.js";

describe("stored values", () => {
  it.each([
    { available: true } as const,
    {
      available: false,
      reason: "NOT_FOUND (HTTP 404): manifest unknown",
      retryable: false,
    } as const,
    { available: false, reason: "timed out after 1000 ms", retryable: true } as const,
  ])("round-trips %j", (answer) => {
    expect(decodeVerdict(encodeVerdict(answer))).toEqual(answer);
  });

  it.each([
    "",
    "true",
    "null",
    "[]",
    '{"available":true}',
    '{"kubeimg":"verdict","v":0,"available":true}',
    '{"kubeimg":"verdict","v":2,"available":true}',
    '{"kubeimg":"verdict","v":1,"available":"yes"}',
    '{"kubeimg":"verdict","v":1,"available":true,"extra":1}',
    '{"kubeimg":"verdict","v":1,"available":false,"reason":1,"retryable":true}',
    '{"kubeimg":"verdict","v":1,"available":false,"reason":"x"}',
    '{"kubeimg":"verdict","v":1,"__proto__":{"available":true}}',
    "v1:open",
  ])("ignores the foreign value %j", (raw) => {
    expect(decodeVerdict(raw)).toBeUndefined();
  });

  it("decodes nothing but what it encodes (random JSON and strings)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        const decoded = decodeVerdict(raw);
        if (decoded !== undefined) expect(decodeVerdict(encodeVerdict(decoded))).toEqual(decoded);
      }),
    );
  });

  it("keeps credentials and control characters out of a stored reason", () => {
    const reason = scrubReason(
      "GET https://robot:s3cret@harbor.example.com/v2/: Authorization Bearer eyJhbGciOi.abc \u001b]0;title\u0007",
    );
    expect(reason).not.toMatch(/s3cret|eyJhbGciOi/);
    expect([...reason].filter((c) => c < " ")).toEqual([]);
    expect(reason).toContain("//[redacted]@harbor.example.com");
    expect(scrubReason("x".repeat(1000))).toHaveLength(300);
    const stored = encodeVerdict({
      available: false,
      reason: "https://u:p@h/ Bearer tok",
      retryable: true,
    });
    expect(stored).not.toMatch(/u:p@|tok/);
  });

  it("accepts only marker tokens of this layout", () => {
    expect(isToken("v1:0f8fad5b-d9cb-469f-a165-70867728950e")).toBe(true);
    expect(isToken("v0:0f8fad5b-d9cb-469f-a165-70867728950e")).toBe(false);
    expect(isToken("1")).toBe(false);
    expect(isToken(1)).toBe(false);
  });
});
