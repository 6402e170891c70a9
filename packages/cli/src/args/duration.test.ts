import { describe, expect, it } from "vitest";
import { parseDurationFlag } from "./duration.js";

describe("parseDurationFlag", () => {
  it.each([
    { input: "1s", ms: 1000 },
    { input: "500ms", ms: 500 },
    { input: "1m30s", ms: 90_000 },
    { input: "1.5s", ms: 1500 },
    { input: "2h", ms: 7_200_000 },
    { input: "250us", ms: 0.25 },
  ])("$input is $ms ms", ({ input, ms }) => {
    expect(parseDurationFlag(input, "--timeout")).toBe(ms);
  });

  it.each(["", "1", "soon", "-1s", "0s", "1s2", "1 s", "s"])("refuses %j", (input) => {
    expect(() => parseDurationFlag(input, "--timeout")).toThrow(
      expect.objectContaining({ code: "USAGE", input }),
    );
  });
});
