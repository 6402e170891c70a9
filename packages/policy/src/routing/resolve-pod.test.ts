import { FakeTimers, flushMicrotasks } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import type { Availability, AvailabilityChecker } from "../availability/checker.js";
import { compileRouting } from "./compile.js";
import { isRoutingError } from "./errors.js";
import { parseRoutingResource } from "./load.js";
import { planPodRouting, planPodRoutingAsync } from "./plan-pod.js";
import { resolvePodRouting } from "./resolve-pod.js";

const routing = compileRouting([
  parseRoutingResource({
    apiVersion: "kuik.enix.io/v1alpha1",
    kind: "ClusterImageSetMirror",
    metadata: { name: "mirror" },
    spec: {
      filter: { include: [{ image: ".*" }] },
      mirrors: [{ registry: "mirror.example.com", path: "/m" }],
    },
  }),
]);

const bigPod = (n: number) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "big", namespace: "apps" },
  spec: {
    containers: Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image: `app${i}:1` })),
    initContainers: [{ name: "init", image: "alpine:3" }],
  },
});

/** Counts timers scheduled with delay 0: each is one hand-back of the event loop. */
class CountingTimers extends FakeTimers {
  zeroDelays = 0;
  override setTimeout(callback: () => void, ms: number): number {
    if (ms === 0) this.zeroDelays++;
    return super.setTimeout(callback, ms);
  }
}

/** Runs `work` while moving the fake clock one ms at a time until it settles. */
async function drive<T>(timers: FakeTimers, work: Promise<T>): Promise<T> {
  let done = false;
  let value: T | undefined;
  let failure: { error: unknown } | undefined;
  work.then(
    (v) => {
      value = v;
      done = true;
    },
    (error: unknown) => {
      failure = { error };
      done = true;
    },
  );
  await flushMicrotasks();
  while (!done) await timers.advance(1);
  if (failure) throw failure.error;
  return value as T;
}

describe("planPodRoutingAsync", () => {
  it("plans exactly as planPodRouting, handing the event loop back every yieldEvery containers", async () => {
    const timers = new CountingTimers();
    const pod = bigPod(1000);
    const plan = await drive(
      timers,
      planPodRoutingAsync(routing, pod, { timers, yieldEvery: 100 }),
    );
    expect(plan).toEqual(planPodRouting(routing, pod));
    expect(timers.zeroDelays).toBeGreaterThanOrEqual(10);
  });

  it("stops with ABORTED when the signal aborts between chunks", async () => {
    const timers = new FakeTimers();
    const controller = new AbortController();
    const planning = planPodRoutingAsync(routing, bigPod(1000), {
      timers,
      yieldEvery: 10,
      signal: controller.signal,
    });
    controller.abort();
    const error = await drive(timers, planning).catch((e: unknown) => e);
    expect(isRoutingError(error) && error.code).toBe("ABORTED");
  });

  it("rejects a malformed Pod as planPodRouting throws", async () => {
    const timers = new FakeTimers();
    const error = await planPodRoutingAsync(
      routing,
      { spec: { containers: "x" } },
      { timers },
    ).catch((e: unknown) => e);
    expect(isRoutingError(error) && error.code).toBe("INVALID_POD");
  });
});

describe("resolvePodRouting on a large Pod", () => {
  const counting = (timers: FakeTimers, answerAfter: number | "hang") => {
    const stats = { running: 0, peak: 0, calls: 0 };
    const checker: AvailabilityChecker = {
      check: (_image, _secret, { signal }) =>
        new Promise<Availability>((resolve) => {
          stats.calls++;
          stats.running++;
          stats.peak = Math.max(stats.peak, stats.running);
          const done = (answer: Availability) => {
            stats.running--;
            resolve(answer);
          };
          const handle =
            answerAfter === "hang"
              ? undefined
              : timers.setTimeout(() => done({ available: true }), answerAfter);
          signal?.addEventListener("abort", () => {
            if (handle !== undefined) timers.clearTimeout(handle);
            done({ available: false, reason: "aborted", retryable: true });
          });
        }),
    };
    return { stats, checker };
  };

  it("resolves a few containers at a time and hands the event loop back", async () => {
    const timers = new CountingTimers();
    const { stats, checker } = counting(timers, 2);
    const plan = planPodRouting(routing, bigPod(500));
    const result = await drive(
      timers,
      resolvePodRouting(plan, checker, { timers, maxConcurrentContainers: 8, yieldEvery: 50 }),
    );
    // Two alternatives per container (mirror, original): at most 8 containers' worth at once.
    expect(stats.peak).toBeLessThanOrEqual(16);
    expect(result.resolutions.filter((r) => r?.winner)).toHaveLength(501);
    expect(timers.zeroDelays).toBeGreaterThanOrEqual(10);
  });

  it("one deadline for the whole Pod: containers not started by then keep their image", async () => {
    const timers = new FakeTimers();
    const { checker } = counting(timers, "hang");
    const plan = planPodRouting(routing, bigPod(100));
    const started = timers.now();
    const result = await drive(
      timers,
      resolvePodRouting(plan, checker, { timers, deadlineMs: 50, maxConcurrentContainers: 4 }),
    );
    expect(timers.now() - started).toBeLessThanOrEqual(51);
    expect(result.resolutions.filter((r) => r !== undefined)).toHaveLength(4);
    expect(result.images.slice(0, 100)).toEqual(plan.containers.slice(0, 100).map((c) => c.image));
  });
});
