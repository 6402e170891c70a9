import { familiarString, type NamedReference } from "@kubeimg/core/reference";
import { FakeTimers, type Script, ScriptedChecker } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import { resolveFirstAvailable } from "./first-available.js";

function setup(script: Record<string, Script>) {
  const timers = new FakeTimers();
  const checker = new ScriptedChecker(timers, script);
  return { timers, checker };
}

function track<T>(promise: Promise<T>) {
  const state: { done: boolean; value?: T } = { done: false };
  promise.then((value) => {
    state.done = true;
    state.value = value;
  });
  return state;
}

const list = (...images: string[]) => images.map((image) => ({ image }));

describe("resolveFirstAvailable", () => {
  it("decides when the slowest probe ahead of the winner answers, not after the sum", async () => {
    const { timers, checker } = setup({
      a: { after: 100, available: false },
      b: { after: 300, available: false },
      c: { after: 200, available: true },
      d: { after: 1000, available: true },
    });
    const result = track(resolveFirstAvailable(list("a", "b", "c", "d"), checker, { timers }));
    await timers.advance(299);
    expect(result.done).toBe(false);
    await timers.advance(1);
    expect(result.done).toBe(true);
    expect(timers.now()).toBe(300); // max(100, 300, 200), not 100 + 300 + 200
    expect(result.value?.winner?.image).toBe("c");
    expect(result.value?.index).toBe(2);
    expect(checker.aborted).toEqual(["d"]);
    expect(result.value?.outcomes.map((o) => o.state)).toEqual([
      "unavailable",
      "unavailable",
      "available",
      "aborted",
    ]);
  });

  it("keeps list order: an earlier entry wins even when a later one answers first", async () => {
    const { timers, checker } = setup({
      a: { after: 200, available: true },
      b: { after: 10, available: true },
    });
    const result = track(resolveFirstAvailable(list("a", "b"), checker, { timers }));
    await timers.advance(10);
    expect(result.done).toBe(false);
    await timers.advance(190);
    expect(result.value?.winner?.image).toBe("a");
  });

  it("aborts the probes that can no longer win as soon as a better entry is available", async () => {
    const { timers, checker } = setup({ a: "hang", b: { after: 20, available: true }, c: "hang" });
    const result = track(resolveFirstAvailable(list("a", "b", "c"), checker, { timers }));
    await timers.advance(20);
    expect(checker.aborted).toEqual(["c"]); // c is behind an available entry; a may still win
    expect(result.done).toBe(false);
  });

  it("returns no winner when every entry is unavailable", async () => {
    const { timers, checker } = setup({
      a: { after: 5, available: false },
      b: { after: 7, available: false },
    });
    const result = track(resolveFirstAvailable(list("a", "b"), checker, { timers }));
    await timers.advance(7);
    expect(result.value).toMatchObject({ winner: undefined, index: -1, timedOut: false });
  });

  it("honours the overall deadline: pending probes are aborted, the first known available wins", async () => {
    const { timers, checker } = setup({ a: "hang", b: { after: 10, available: true } });
    const result = track(
      resolveFirstAvailable(list("a", "b"), checker, { timers, deadlineMs: 500 }),
    );
    await timers.advance(499);
    expect(result.done).toBe(false);
    await timers.advance(1);
    expect(result.value).toMatchObject({ index: 1, timedOut: true });
    expect(checker.aborted).toEqual(["a"]);
    expect(timers.pending).toBe(0);
  });

  it("settles at once with aborted when the caller's signal aborts", async () => {
    const { timers, checker } = setup({ a: "hang", b: "hang" });
    const controller = new AbortController();
    const result = track(
      resolveFirstAvailable(list("a", "b"), checker, { timers, signal: controller.signal }),
    );
    await timers.advance(1);
    controller.abort();
    await timers.advance(0);
    expect(result.value).toMatchObject({ winner: undefined, aborted: true });
    expect(checker.aborted.sort()).toEqual(["a", "b"]);
  });

  it("counts a throwing checker as unavailable and never rejects", async () => {
    const throwing = {
      check(image: NamedReference) {
        if (familiarString(image) === "a") throw new Error("boom");
        return Promise.reject(new Error("network down"));
      },
    };
    const result = await resolveFirstAvailable(list("a", "b"), throwing);
    expect(result.winner).toBeUndefined();
    expect(result.outcomes).toEqual([
      { state: "unavailable", reason: "boom", retryable: true, durationMs: undefined },
      { state: "unavailable", reason: "network down", retryable: true, durationMs: undefined },
    ]);
  });

  it("returns at once for an empty list", async () => {
    const { checker } = setup({});
    expect(await resolveFirstAvailable([], checker)).toMatchObject({
      winner: undefined,
      index: -1,
    });
    expect(checker.calls).toHaveLength(0);
  });

  it("refuses a deadline without timers", () => {
    const { checker } = setup({});
    expect(() => resolveFirstAvailable(list("a"), checker, { deadlineMs: 5 })).toThrow(TypeError);
  });
});
