import { describe, expect, it } from "vitest";
import { settlesBefore } from "./timer-order.js";

describe("settlesBefore", () => {
  it("is true for work that settles first, resolved or rejected", async () => {
    expect(await settlesBefore(Promise.resolve(1), 50)).toBe(true);
    expect(await settlesBefore(Promise.reject(new Error("x")), 50)).toBe(true);
  });

  it("is false for work still pending when its timer has fired", async () => {
    expect(await settlesBefore(new Promise(() => {}), 10)).toBe(false);
  });

  it("waits for a deadline that hands over to one more timer", async () => {
    const work = new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 20));
    const verdict = settlesBefore(work, 30);
    const until = performance.now() + 200;
    while (performance.now() < until) {}
    expect(await verdict).toBe(true);
  });

  it("keeps the timers' order when the process is paused past both", async () => {
    const work = new Promise((resolve) => setTimeout(resolve, 20));
    const verdict = settlesBefore(work, 30);
    // Blocks the event loop well past both timers, as a busy machine can.
    const until = performance.now() + 200;
    while (performance.now() < until) {}
    expect(await verdict).toBe(true);
  });
});
