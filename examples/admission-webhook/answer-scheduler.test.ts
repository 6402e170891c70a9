/**
 * The answer scheduler on a hand-driven clock: when it answers a lone
 * admission, a burst due together, and how a late event loop moves every
 * answer earlier until the lateness is forgotten.
 */
import type { RoutingTimers } from "@kubeimg/policy/availability";
import { describe, expect, it } from "vitest";
import { AnswerScheduler } from "./answer-scheduler.js";

/** Timers that run only when the test moves the clock; `stall` moves it without running them. */
class HandClock implements RoutingTimers<number> {
  time = 0;
  #next = 1;
  #queue: { id: number; at: number; run: () => void }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): number {
    const id = this.#next++;
    this.#queue.push({ id, at: this.time + ms, run });
    return id;
  }
  clearTimeout(id: number): void {
    this.#queue = this.#queue.filter((t) => t.id !== id);
  }
  get pending(): number {
    return this.#queue.length;
  }
  /** Runs every timer due up to `until`, each at its own time. */
  runUntil(until: number): void {
    for (;;) {
      this.#queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.#queue[0];
      if (next === undefined || next.at > until) break;
      this.#queue.shift();
      this.time = Math.max(this.time, next.at);
      next.run();
    }
    this.time = Math.max(this.time, until);
  }
  /** The loop was busy for `ms`: time passes, then whatever fell due runs late. */
  stall(ms: number): void {
    this.time += ms;
    this.runUntil(this.time);
  }
}

function setup(cost = 0.5) {
  const clock = new HandClock();
  const scheduler = new AnswerScheduler({
    timers: clock,
    tickMs: 10,
    baseReserveMs: 20,
    answerCostMs: () => cost,
  });
  const answered: { id: string; at: number }[] = [];
  const add = (id: string, deadlineAt: number) =>
    scheduler.add(deadlineAt, () => answered.push({ id, at: clock.time }));
  return { clock, scheduler, answered, add };
}

describe("AnswerScheduler", () => {
  it("answers a lone admission once, just early enough for base reserve, one tick and one answer", () => {
    const { clock, answered, add, scheduler } = setup();
    add("a", 1000);
    clock.runUntil(960);
    expect(answered).toEqual([]);
    clock.runUntil(1000);
    // Due when 1000 - now <= 20 + 10 + 0.5: the tick at 970.
    expect(answered).toEqual([{ id: "a", at: 970 }]);
    expect(scheduler.pending).toBe(0);
    clock.runUntil(5000);
    expect(answered).toHaveLength(1);
    // Nothing waits, so nothing ticks.
    expect(clock.pending).toBe(0);
  });

  it("answers a burst due together early enough to write every answer before the last deadline", () => {
    const { clock, answered, add } = setup(0.5);
    for (let i = 0; i < 200; i++) add(`r${i}`, 1000);
    clock.runUntil(1000);
    expect(answered).toHaveLength(200);
    // 200 answers at 0.5 ms each need 100 ms: all go at the first tick with
    // 1000 - now <= 20 + 10 + 100.
    const at = new Set(answered.map((a) => a.at));
    expect([...at]).toEqual([870]);
    expect(answered.map((a) => a.id)).toEqual(Array.from({ length: 200 }, (_, i) => `r${i}`));
  });

  it("keeps deadline order whatever the order of arrival, and answers the earlier ones with a later one", () => {
    const { clock, answered, add } = setup(0);
    add("late", 2000);
    add("early", 1000);
    add("middle", 1500);
    clock.runUntil(3000);
    expect(answered.map((a) => a.id)).toEqual(["early", "middle", "late"]);
    expect(answered.map((a) => a.at)).toEqual([970, 1470, 1970]);
  });

  it("does not answer an admission cancelled by its own decision", () => {
    const { clock, answered, add, scheduler } = setup();
    const a = add("a", 1000);
    add("b", 1000);
    a.cancel();
    a.cancel();
    expect(scheduler.pending).toBe(1);
    clock.runUntil(2000);
    expect(answered.map((x) => x.id)).toEqual(["b"]);
  });

  it("answers earlier after the event loop came late, then forgets the lateness with its half-life", () => {
    const { clock, answered, add, scheduler } = setup(0);
    add("keeps-ticking", 100_000);
    clock.runUntil(100);
    // One tick comes 200 ms late.
    clock.stall(210);
    expect(scheduler.lagMs).toBeGreaterThan(190);
    add("a", clock.time + 300);
    clock.runUntil(clock.time + 300);
    // Due with ~200 ms of lateness in the reserve: about 230 ms before its deadline.
    const a = answered.find((x) => x.id === "a");
    expect(a).toBeDefined();
    expect((a as { at: number }).at).toBeLessThanOrEqual(clock.time - 200);
    // Five half-lives later the reserve is back near its base.
    clock.runUntil(clock.time + 2500);
    expect(scheduler.lagMs).toBeLessThan(10);
    const from = clock.time;
    add("b", from + 300);
    clock.runUntil(from + 300);
    expect((answered.find((x) => x.id === "b") as { at: number }).at).toBeGreaterThanOrEqual(
      from + 300 - 45,
    );
  });

  it("answers at once, at the next tick, an admission that arrives already due", () => {
    const { clock, answered, add } = setup();
    clock.runUntil(500);
    add("a", 505);
    clock.runUntil(600);
    expect(answered).toEqual([{ id: "a", at: 510 }]);
  });

  it("learns what its own answers cost from the batches it gives, and reserves that", () => {
    const clock = new HandClock();
    const scheduler = new AnswerScheduler({
      timers: clock,
      tickMs: 10,
      baseReserveMs: 20,
      answerCostMs: () => 0.1,
    });
    const answered: { id: string; at: number }[] = [];
    // Each answer really costs 2 ms of the loop, twenty times the caller's figure.
    const add = (id: string, deadlineAt: number) =>
      scheduler.add(deadlineAt, () => {
        answered.push({ id, at: clock.time });
        clock.time += 2;
      });
    for (let i = 0; i < 20; i++) add(`a${i}`, 1000);
    clock.runUntil(1500);
    // Reserved 20 x 0.1 ms: the first batch goes at the 970 ms tick and its last answer is late.
    expect(answered[0]?.at).toBe(970);
    expect(clock.time).toBeGreaterThan(1000);
    for (let i = 0; i < 20; i++) add(`b${i}`, 3000);
    clock.runUntil(3500);
    // Now 20 x 2 ms are reserved: every answer of the second batch is written by its deadline.
    const second = answered.filter((a) => a.id.startsWith("b"));
    expect(second).toHaveLength(20);
    expect((second[19] as { at: number }).at + 2).toBeLessThanOrEqual(3000);
  });

  it("refuses options that are not positive numbers of ms", () => {
    const timers = new HandClock();
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new AnswerScheduler({ timers, tickMs: bad })).toThrow(RangeError);
      expect(() => new AnswerScheduler({ timers, baseReserveMs: bad })).toThrow(/baseReserveMs/);
      expect(() => new AnswerScheduler({ timers, lagHalfLifeMs: bad })).toThrow(RangeError);
    }
  });
});
