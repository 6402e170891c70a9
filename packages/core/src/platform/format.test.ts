import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAllPlatform, formatPlatform } from "./format.js";
import { normalizePlatform } from "./normalize.js";
import { parsePlatform } from "./parse.js";

describe("formatPlatform", () => {
  it.each([
    { p: { os: "linux", architecture: "arm64", variant: "v8" }, want: "linux/arm64/v8" },
    { p: { os: "linux", architecture: "amd64" }, want: "linux/amd64" },
    { p: { os: "", architecture: "amd64" }, want: "unknown" },
    // Joined as Go's path.Join: `..` removes the part before it.
    { p: { os: "linux", architecture: "amd64", variant: ".." }, want: "linux" },
    { p: { os: "linux", architecture: "", variant: "v7" }, want: "linux/v7" },
    { p: { os: "/linux", architecture: "a//b" }, want: "/linux/a/b" },
    {
      p: { os: "linux", architecture: "amd64", osVersion: "1", osFeatures: ["x"] },
      want: "linux/amd64",
    },
  ])("$want", ({ p, want }) => {
    expect(formatPlatform(p)).toBe(want);
  });
});

describe("formatAllPlatform", () => {
  it.each([
    {
      p: { os: "windows", architecture: "amd64", osVersion: "10.0.17763", osFeatures: ["win32k"] },
      want: "windows(10.0.17763+win32k)/amd64",
    },
    { p: { os: "linux", architecture: "amd64", osFeatures: ["gpu"] }, want: "linux(+gpu)/amd64" },
    // Sorted by bytes (é after z), empty and repeated features dropped, encoded.
    {
      p: { os: "linux", architecture: "amd64", osFeatures: ["é", "z", "", "z", "a+b"] },
      want: "linux(+a%2Bb+z+é)/amd64",
    },
    { p: { os: "linux", architecture: "amd64", osFeatures: [""] }, want: "linux/amd64" },
    { p: { os: "w", architecture: "x", osVersion: "1/2(3)%" }, want: "w(1%2F2%283%29%25)/x" },
    { p: { os: "", architecture: "x", osVersion: "1" }, want: "unknown" },
  ])("$want", ({ p, want }) => {
    expect(formatAllPlatform(p)).toBe(want);
  });

  it("round-trips through parse for well-formed platforms", () => {
    const piece = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
    fc.assert(
      fc.property(
        fc.constantFrom("linux", "windows", "freebsd"),
        fc.constantFrom("amd64", "arm64", "riscv64", "s390x"),
        fc.stringMatching(/^[0-9.]{0,12}$/),
        fc.array(piece, { maxLength: 3 }),
        (os, architecture, osVersion, osFeatures) => {
          const p = normalizePlatform({ os, architecture, osVersion, osFeatures });
          const back = parsePlatform(formatAllPlatform(p));
          expect(normalizePlatform(back)).toEqual({
            ...p,
            osFeatures: p.osFeatures.filter((f) => f !== ""),
          });
        },
      ),
    );
  });
});
