import { describe, expect, it } from "vitest";
import { parseIntervalMillis } from "./duration.js";

describe("parseIntervalMillis", () => {
  it.each([
    { s: "10m", want: 600_000 },
    { s: "1h30m", want: 5_400_000 },
    { s: "1.5s", want: 1_500 },
    { s: "250ms", want: 250 },
    { s: "0s", want: 0 },
    { s: "2562047h47m16.854775807s", want: 9_223_372_036_854.775 }, // Go's largest duration
  ])("$s → $want", ({ s, want }) => {
    expect(parseIntervalMillis(s)).toBe(want);
  });

  it.each(["", "10", "1d", "-1s", "1.s", "1µs", " 1s", "2562047h47m16.854775808s"])(
    "%j is rejected",
    (s) => {
      expect(parseIntervalMillis(s)).toBeUndefined();
    },
  );
});
