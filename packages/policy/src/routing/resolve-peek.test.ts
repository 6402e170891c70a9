import { familiarString } from "@kubeimg/core/reference";
import { FakeTimers, type Script, ScriptedChecker } from "@kubeimg/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Availability, PeekingAvailabilityChecker } from "../availability/checker.js";
import {
  type FirstAvailableResult,
  resolveFirstAvailable,
} from "../availability/first-available.js";
import { compileRouting } from "./compile.js";
import { parseRoutingResource } from "./load.js";
import { planPodRouting } from "./plan-pod.js";
import { resolvePodRouting } from "./resolve-pod.js";

/** An image known at once (a cached verdict, an open circuit), or one a probe must ask. */
type Behaviour = { readonly known: Availability } | Script;

const unavailable: Availability = { available: false, reason: "not found", retryable: false };

/** Any behaviour: known at once either way, answered after a while, or never. */
const behaviour = fc.oneof(
  fc.constant<Behaviour>({ known: { available: true } }),
  fc.constant<Behaviour>({ known: unavailable }),
  fc.record({ after: fc.integer({ min: 1, max: 50 }), available: fc.boolean() }),
  fc.constant<Behaviour>("hang"),
);

/**
 * The scripted checker, peeking or not: known images answer `peek` at once
 * and, when probed anyway, answer their known verdict without delay.
 */
function checkerOf(timers: FakeTimers, behaviours: Record<string, Behaviour>, peeking: boolean) {
  const script: Record<string, Script> = {};
  const known = new Map<string, Availability>();
  for (const [image, b] of Object.entries(behaviours)) {
    if (typeof b === "object" && "known" in b) {
      known.set(image, b.known);
      script[image] = { after: 0, available: b.known.available };
    } else script[image] = b;
  }
  const scripted = new ScriptedChecker(timers, script);
  const peeks: string[] = [];
  const checker: PeekingAvailabilityChecker = {
    check: (image, secret, options) => scripted.check(image, secret, options),
    peek: (reference) => {
      const image = familiarString(reference);
      peeks.push(image);
      return known.get(image);
    },
  };
  return { scripted, peeks, checker: peeking ? checker : { check: checker.check } };
}

async function run(
  behaviours: Record<string, Behaviour>,
  peeking: boolean,
): Promise<{ result: FirstAvailableResult<{ image: string }>; at: number; calls: string[] }> {
  const timers = new FakeTimers();
  const { scripted, checker } = checkerOf(timers, behaviours, peeking);
  let result: FirstAvailableResult<{ image: string }> | undefined;
  void resolveFirstAvailable(
    Object.keys(behaviours).map((image) => ({ image })),
    checker,
    { timers, deadlineMs: 200 },
  ).then((r) => {
    result = r;
  });
  while (result === undefined) await timers.advance(1);
  return { result, at: timers.now(), calls: scripted.calls.map((c) => c.image) };
}

describe("resolveFirstAvailable over a peeking checker", () => {
  it("known answers decide at once: no check, no signal", async () => {
    const timers = new FakeTimers();
    const { scripted, peeks, checker } = checkerOf(
      timers,
      { a: { known: unavailable }, b: { known: { available: true } }, c: "hang" },
      true,
    );
    const result = await resolveFirstAvailable(
      [{ image: "a" }, { image: "b" }, { image: "c" }],
      checker,
      { timers },
    );
    expect(result.winner?.image).toBe("b");
    expect(result.outcomes.map((o) => o.state)).toEqual(["unavailable", "available", "aborted"]);
    // c cannot win once b is known available: it is neither peeked nor probed.
    expect(peeks).toEqual(["a", "b"]);
    expect(scripted.calls).toEqual([]);
    expect(timers.pending).toBe(0);
  });

  it("probes only the alternatives ahead of a known winner that it cannot decide", async () => {
    const { result, at, calls } = await run(
      {
        a: { after: 100, available: false },
        b: { known: { available: true } },
        c: { after: 1, available: true },
      },
      true,
    );
    expect(calls).toEqual(["a"]);
    expect(at).toBe(100);
    expect(result.winner?.image).toBe("b");
    expect(result.outcomes.map((o) => o.state)).toEqual(["unavailable", "available", "aborted"]);
  });

  it("decides exactly as without peeking, at the same time", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(behaviour, { minLength: 0, maxLength: 6 }), async (list) => {
        // Entries that hang are cut by the deadline.
        const behaviours: Record<string, Behaviour> = {};
        list.forEach((b, i) => {
          behaviours[`i${i}`] = b;
        });
        const peeked = await run(behaviours, true);
        const plain = await run(behaviours, false);
        expect(peeked.result.index).toBe(plain.result.index);
        expect(peeked.result.timedOut).toBe(plain.result.timedOut);
        expect(peeked.result.winner).toEqual(plain.result.winner);
        expect(peeked.at).toBe(plain.at);
        const states = (r: FirstAvailableResult<{ image: string }>) =>
          r.outcomes.map((o) => o.state);
        // Entries behind the winner are aborted either way; entries ahead answered either way.
        expect(states(peeked.result)).toEqual(states(plain.result));
      }),
      { numRuns: 300 },
    );
  });
});

describe("resolvePodRouting over a peeking checker", () => {
  const routing = compileRouting([
    parseRoutingResource({
      apiVersion: "kuik.enix.io/v1alpha1",
      kind: "ClusterImageSetMirror",
      metadata: { name: "mirrors" },
      spec: {
        filter: { include: [{ image: ".*" }] },
        mirrors: [
          { registry: "one.example.com", path: "/m" },
          { registry: "two.example.com", path: "/m" },
        ],
      },
    }),
  ]);

  it("patches and resolves every container as without peeking, at the same time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 12 }),
        fc.array(behaviour, { minLength: 18, maxLength: 18 }),
        async (apps, behaviours) => {
          const pod = {
            apiVersion: "v1",
            kind: "Pod",
            metadata: { name: "p", namespace: "apps" },
            spec: {
              containers: apps.map((a, i) => ({ name: `c${i}`, image: `quay.io/team/app${a}:1` })),
            },
          };
          const plan = planPodRouting(routing, pod);
          // Each app's three alternatives (two mirrors, then the original) behave as drawn.
          const table: Record<string, Behaviour> = {};
          for (let a = 0; a < 6; a++) {
            table[`one.example.com/m/quay.io/team/app${a}:1`] = behaviours[a * 3] as Behaviour;
            table[`two.example.com/m/quay.io/team/app${a}:1`] = behaviours[a * 3 + 1] as Behaviour;
            table[`quay.io/team/app${a}:1`] = behaviours[a * 3 + 2] as Behaviour;
          }
          const resolve = async (peeking: boolean) => {
            const timers = new FakeTimers();
            const { checker } = checkerOf(timers, table, peeking);
            let done: Awaited<ReturnType<typeof resolvePodRouting>> | undefined;
            void resolvePodRouting(plan, checker, { timers, deadlineMs: 200 }).then((r) => {
              done = r;
            });
            while (done === undefined) await timers.advance(1);
            return { done, at: timers.now() };
          };
          const plain = await resolve(false);
          const peeked = await resolve(true);
          expect(peeked.done.patch).toEqual(plain.done.patch);
          expect(peeked.done.resolutions).toEqual(plain.done.resolutions);
          expect(peeked.at).toBe(plain.at);
        },
      ),
      { numRuns: 150 },
    );
  });
});
