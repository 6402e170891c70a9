import { describe, expect, it } from "vitest";
import { policerFromSpec } from "./policers.js";

describe("policerFromSpec", () => {
  it("numerical desc: the smallest number is the latest", () => {
    expect(policerFromSpec({ numerical: { order: "desc" } }).latest(["3", "1", "2"])).toBe("1");
    expect(policerFromSpec({ numerical: { order: "asc" } }).latest(["3", "1", "2"])).toBe("3");
  });
});
