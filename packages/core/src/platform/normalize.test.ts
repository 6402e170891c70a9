import { describe, expect, it } from "vitest";
import { normalizePlatform } from "./normalize.js";

describe("normalizePlatform", () => {
  it.each([
    { arch: "x86_64", variant: "v1", want: ["amd64", ""] },
    { arch: "x86-64", variant: "v3", want: ["amd64", "v3"] },
    { arch: "i386", variant: "v7", want: ["386", ""] },
    { arch: "aarch64", variant: "v8", want: ["arm64", ""] },
    { arch: "ARM64", variant: "V8.0", want: ["arm64", ""] },
    { arch: "arm64", variant: "9", want: ["arm64", "v9"] },
    { arch: "arm64", variant: "v9.0", want: ["arm64", "v9"] },
    { arch: "arm64", variant: "v8.2", want: ["arm64", "v8.2"] },
    { arch: "armhf", variant: "v6", want: ["arm", "v7"] },
    { arch: "armel", variant: "", want: ["arm", "v6"] },
    { arch: "arm", variant: "", want: ["arm", "v7"] },
    { arch: "arm", variant: "5", want: ["arm", "v5"] },
    { arch: "arm", variant: "8", want: ["arm", "v8"] },
    { arch: "riscv64", variant: "RVA22", want: ["riscv64", "rva22"] },
  ])("$arch/$variant", ({ arch, variant, want }) => {
    const p = normalizePlatform({ os: "linux", architecture: arch, variant });
    expect([p.architecture, p.variant]).toEqual(want);
  });

  it("lower-cases as Go's strings.ToLower: İ becomes plain i, no special casing", () => {
    expect(normalizePlatform({ os: "İOS", architecture: "x" }).os).toBe("ios");
    expect(normalizePlatform({ os: "MacOS", architecture: "x" }).os).toBe("darwin");
    expect(normalizePlatform({ os: "ΣΑΣ", architecture: "x" }).os).toBe("σασ");
    // U+1C89 became a capital only in Unicode 16; Go 1.19 leaves it.
    expect(normalizePlatform({ os: "\u1c89", architecture: "x" }).os).toBe("\u1c89");
  });

  it("fills an empty OS from the host, and only from the host", () => {
    expect(
      normalizePlatform(
        { os: "", architecture: "x" },
        { host: { os: "windows", architecture: "amd64" } },
      ).os,
    ).toBe("windows");
    expect(normalizePlatform({ os: "", architecture: "x" }).os).toBe("");
  });

  it("sorts OS features in UTF-8 byte order and drops repeats, keeping the version", () => {
    const p = normalizePlatform({
      os: "linux",
      architecture: "amd64",
      osVersion: " 1 ",
      osFeatures: ["😀", "\ue000", "b", "a", "b", ""],
    });
    expect(p.osVersion).toBe(" 1 ");
    // U+E000 sorts before U+1F600 in UTF-8, after it in UTF-16 code units.
    expect(p.osFeatures).toEqual(["", "a", "b", "\ue000", "😀"]);
  });

  it("does not change its argument", () => {
    const features = ["b", "a"];
    normalizePlatform({ os: "linux", architecture: "amd64", osFeatures: features });
    expect(features).toEqual(["b", "a"]);
  });
});
