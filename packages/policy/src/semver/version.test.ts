import { compileRegexp } from "@kubeimg/core/regexp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSemverError, SemverError } from "./errors.js";
import {
  compareVersions,
  parseStrictVersion,
  parseTagVersion,
  parseVersion,
  tryParseTagVersion,
  tryParseVersion,
} from "./version.js";

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (isSemverError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe("parseVersion (Masterminds NewVersion, CoerceNewVersion = true)", () => {
  it.each([
    { input: "1.2.3", want: "1.2.3" },
    { input: "v1.2.3", want: "1.2.3" },
    { input: "1.2", want: "1.2.0" },
    { input: "v1", want: "1.0.0" },
    { input: "01.02.03", want: "1.2.3" }, // leading zeros are coerced
    { input: "1.2.3-beta.1+build.5", want: "1.2.3-beta.1+build.5" },
    { input: "1-2.3.4", want: "1.0.0-2.3.4" }, // the dots belong to the pre-release
    { input: "1.2.3--x", want: "1.2.3--x" },
    { input: "18446744073709551615.0.0", want: "18446744073709551615.0.0" },
  ])("$input → $want", ({ input, want }) => {
    const v = parseVersion(input);
    expect(v.toString()).toBe(want);
    expect(v.original).toBe(input);
  });

  it.each([
    { input: "", code: "INVALID_SEMVER" },
    { input: "V1.2.3", code: "INVALID_SEMVER" }, // only a lower-case v
    { input: "1.2.3.4", code: "INVALID_SEMVER" },
    { input: "1.2.", code: "INVALID_SEMVER" },
    { input: "1.2.3-", code: "INVALID_SEMVER" },
    { input: "1.2.3-a..b", code: "INVALID_SEMVER" },
    { input: "1.2.3\n", code: "INVALID_SEMVER" }, // Go's $ is the end of text
    { input: " 1.2.3", code: "INVALID_SEMVER" },
    { input: "1.2.3-01", code: "SEGMENT_STARTS_ZERO" },
    { input: "18446744073709551616.0.0", code: "SEGMENT_OUT_OF_RANGE" },
  ])("$input → $code", ({ input, code: want }) => {
    expect(code(() => parseVersion(input))).toBe(want);
  });

  it("reports Go's message for an out-of-range number", () => {
    expect(() => parseVersion("1.99999999999999999999")).toThrow(
      'error parsing version segment: strconv.ParseUint: parsing "99999999999999999999": value out of range',
    );
  });

  it("exposes the numbers exactly, beyond 2^53", () => {
    const v = parseVersion("9007199254740993.0.1");
    expect(v.major).toBe(9007199254740993n);
    expect(v.majorDigits).toBe("9007199254740993");
    expect(v.patch).toBe(1n);
  });

  it("agrees with Masterminds' loose regular expression on any input", () => {
    const loose = compileRegexp(
      "^v?([0-9]+)(\\.[0-9]+)?(\\.[0-9]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?$",
    );
    const alphabet = fc.constantFrom(..."v0123.-+aZ\n é".split(""));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 14 }).map((cs) => cs.join("")),
        (input) => {
          const m = loose.findStringSubmatch(input);
          let parsed: ReturnType<typeof parseVersion> | undefined;
          try {
            parsed = parseVersion(input);
          } catch (error) {
            if (!isSemverError(error)) throw error;
            // Only the post-match checks may reject a matching input.
            if (m !== null) expect(error.code).not.toBe("INVALID_SEMVER");
            return;
          }
          expect(m).not.toBeNull();
          expect(parsed.prerelease).toBe(m?.[5]);
          expect(parsed.metadata).toBe(m?.[8]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("parseStrictVersion (Masterminds StrictNewVersion)", () => {
  it.each([
    { input: "1.2.3", code: undefined },
    { input: "1.2.3-rc.1+b", code: undefined },
    { input: "", code: "EMPTY_STRING" },
    { input: "1.2", code: "INVALID_SEMVER" },
    { input: "v1.2.3", code: "INVALID_CHARACTERS" },
    { input: "01.2.3", code: "SEGMENT_STARTS_ZERO" },
    { input: "1..3", code: "INVALID_SEMVER" },
    { input: "1.2.3-", code: "INVALID_PRERELEASE" },
    { input: "1.2.3+a_b", code: "INVALID_METADATA" },
    { input: "1.2.3-a_b", code: "INVALID_PRERELEASE" },
  ])("$input → $code", ({ input, code: want }) => {
    expect(code(() => parseStrictVersion(input))).toBe(want);
  });
});

describe("parseTagVersion (fluxcd/pkg version.ParseVersion)", () => {
  it.each([
    { input: "v1.2.3", want: "1.2.3" },
    { input: "1-2.3.4", want: "1.0.0-2.3.4" },
    { input: "1.0", want: undefined }, // needs two dots
    { input: "v1", want: undefined },
    { input: "1.2.3.4", want: undefined }, // three pieces, then NewVersion rejects it
    { input: "01.02.03-rc.1+b", want: "1.2.3-rc.1+b" }, // leading zeros coerced, as NewVersion
    { input: "1..2", want: undefined }, // three pieces, an empty one
    { input: "v1.2", want: undefined }, // the v counts for nothing
    { input: "latest", want: undefined },
  ])("$input", ({ input, want }) => {
    expect(tryParseTagVersion(input)?.toString()).toBe(want);
    if (want === undefined) expect(() => parseTagVersion(input)).toThrow();
  });
});

describe("compareVersions (Masterminds Compare)", () => {
  it.each([
    { a: "1.0.0", b: "1.0.0+build", want: 0 }, // metadata ignored
    { a: "v1.0.0", b: "01.0.0", want: 0 },
    { a: "1.0.0-rc.1", b: "1.0.0", want: -1 },
    { a: "1.0.0-rc.2", b: "1.0.0-rc.10", want: -1 }, // numeric identifiers
    { a: "1.0.0-1", b: "1.0.0-alpha", want: -1 }, // numbers rank below text
    { a: "1.0.0-alpha", b: "1.0.0-alpha.1", want: -1 }, // prefix ranks lower
    { a: "1.0.0-99999999999999999999", b: "1.0.0-1", want: 1 }, // above uint64: text
    { a: "1.0.0-18446744073709551615", b: "1.0.0-9", want: 1 }, // uint64 max is a number
    { a: "1.0.0-18446744073709551616", b: "1.0.0-9", want: 1 }, // one more is text, above numbers
    { a: "1.0.0-18446744073709551616", b: "1.0.0-a", want: -1 }, // and compares as text
    { a: "1.0.0--1", b: "1.0.0-1", want: 1 }, // -1 is text, not a negative number
    { a: "10.0.0", b: "9.0.0", want: 1 },
    { a: "18446744073709551615.0.0", b: "18446744073709551614.0.0", want: 1 },
  ])("$a vs $b", ({ a, b, want }) => {
    expect(compareVersions(parseVersion(a), parseVersion(b))).toBe(want);
    expect(compareVersions(parseVersion(b), parseVersion(a))).toBe(-want || 0);
  });
});

describe("tryParseVersion", () => {
  it.each([
    { input: "1.2", want: "1.2.0" },
    { input: "v1.2.3-rc.1", want: "1.2.3-rc.1" },
    { input: "latest", want: undefined },
    { input: "18446744073709551616.0.0", want: undefined }, // past 2^64-1: parseVersion throws
  ])("$input", ({ input, want }) => {
    expect(tryParseVersion(input)?.toString()).toBe(want);
    // A miss exactly where parseVersion throws.
    expect(code(() => parseVersion(input)) === undefined).toBe(want !== undefined);
  });

  it("is the guard's answer for a SemverError built by hand", () => {
    expect(isSemverError(new SemverError("INVALID_SEMVER", "x", "invalid semantic version"))).toBe(
      true,
    );
    expect(isSemverError(new Error("invalid semantic version"))).toBe(false);
  });
});
