import { describe, expect, it } from "vitest";
import { isRetryableStatus } from "./status.js";

describe("isRetryableStatus", () => {
  it.each([
    { status: 408, want: true },
    { status: 429, want: true },
    { status: 500, want: true },
    { status: 502, want: true },
    { status: 503, want: true },
    { status: 504, want: true },
    { status: 599, want: true },
    { status: 501, want: false }, // the registry does not implement the method
    { status: 505, want: false }, // the HTTP version: waiting does not change it
    { status: 400, want: false },
    { status: 401, want: false },
    { status: 404, want: false },
    { status: 200, want: false },
    { status: 600, want: false },
  ])("$status", ({ status, want }) => {
    expect(isRetryableStatus(status)).toBe(want);
  });
});
