import { describe, expect, it } from "vitest";
import { missingPlatformsReason } from "./serves.js";

describe("missingPlatformsReason", () => {
  it.each([
    {
      missing: [{ os: "linux", architecture: "arm64" }],
      want: "available, but no linux/arm64 manifest",
    },
    {
      missing: [
        { os: "linux", architecture: "arm64" },
        { os: "linux", architecture: "arm", variant: "v7" },
      ],
      want: "available, but no linux/arm64 or linux/arm/v7 manifest",
    },
  ])("$want", ({ missing, want }) => {
    expect(missingPlatformsReason(missing)).toBe(want);
  });
});
