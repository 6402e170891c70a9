/**
 * The mutator's load shedding, without a network: a checker that never
 * answers holds every admission until its deadline. With one decision slot,
 * only the first review is probed; the others wait for the slot, and the
 * deadline admits them without any probing.
 */
import type { AvailabilityChecker } from "@kubeimg/policy/availability";
import { compileRouting } from "@kubeimg/policy/routing";
import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { describe, expect, it } from "vitest";
import { ANSWER_RESERVE_MS, createPodMutator } from "./mutator.js";
import { nodeTimers } from "./timers.js";

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
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid,
      kind: { group: "", version: "v1", kind: "Pod" },
      resource: { group: "", version: "v1", resource: "pods" },
      operation: "CREATE",
      namespace: "default",
      object: {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: uid, namespace: "default" },
        spec: { containers: [{ name: "app", image }] },
      },
    },
  };
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
    const mutator = createPodMutator({
      routing,
      checker: hung,
      timers: nodeTimers,
      deadlineMs: 300,
      maxConcurrentAdmissions: 1,
    });
    const started = performance.now();
    const answers = await Promise.all(
      ["a", "b", "c"].map((name) => mutator(review(`uid-${name}`, `quay.io/team/${name}:1`))),
    );
    expect(performance.now() - started).toBeLessThan(2000);
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
    const mutator = createPodMutator({
      routing,
      checker: hangsUntilAborted(),
      timers: nodeTimers,
      deadlineMs: 1000,
      maxConcurrentAdmissions: 1,
    });
    const started = performance.now();
    const at = (answer: Promise<unknown>) => answer.then(() => performance.now() - started);
    const holder = mutator(review("uid-holder", "quay.io/team/holder:1"));
    // Arrived 500 ms ago: its deadline is 500 ms away, and the slot stays taken.
    const waiter = mutator(review("uid-waiter", "quay.io/team/waiter:1"), {
      receivedAt: performance.now() - 500,
    });
    const [holderAt, waiterAt] = await Promise.all([at(holder), at(waiter)]);
    // The scheduler answers it about 110 ms before its deadline, earlier by
    // the event loop's recent lateness (up to 150 ms allowed here for a busy
    // machine), and never after it.
    expect(waiterAt).toBeGreaterThanOrEqual(240);
    expect(waiterAt).toBeLessThan(500);
    expect(await waiter).toMatchObject({
      uid: "uid-waiter",
      allowed: true,
      warnings: [expect.stringMatching(/too busy to decide within 1000 ms/)],
    });
    expect((await waiter).patch).toBeUndefined();
    // The holder probed until ANSWER_RESERVE_MS before its own deadline.
    expect(holderAt).toBeGreaterThanOrEqual(1000 - ANSWER_RESERVE_MS - 10);
    expect(holderAt).toBeLessThan(1000);
  });

  it("does not start a decision when the slot comes less than ANSWER_RESERVE_MS before the deadline", async () => {
    const probed: string[] = [];
    const mutator = createPodMutator({
      routing,
      checker: hangsUntilAborted(probed),
      timers: nodeTimers,
      deadlineMs: 1000,
      maxConcurrentAdmissions: 1,
    });
    const started = performance.now();
    const holder = mutator(review("uid-holder", "quay.io/team/holder:1"));
    // Deadline 999 ms away; the holder gives its slot back at about 800 ms,
    // when 199 ms are left. (The answer scheduler alone would answer it
    // about 110 ms before its deadline, 889 ms from now.)
    const waiter = mutator(review("uid-waiter", "quay.io/team/waiter:1"), {
      receivedAt: performance.now() - 1,
    });
    const answer = await waiter;
    const waiterAt = performance.now() - started;
    await holder;
    expect(answer.warnings).toEqual([expect.stringMatching(/too busy to decide/)]);
    expect(waiterAt).toBeGreaterThanOrEqual(1000 - ANSWER_RESERVE_MS - 10);
    // Answered when the slot came, not when the scheduler would have.
    expect(waiterAt).toBeLessThan(850);
    expect(probed.some((image) => image.includes("waiter"))).toBe(false);
  });

  it("counts the deadline from the review's arrival", async () => {
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
      timers: nodeTimers,
      deadlineMs: 1000,
    });
    const started = performance.now();
    // Arrived 900 ms ago: 100 ms of budget are left.
    const answer = await mutator(review("uid-late", "quay.io/team/late:1"), {
      receivedAt: performance.now() - 900,
    });
    expect(answer.allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(600);
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
