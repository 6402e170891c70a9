import { describe, expect, it } from "vitest";
import { completePlatform } from "./platform.js";

describe("completePlatform", () => {
  it("fills the missing parts with empty values, normalizing nothing", () => {
    expect(completePlatform({ os: "linux", architecture: "amd64" })).toEqual({
      os: "linux",
      architecture: "amd64",
      variant: "",
      osVersion: "",
      osFeatures: [],
    });
    expect(completePlatform({ os: "Linux", architecture: "aarch64", variant: "v8" })).toEqual({
      os: "Linux",
      architecture: "aarch64",
      variant: "v8",
      osVersion: "",
      osFeatures: [],
    });
  });
});
