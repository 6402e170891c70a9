import { describe, expect, it } from "vitest";
import { compileTagFilter } from "./filter.js";

describe("compileTagFilter", () => {
  const byTimestamp = compileTagFilter({
    pattern: "^main-[0-9a-f]+-(?P<ts>[0-9]+)$",
    extract: "$ts",
  });

  it("keys a tag by its extract template, undefined when the pattern misses", () => {
    expect(byTimestamp.keyOf("main-abc1234-1700000000")).toBe("1700000000");
    expect(byTimestamp.keyOf("dev")).toBeUndefined();
  });

  it("keeps the later tag of two with the same key, as Flux's map does", () => {
    expect([...byTimestamp.apply(["main-a-1", "dev", "main-b-1"])]).toEqual([["1", "main-b-1"]]);
  });
});
