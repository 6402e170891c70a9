import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retry-after.js";

const now = Date.parse("2026-11-21T06:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    { value: "120", want: 120_000 },
    { value: "0", want: 0 },
    { value: "Sat, 21 Nov 2026 06:00:30 GMT", want: 30_000 },
    { value: "Sat, 21 Nov 2026 05:00:00 GMT", want: undefined }, // past: caller's back-off applies
    { value: "-5", want: undefined },
    { value: "soon", want: undefined },
    { value: null, want: undefined },
  ])("$value", ({ value, want }) => {
    expect(parseRetryAfter(value, now)).toBe(want);
  });
});
