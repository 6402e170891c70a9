import { describe, expect, it, vi } from "vitest";
import { Atoi, ParseBool, ParseFloat, Quote } from "./strconv.js";

describe("Quote", () => {
  // Each expected value is what Go 1.19's fmt.Sprintf("%q", s) prints.
  it.each([
    ["", '""'],
    ["*-*", '"*-*"'],
    [">= 1.0, <2", '">= 1.0, <2"'],
    ['a"b', '"a\\"b"'],
    ["a\\b", '"a\\\\b"'],
    ["\u0007\b\t\n\u000b\f\r", '"\\a\\b\\t\\n\\v\\f\\r"'],
    ["\u0000\u001f\u007f", '"\\x00\\x1f\\x7f"'],
    ["\u0085\u00a0\u2028", '"\\u0085\\u00a0\\u2028"'],
    ["é日😀½", '"é日😀½"'],
    ["\u{e0001}", '"\\U000e0001"'],
    ["\ud800x", '"\ufffdx"'],
  ])("%j → %s", (input, quoted) => {
    expect(Quote(input)).toBe(quoted);
  });
});

describe("ParseFloat (Go strconv.ParseFloat(s, 64))", () => {
  it.each([
    { s: "0", want: 0 },
    { s: "1700000000", want: 1700000000 },
    { s: "010", want: 10 }, // decimal, not octal
    { s: "1e3", want: 1000 },
    { s: ".5", want: 0.5 },
    { s: "5.", want: 5 },
    { s: "+5", want: 5 },
    { s: "-2.5E-1", want: -0.25 },
    { s: "1_000", want: 1000 },
    { s: "1e1_0", want: 1e10 },
    { s: "0x1p4", want: 16 },
    { s: "0X1P-2", want: 0.25 },
    { s: "0x1.8p1", want: 3 },
    { s: "0x_1p0", want: 1 }, // `_` may follow the base prefix
    { s: "0x1p-1074", want: 5e-324 },
    { s: "0x1p-1075", want: 0 }, // a tie rounds to even: zero
    { s: "0x3p-1076", want: 5e-324 },
    { s: "inf", want: Number.POSITIVE_INFINITY },
    { s: "-Infinity", want: Number.NEGATIVE_INFINITY },
    { s: "+INF", want: Number.POSITIVE_INFINITY },
    { s: "1e-400", want: 0 }, // underflow is not an error
    { s: "9007199254740993", want: 9007199254740992 }, // rounds to the nearest double
    { s: "1.7976931348623157e308", want: 1.7976931348623157e308 },
  ])("$s → $want", ({ s, want }) => {
    expect(ParseFloat(s)).toBe(want);
  });

  it("reads nan in any case", () => {
    expect(ParseFloat("NaN")).toBeNaN();
    expect(ParseFloat("nan")).toBeNaN();
  });

  it.each([
    "",
    " 1",
    "1 ",
    "0x10", // a hex float needs a p exponent
    "0b101",
    "0o17",
    "1e400", // overflow
    "-1e400",
    "2e308",
    "-nan",
    "+nan",
    "infin",
    "1_",
    "_1",
    "1__0",
    "1_.5",
    "1e",
    "1e+",
    ".",
    "1.2.3",
    "0x",
    "0xp1",
    "1p4",
    "١",
  ])("%j is an error", (s) => {
    expect(ParseFloat(s)).toBeUndefined();
  });
});

describe("Atoi (Go strconv.Atoi, 64-bit)", () => {
  it.each([
    ["3", 3n],
    ["+3", 3n],
    ["-0", 0n],
    ["007", 7n],
    ["9223372036854775807", 9223372036854775807n],
    ["-9223372036854775808", -9223372036854775808n],
  ])("%j is %s", (s, want) => {
    expect(Atoi(s)).toBe(want);
  });
  it.each(["", "+", "1_000", " 1", "0x10", "9223372036854775808", "-9223372036854775809", "١"])(
    "%j is an error",
    (s) => {
      expect(Atoi(s)).toBeUndefined();
    },
  );
});

describe("ParseBool", () => {
  it.each([
    ["1", true],
    ["t", true],
    ["TRUE", true],
    ["True", true],
    ["0", false],
    ["F", false],
    ["False", false],
    ["yes", undefined],
    ["", undefined],
    [" true", undefined],
    ["tRUE", undefined],
  ] as const)("%j is %s", (input, want) => {
    expect(ParseBool(input)).toBe(want);
  });
});

describe("Quote's cost", () => {
  it("decides ASCII without a regular expression", () => {
    const test = vi.spyOn(RegExp.prototype, "test");
    const exec = vi.spyOn(RegExp.prototype, "exec");
    try {
      expect(Quote("^([a-z]+)\\(x\\)$\t")).toBe('"^([a-z]+)\\\\(x\\\\)$\\t"');
      expect(test.mock.calls.length + exec.mock.calls.length).toBe(0);
    } finally {
      test.mockRestore();
      exec.mockRestore();
    }
  });
});
