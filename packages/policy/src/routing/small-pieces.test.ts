import { describe, expect, it } from "vitest";
import { parseGoDuration } from "./duration.js";
import { readOriginalImages } from "./original-images.js";

describe("parseGoDuration", () => {
  it.each([
    ["1s", 1000],
    ["0", 0],
    ["1m30s", 90_000],
    ["1.5h", 5_400_000],
    ["500ms", 500],
    ["-2s", -2000],
    ["+3s", 3000],
    ["10us", 0.01],
    ["10\u00b5s", 0.01],
    ["1h0m0s", 3_600_000],
    [".5s", 500],
  ])("%s", (input, ms) => {
    expect(parseGoDuration(input)).toBeCloseTo(ms, 9);
  });

  it.each(["", "1", "s", "1x", "1.s.", "--1s", "."])("refuses %j", (input) => {
    expect(() => parseGoDuration(input)).toThrowError(
      expect.objectContaining({ code: "INVALID_DURATION" }),
    );
  });
});

describe("readOriginalImages", () => {
  it.each([
    { text: undefined, want: {} },
    { text: "not json", want: {} },
    { text: "[1]", want: {} },
    { text: "null", want: {} },
    { text: '{"app":"nginx","init:m":"x"}', want: { app: "nginx", "init:m": "x" } },
    { text: '{"app":1}', want: { app: "" } }, // Go keeps the key with a zero value
  ])("$text", ({ text, want }) => {
    expect(readOriginalImages(text)).toEqual(want);
  });
});

describe("isRoutingError", () => {
  it("recognises a RoutingError by name and code, across package copies", async () => {
    const { RoutingError, isRoutingError } = await import("./errors.js");
    const e = new RoutingError("INVALID_CONFIG", "bad", { path: "routing", value: 1 });
    expect(e.name).toBe("RoutingError");
    expect(isRoutingError(e)).toBe(true);
    const brand = Symbol.for("@kubeimg/core.KubeimgError");
    const foreign = Object.assign(new Error("x"), { name: "RoutingError", code: "INVALID_YAML" });
    expect(isRoutingError(foreign)).toBe(false); // a look-alike without the brand
    Object.defineProperty(foreign, brand, { value: true });
    expect(isRoutingError(foreign)).toBe(true);
    const unknownCode = Object.assign(new Error("x"), { name: "RoutingError", code: "NOPE" });
    Object.defineProperty(unknownCode, brand, { value: true });
    expect(isRoutingError(unknownCode)).toBe(false);
    expect(isRoutingError(new Error("x"))).toBe(false);
  });
});

describe("xxhash64", () => {
  it.each([
    // Expected values from the reference C library (libxxhash XXH64, seed 0).
    ["", "ef46db3751d8e999"],
    ["a", "d24ec4f1a98c6e5b"],
    ["x".repeat(32), "e2df261fc2ec30eb"],
    ["0123456789abcdef0123456789abcdef0123456789", "a76190c3acf08a1c"],
    ["kuik-system/6f1c9a2e-uid-\u00e9", "e53f118393ba5dd2"],
    [`${"y".repeat(100)}abc`, "07768d2e6be58520"],
  ])("%j", async (input, want) => {
    const { xxhash64 } = await import("./xxhash64.js");
    expect(xxhash64(input).toString(16).padStart(16, "0")).toBe(want);
  });
});
