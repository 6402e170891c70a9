import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseGoDuration } from "./duration.js";
import { goMarshalStringMap } from "./go-json.js";
import { goPathClean, goPathJoin } from "./go-path.js";
import { readOriginalImages } from "./original-images.js";

describe("goPathJoin / goPathClean", () => {
  it.each([
    { parts: ["docker.io", "/nginxinc/nginx"], want: "docker.io/nginxinc/nginx" },
    {
      parts: ["harbor.example.com", "/mirror/", "library/nginx:1.25"],
      want: "harbor.example.com/mirror/library/nginx:1.25",
    },
    { parts: ["harbor.example.com", "enix", "x"], want: "harbor.example.com/enix/x" },
    { parts: ["", "/mirror", "a"], want: "/mirror/a" },
    { parts: ["", ""], want: "" },
    { parts: ["a", ""], want: "a" },
    { parts: ["a//b", "./c", "../d"], want: "a/b/d" },
    { parts: ["..", "a"], want: "../a" },
  ])("$parts -> $want", ({ parts, want }) => {
    expect(goPathJoin(...parts)).toBe(want);
  });

  it.each([
    ["", "."],
    ["/", "/"],
    ["/../a", "/a"],
    ["a/..", "."],
    ["a/b/", "a/b"],
  ])("clean %j -> %j", (input, want) => {
    expect(goPathClean(input)).toBe(want);
  });
});

describe("path.Join in two steps", () => {
  it("joining a precomputed registry/path prefix equals joining all three at once", () => {
    // Routing joins mirror.registry and mirror.path once per CR, then the image path per entry.
    const piece = fc.stringMatching(/^[a-z./]{0,8}$/);
    const imagePath = fc.stringMatching(/^[a-z0-9]+(\/[a-z0-9]+)*(:[a-z0-9][a-z0-9.]*)?$/);
    fc.assert(
      fc.property(piece, piece, imagePath, (registry, path, image) => {
        expect(goPathJoin(goPathJoin(registry, path), image)).toBe(
          goPathJoin(registry, path, image),
        );
      }),
      { numRuns: 300 },
    );
  });
});

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

describe("goMarshalStringMap", () => {
  it("sorts keys and escapes as Go's encoding/json does", () => {
    expect(goMarshalStringMap({ b: "x<y>&z", a: 'q"\\\n\u2028', "\u00e9": "\u0001" })).toBe(
      '{"a":"q\\"\\\\\\n\\u2028","b":"x\\u003cy\\u003e\\u0026z","\u00e9":"\\u0001"}',
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
    const foreign = Object.assign(new Error("x"), { name: "RoutingError", code: "INVALID_YAML" });
    expect(isRoutingError(foreign)).toBe(true);
    expect(
      isRoutingError(Object.assign(new Error("x"), { name: "RoutingError", code: "NOPE" })),
    ).toBe(false);
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
