import { describe, expect, it } from "vitest";
import { isKnownArch, isKnownOS } from "./database.js";

describe("isKnownOS and isKnownArch (Go's GOOS and GOARCH lists)", () => {
  it.each([
    { os: "linux", want: true },
    { os: "windows", want: true },
    { os: "Linux", want: false }, // no case folding: callers lower-case first
  ])("isKnownOS($os)", ({ os, want }) => {
    expect(isKnownOS(os)).toBe(want);
  });

  it.each([
    { arch: "arm64", want: true },
    { arch: "amd64", want: true },
    { arch: "aarch64", want: false }, // an alias: callers normalize first
  ])("isKnownArch($arch)", ({ arch, want }) => {
    expect(isKnownArch(arch)).toBe(want);
  });
});
