import { describe, expect, it } from "vitest";
import { parseDurationFlag } from "./duration.js";

describe("parseDurationFlag", () => {
  it.each([
    { input: "1s", ms: 1000 },
    { input: "500ms", ms: 500 },
    { input: "1m30s", ms: 90_000 },
    { input: "1.5s", ms: 1500 },
    { input: "2h", ms: 7_200_000 },
    { input: "1ms", ms: 1 },
    { input: "596h31m23.647s", ms: 2 ** 31 - 1 },
  ])("$input is $ms ms", ({ input, ms }) => {
    expect(parseDurationFlag(input, "--timeout")).toBe(ms);
  });

  it.each(["", "1", "soon", "-1s", "0s", "1s2", "1 s", "s"])("refuses %j", (input) => {
    expect(() => parseDurationFlag(input, "--timeout")).toThrow(
      expect.objectContaining({ code: "USAGE", input }),
    );
  });
});

describe("parseDurationFlag bounds (a Node.js timer holds 1ms to 2^31-1 ms)", () => {
  it.each(["597h", "1200h", "1ns", "250us", "999us", "596h31m23.648s", `${"9".repeat(400)}h`])(
    "refuses %s with a USAGE error naming the bounds",
    (input) => {
      let caught: unknown;
      try {
        parseDurationFlag(input, "--timeout");
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ name: "CliError", code: "USAGE", input });
      expect((caught as Error).message).toContain("between 1ms and 596h31m23.647s");
    },
  );
});
