import { describe, expect, it } from "vitest";
import {
  DurationString,
  FormatRFC3339,
  ParseDuration,
  ParseRFC3339,
  ZeroTimeMillis,
} from "./time.js";

describe("ParseDuration", () => {
  // Go's own table (time_test.go), in nanoseconds.
  it.each([
    ["0", 0n],
    ["5s", 5_000_000_000n],
    ["30s", 30_000_000_000n],
    ["1478s", 1_478_000_000_000n],
    ["-5s", -5_000_000_000n],
    ["+5s", 5_000_000_000n],
    ["-0", 0n],
    ["+0", 0n],
    ["5.0s", 5_000_000_000n],
    ["5.6s", 5_600_000_000n],
    ["5.s", 5_000_000_000n],
    [".5s", 500_000_000n],
    ["1.0s", 1_000_000_000n],
    ["1.00s", 1_000_000_000n],
    ["1.004s", 1_004_000_000n],
    ["1.0040s", 1_004_000_000n],
    ["100.00100s", 100_001_000_000n],
    ["10ns", 10n],
    ["11us", 11_000n],
    ["12µs", 12_000n],
    ["12μs", 12_000n],
    ["13ms", 13_000_000n],
    ["14s", 14_000_000_000n],
    ["15m", 900_000_000_000n],
    ["16h", 57_600_000_000_000n],
    ["3h30m", 12_600_000_000_000n],
    ["10.5s4m", 250_500_000_000n],
    ["-2m3.4s", -123_400_000_000n],
    ["1h2m3s4ms5us6ns", 3_723_004_005_006n],
    ["39h9m14.425s", 140_954_425_000_000n],
    ["52763797000ns", 52_763_797_000n],
    ["0.3333333333333333333h", 1_200_000_000_000n],
    ["9007199254740993ns", 9_007_199_254_740_993n],
    ["9223372036854775807ns", 9_223_372_036_854_775_807n],
    ["9223372036854775.807us", 9_223_372_036_854_775_807n],
    ["9223372036s854ms775us807ns", 9_223_372_036_854_775_807n],
    ["-9223372036854775808ns", -9_223_372_036_854_775_808n],
    ["-9223372036854775.808us", -9_223_372_036_854_775_808n],
    ["0.100000000000000000000h", 360_000_000_000n],
    ["0.830103483285477580700h", 2_988_372_539_827n],
  ])("%s", (input, nanoseconds) => {
    expect(ParseDuration(input)).toEqual({ ok: true, nanoseconds });
  });

  it.each([
    ["", 'time: invalid duration ""'],
    ["3", 'time: missing unit in duration "3"'],
    ["-", 'time: invalid duration "-"'],
    ["s", 'time: invalid duration "s"'],
    [".", 'time: invalid duration "."'],
    ["-.", 'time: invalid duration "-."'],
    [".s", 'time: invalid duration ".s"'],
    ["+.s", 'time: invalid duration "+.s"'],
    ["1d", 'time: unknown unit "d" in duration "1d"'],
    ["1\u00e9s", 'time: unknown unit "\\xc3\\xa9s" in duration "1\\xc3\\xa9s"'],
    ["9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"'],
    ["9223372036854775.808us", 'time: invalid duration "9223372036854775.808us"'],
    ["-9223372036854775809ns", 'time: invalid duration "-9223372036854775809ns"'],
  ])("refuses %j", (input, message) => {
    expect(ParseDuration(input)).toEqual({ ok: false, message });
  });
});

describe("RFC 3339", () => {
  it.each([
    ["2025-01-01T00:00:00Z", Date.UTC(2025, 0, 1)],
    ["2025-01-01T01:00:00+01:00", Date.UTC(2025, 0, 1)],
    ["2025-01-01T00:00:00.123456789Z", Date.UTC(2025, 0, 1) + 123],
    ["2025-01-01T00:00:00,5Z", Date.UTC(2025, 0, 1) + 500],
    ["2025-01-01T0:00:00Z", Date.UTC(2025, 0, 1)],
    ["0001-01-01T00:00:00Z", ZeroTimeMillis],
  ])("parses %s", (text, ms) => {
    expect(ParseRFC3339(text)).toBe(ms);
  });

  it.each([
    "2025-02-29T00:00:00Z",
    "2025-01-01T24:00:00Z",
    "2025-01-01 00:00:00Z",
    "2025-01-01T00:00:00",
  ])("refuses %s", (text) => {
    expect(ParseRFC3339(text)).toBeUndefined();
  });

  it("formats in UTC whole seconds", () => {
    expect(FormatRFC3339(Date.UTC(2025, 0, 1, 12, 30, 45, 999))).toBe("2025-01-01T12:30:45Z");
    expect(FormatRFC3339(ZeroTimeMillis)).toBe("0001-01-01T00:00:00Z");
  });
});

describe("DurationString", () => {
  // Go's own table (time_test.go).
  it.each([
    [0n, "0s"],
    [1n, "1ns"],
    [1_100n, "1.1µs"],
    [2_200_000n, "2.2ms"],
    [3_300_000_000n, "3.3s"],
    [240_000_000_000n, "4m0s"],
    [300_000_000_000n + 800_000_000n, "5m0.8s"],
    [7_200_000_000_000n + 60_000_000_000n, "2h1m0s"],
    [-1_000_000n, "-1ms"],
    [9_223_372_036_854_775_807n, "2562047h47m16.854775807s"],
    [-9_223_372_036_854_775_808n, "-2562047h47m16.854775808s"],
  ])("%s ns → %s", (ns, text) => {
    expect(DurationString(ns)).toBe(text);
  });
});
