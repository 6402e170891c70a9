import { describe, expect, it } from "vitest";
import type { RoutingTimers } from "./checker.js";
import { TURN_GAP_MS, TURN_SERVED, TURN_SLICE_MS, turnBudget } from "./turns.js";

/** A clock moved by hand and timers run by hand, one at a time, in order. */
function manualTimers() {
  let now = 0;
  const due: { id: number; callback: () => void }[] = [];
  let nextId = 0;
  const timers: RoutingTimers<number> = {
    now: () => now,
    setTimeout: (callback) => {
      due.push({ id: ++nextId, callback });
      return nextId;
    },
    clearTimeout: (handle) => {
      const i = due.findIndex((t) => t.id === handle);
      if (i >= 0) due.splice(i, 1);
    },
  };
  return {
    timers,
    move: (ms: number) => {
      now += ms;
    },
    pending: () => due.length,
    /** Works steadily, half a millisecond at a time, until the turn is spent. */
    spend(budget: { spent(): boolean }) {
      while (!budget.spent()) now += 0.5;
    },
    /** Runs the oldest timer, then lets its promise reactions run. */
    async runOne(): Promise<void> {
      due.shift()?.callback();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
  };
}

describe("turnBudget", () => {
  it("is one budget per timers object", () => {
    const a = manualTimers().timers;
    const b = manualTimers().timers;
    expect(turnBudget(a)).toBe(turnBudget(a));
    expect(turnBudget(a)).not.toBe(turnBudget(b));
  });

  it("a turn is spent after its slice of steady work; a gap starts a new turn", () => {
    const clock = manualTimers();
    const budget = turnBudget(clock.timers);
    expect(budget.spent()).toBe(false);
    for (let t = 0; t < TURN_SLICE_MS; t += 0.5) {
      clock.move(0.5);
      expect(budget.spent()).toBe(false);
    }
    clock.move(0.5);
    expect(budget.spent()).toBe(true);
    clock.move(TURN_GAP_MS + 0.5);
    expect(budget.spent()).toBe(false);
    // A clock that does not move never spends a turn, and sets no timer.
    for (let i = 0; i < 10_000; i++) expect(budget.spent()).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it("defer runs at once in a fresh turn, then in line, in order, a few per later turn", async () => {
    const clock = manualTimers();
    const budget = turnBudget(clock.timers);
    const ran: number[] = [];
    budget.defer(() => ran.push(0));
    expect(ran).toEqual([0]);
    // Spend the turn: what follows waits for a zero-delay timer, in order.
    clock.spend(budget);
    const total = 2 * TURN_SERVED + 5;
    for (let i = 1; i <= total; i++) budget.defer(() => ran.push(i));
    expect(ran).toEqual([0]);
    expect(clock.pending()).toBe(1);
    await clock.runOne();
    expect(ran).toHaveLength(1 + TURN_SERVED);
    await clock.runOne();
    await clock.runOne();
    expect(ran).toEqual(Array.from({ length: total + 1 }, (_, i) => i));
    expect(clock.pending()).toBe(0);
  });

  it("a turn that is spent while serving stops serving, after at least one", async () => {
    const clock = manualTimers();
    const budget = turnBudget(clock.timers);
    clock.spend(budget);
    const ran: number[] = [];
    for (let i = 0; i < 3; i++) {
      budget.defer(() => {
        ran.push(i);
        clock.move(TURN_SLICE_MS + 0.5);
      });
    }
    await clock.runOne();
    expect(ran).toEqual([0]);
    await clock.runOne();
    expect(ran).toEqual([0, 1]);
  });

  it("pause resolves in a later turn, after the work already in line", async () => {
    const clock = manualTimers();
    const budget = turnBudget(clock.timers);
    clock.spend(budget);
    const order: string[] = [];
    budget.defer(() => order.push("deferred"));
    void budget.pause().then(() => order.push("paused"));
    await Promise.resolve();
    expect(order).toEqual([]);
    await clock.runOne();
    expect(order).toEqual(["deferred", "paused"]);
  });
});
