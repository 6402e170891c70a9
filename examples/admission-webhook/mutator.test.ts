/**
 * The mutator's load shedding, without a network: a checker that never
 * answers holds every admission until its deadline. With one decision slot,
 * only the first review is probed; the others wait for the slot, and the
 * deadline admits them without any probing. Time is a hand-moved clock, so
 * a busy machine changes nothing here.
 */
import type { AvailabilityChecker, RoutingTimers } from "@kubeimg/policy/availability";
import { compileRouting } from "@kubeimg/policy/routing";
import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { podAdmissionReview } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import { ANSWER_RESERVE_MS, createPodMutator } from "./mutator.js";
import { type NodeTimerHandle, nodeTimers } from "./timers.js";

/**
 * Timers on a clock that moves only from one due timer to the next, once
 * everything else has run. Its handles are numbers, typed as Node's (the
 * mutator only hands them back).
 */
class StepClock implements RoutingTimers<NodeTimerHandle> {
  time = 0;
  #next = 1;
  #queue: { id: number; at: number; run: () => void }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): NodeTimerHandle {
    const id = this.#next++;
    this.#queue.push({ id, at: this.time + Math.max(0, ms), run });
    return id as unknown as NodeTimerHandle;
  }
  clearTimeout(handle: NodeTimerHandle): void {
    const id = handle as unknown as number;
    this.#queue = this.#queue.filter((t) => t.id !== id);
  }
  /** Runs due timers in time order until `answer` settles; resolves to the clock's time then. */
  async timeOf(answer: Promise<unknown>): Promise<number> {
    let settled = false;
    answer.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (;;) {
      // A real turn of the event loop: promise chains and immediates run before time moves.
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return this.time;
      this.#queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const due = this.#queue.shift();
      if (due === undefined) throw new Error("nothing left to run, and no answer");
      this.time = Math.max(this.time, due.at);
      due.run();
    }
  }
}

const routing = compileRouting(
  loadRoutingResources(`
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: mirror }
spec:
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: mirror.invalid
      path: /m
`),
);

function review(uid: string, image: string) {
  const metadata = { name: uid, namespace: "default" };
  return podAdmissionReview(uid, { containers: [{ name: "app", image }], metadata });
}

