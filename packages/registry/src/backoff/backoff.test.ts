import { describe, expect, it } from "vitest";
import { createBackoffSchedule, createBackoffTracker } from "./backoff.js";

describe("createBackoffSchedule", () => {
  it("follows the kubelet ImagePullBackOff shape by default", () => {
    const schedule = createBackoffSchedule();
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => schedule.delayMs(n))).toEqual([
      0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000,
    ]);
  });
  it("adds bounded jitter from the injected random source", () => {
    const schedule = createBackoffSchedule({ jitter: 0.1, random: () => 0.5 });
    expect(schedule.delayMs(2)).toBe(21_000);
  });
  it("rejects nonsense", () => {
    expect(() => createBackoffSchedule({ initialMs: 10, maxMs: 5 })).toThrow(RangeError);
  });
});

describe("createBackoffTracker", () => {
  it("tracks failures per key with the injected clock", () => {
    let now = 0;
    const tracker = createBackoffTracker(createBackoffSchedule(), { now: () => now });
    expect(tracker.recordFailure("repo")).toBe(10_000);
    expect(tracker.isInBackoff("repo")).toBe(true);
    now = 10_000;
    expect(tracker.isInBackoff("repo")).toBe(false);
    expect(tracker.recordFailure("repo")).toBe(30_000);
    tracker.reset("repo");
    expect(tracker.isInBackoff("repo")).toBe(false);
  });
});