describe("createPodMutator under a burst", () => {
  it("decides at most maxConcurrentAdmissions at once and admits the rest unchanged at their deadline", async () => {
    const probed: string[] = [];
    const hung: AvailabilityChecker = {
      check: (image, _secret, { signal }) => {
        probed.push(image.string);
        return new Promise((resolve) =>
          signal?.addEventListener("abort", () =>
            resolve({ available: false, reason: "aborted", retryable: true }),
          ),
        );
      },
    };
    const clock = new StepClock();
    const mutator = createPodMutator({
      routing,
      checker: hung,
      timers: clock,
      deadlineMs: 300,
      maxConcurrentAdmissions: 1,
    });
    const all = Promise.all(
      ["a", "b", "c"].map((name) => mutator(review(`uid-${name}`, `quay.io/team/${name}:1`))),
    );
    expect(await clock.timeOf(all)).toBeLessThan(300);
    const answers = await all;
    expect(answers.map((a) => [a.uid, a.allowed])).toEqual([
      ["uid-a", true],
      ["uid-b", true],
      ["uid-c", true],
    ]);
    // Only the slot holder reached the checker.
    expect(probed.length).toBeGreaterThan(0);
    expect(probed.every((image) => image.includes("/a:1"))).toBe(true);
    // The slot holder gives up on probing before the deadline; the next one
    // starts with no probe budget left, and the last one never starts.
  });

  const hangsUntilAborted = (probed: string[] = []): AvailabilityChecker => ({
    check: (image, _secret, { signal }) => {
      probed.push(image.string);
      return new Promise((resolve) =>
        signal?.addEventListener("abort", () =>
          resolve({ available: false, reason: "aborted", retryable: true }),
        ),
      );
    },
  });

  it("answers a review still waiting for a slot before its deadline, with a warning", async () => {
    const clock = new StepClock();
    const mutator = createPodMutator({
      routing,
      checker: hangsUntilAborted(),
      timers: clock,
      deadlineMs: 1000,
      maxConcurrentAdmissions: 1,
    });
    const holder = mutator(review("uid-holder", "quay.io/team/holder:1"));
    // Arrived 500 ms ago: its deadline is 500 ms away, and the slot stays taken.
    const waiter = mutator(review("uid-waiter", "quay.io/team/waiter:1"), {
      receivedAt: clock.now() - 500,
    });
    const waiterAt = await clock.timeOf(waiter);
    const holderAt = await clock.timeOf(holder);
    // The scheduler answers it about 110 ms before its deadline (earlier by
    // the event loop's recent lateness, none on this clock), never after it.
    expect(waiterAt).toBeGreaterThanOrEqual(350);
    expect(waiterAt).toBeLessThan(500);
    expect(await waiter).toMatchObject({
      uid: "uid-waiter",
      allowed: true,
      warnings: [expect.stringMatching(/too busy to decide within 1000 ms/)],
    });
    expect((await waiter).patch).toBeUndefined();
    // The holder probed until ANSWER_RESERVE_MS before its own deadline.
    expect(holderAt).toBeGreaterThanOrEqual(1000 - ANSWER_RESERVE_MS);
    expect(holderAt).toBeLessThan(1000);
  });

  it("does not start a decision when the slot comes less than ANSWER_RESERVE_MS before the deadline", async () => {
    const probed: string[] = [];
    const clock = new StepClock();
    const mutator = createPodMutator({
      routing,
      checker: hangsUntilAborted(probed),
      timers: clock,
      deadlineMs: 1000,
      maxConcurrentAdmissions: 1,
    });
    const holder = mutator(review("uid-holder", "quay.io/team/holder:1"));
    // Deadline 999 ms away; the holder gives its slot back at 800 ms, when
    // 199 ms are left. (The answer scheduler alone would answer it about
    // 110 ms before its deadline, 889 ms from now.)
    const waiter = mutator(review("uid-waiter", "quay.io/team/waiter:1"), {
      receivedAt: clock.now() - 1,
    });
    const waiterAt = await clock.timeOf(waiter);
    const answer = await waiter;
    await clock.timeOf(holder);
    expect(answer.warnings).toEqual([expect.stringMatching(/too busy to decide/)]);
    expect(waiterAt).toBeGreaterThanOrEqual(1000 - ANSWER_RESERVE_MS);
    // Answered when the slot came, not when the scheduler would have.
    expect(waiterAt).toBeLessThan(850);
    expect(probed.some((image) => image.includes("waiter"))).toBe(false);
  });

  it("counts the deadline from the review's arrival", async () => {
    const clock = new StepClock();
    const mutator = createPodMutator({
      routing,
      checker: {
        check: (_image, _secret, { signal }) =>
          new Promise((resolve) =>
            signal?.addEventListener("abort", () =>
              resolve({ available: false, reason: "aborted", retryable: true }),
            ),
          ),
      },
      timers: clock,
      deadlineMs: 1000,
    });
    // Arrived 900 ms ago: 100 ms of budget are left.
    const late = mutator(review("uid-late", "quay.io/team/late:1"), {
      receivedAt: clock.now() - 900,
    });
    expect(await clock.timeOf(late)).toBeLessThan(100);
    expect((await late).allowed).toBe(true);
  });

  it("refuses a maxConcurrentAdmissions that is not a whole number ≥ 1", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        createPodMutator({
          routing,
          checker: { check: async () => ({ available: true }) },
          timers: nodeTimers,
          maxConcurrentAdmissions: bad,
        }),
      ).toThrow(RangeError);
    }
  });
});
