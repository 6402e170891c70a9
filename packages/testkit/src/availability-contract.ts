/**
 * The contract every {@link AvailabilityState} must keep, as behaviour of the
 * gate over it: run once per implementation (the in-memory state on a fake
 * clock here, the Redis state on the real clock in `@kubeimg/redis`). Times
 * are multiples of a unit `u` so that a real-clock run stays short; the
 * probe timeout is `10u`.
 */

import { parseNormalizedNamed as ref } from "@kubeimg/core/reference";
import {
  type AvailabilityChecker,
  type AvailabilityGateOptions,
  type AvailabilityState,
  createAvailabilityGate,
  type RoutingTimers,
  resolveFirstAvailable,
} from "@kubeimg/policy/availability";
import { describe, expect, it } from "vitest";
import { flushMicrotasks } from "./fake-timers.js";
import { type Script, ScriptedChecker } from "./scripted-checker.js";

/** What a contract clock's timers return: a fake's id, or Node's own handle. */
export type ContractTimerHandle = number | ReturnType<typeof setTimeout>;

/** A clock the contract can move: fake (instant) or real (sleeps). */
export interface ContractClock extends RoutingTimers<ContractTimerHandle> {
  advance(ms: number): Promise<void>;
}

/** What one implementation brings to the contract. */
export interface ContractWorld {
  readonly clock: ContractClock;
  /** A fresh, empty state; two calls in one world may share it (`shared: true`) as replicas do. */
  state(options?: { shared?: boolean }): AvailabilityState;
}

/** How an implementation runs the contract. */
export interface ContractSetup {
  /** Milliseconds per unit of contract time. */
  readonly unit: number;
  /** Slack allowed on elapsed-time assertions, in ms (scheduling on a real clock). */
  readonly slackMs: number;
  /** A new world per test. */
  world(): Promise<ContractWorld> | ContractWorld;
  /** Ends a world (closes connections). */
  dispose?(world: ContractWorld): Promise<void> | void;
}

/** A scripted registry on the contract clock, naming images by their full string. */
function contractChecker(
  clock: ContractClock,
  unit: number,
  script: Readonly<Record<string, Script | (() => Script)>>,
): ScriptedChecker<ContractTimerHandle> {
  return new ScriptedChecker(clock, script, {
    unit,
    unscriptedAfter: 0.1,
    nameOf: (reference) => reference.string,
  });
}

/** Runs `run` and moves the clock until it settles; returns the elapsed time and the value. */
async function timed<T>(
  clock: ContractClock,
  run: () => Promise<T>,
  step: number,
): Promise<{ elapsed: number; value: T }> {
  const start = clock.now();
  let value: T | undefined;
  let done = false;
  run().then((v) => {
    value = v;
    done = true;
  });
  await flushMicrotasks();
  while (!done) await clock.advance(step);
  return { elapsed: clock.now() - start, value: value as T };
}

/** Declares the availability-gate contract for one state implementation. */
export function describeAvailabilityGateContract(name: string, setup: ContractSetup): void {
  const u = setup.unit;
  const T = 10 * u;
  const slack = setup.slackMs;
  const step = Math.max(1, Math.round(u / 10));

  const withWorld = (fn: (world: ContractWorld) => Promise<void>) => async () => {
    const world = await setup.world();
    try {
      await fn(world);
    } finally {
      await setup.dispose?.(world);
    }
  };

  const gateOf = (
    world: ContractWorld,
    checker: AvailabilityChecker,
    state: AvailabilityState,
    extra: Partial<AvailabilityGateOptions<ContractTimerHandle>> = {},
  ) =>
    createAvailabilityGate(checker, {
      timers: world.clock,
      probeTimeoutMs: T,
      positiveTtlMs: 50 * u,
      negativeTtlMs: 10 * u,
      circuitBreaker: { failureThreshold: 1, coolDownMs: 80 * u },
      peerPollMs: Math.max(1, u / 2),
      state,
      ...extra,
    });

  describe(`availability gate contract: ${name}`, () => {
    const dead = "dead.example.com/mirror/library/nginx:1.25";
    const original = "docker.io/library/nginx:1.25";

    it.each(["hang", "hang-ignoring-abort"] as const)(
      "dead preferred mirror (%s): the first admission takes about T, the next ones within the cool-down are quick",
      (behaviour) =>
        withWorld(async (world) => {
          const { clock } = world;
          const checker = contractChecker(clock, u, {
            [dead]: behaviour,
            [original]: { after: 0.5, available: true },
            "dead.example.com/mirror/library/redis:7": behaviour,
            "docker.io/library/redis:7": { after: 0.5, available: true },
          });
          const gate = gateOf(world, checker, world.state());
          const list = [{ image: dead }, { image: original }];
          const first = await timed(
            clock,
            () => resolveFirstAvailable(list, gate, { timers: clock }),
            step,
          );
          expect(first.value.winner?.image).toBe(original);
          expect(first.elapsed).toBeGreaterThanOrEqual(T);
          expect(first.elapsed).toBeLessThanOrEqual(T + 2 + slack);
          expect(await gate.circuitState("dead.example.com")).toBe("open");

          // Later admissions inside the cool-down, past the negative TTL, other images too.
          await clock.advance(30 * u);
          for (const image of ["nginx:1.25", "redis:7"]) {
            const later = await timed(
              clock,
              () =>
                resolveFirstAvailable(
                  [
                    { image: `dead.example.com/mirror/library/${image}` },
                    { image: `docker.io/library/${image}` },
                  ],
                  gate,
                  { timers: clock },
                ),
              step,
            );
            expect(later.elapsed).toBeLessThan(u + slack);
            expect(later.value.winner?.image).toBe(`docker.io/library/${image}`);
          }
          expect(checker.callsFor(dead)).toBe(1);
          expect(checker.callsFor("dead.example.com/mirror/library/redis:7")).toBe(0);
          expect(gate.stats().shortCircuited).toBe(2);
        })(),
    );

    it(
      "after the cool-down sends one trial probe; success closes the circuit",
      withWorld(async (world) => {
        const { clock } = world;
        let alive = false;
        const gate = gateOf(
          world,
          {
            check: (_image, _secret, { signal }) =>
              new Promise((resolve) => {
                if (alive) resolve({ available: true });
                signal?.addEventListener("abort", () =>
                  resolve({ available: false, reason: "aborted", retryable: true }),
                );
              }),
          },
          world.state(),
          { circuitBreaker: { coolDownMs: 20 * u }, negativeTtlMs: 0 },
        );
        const probe = () => gate.check(ref(dead), undefined, {});
        const first = await timed(clock, probe, step);
        expect(first.value.available).toBe(false);
        expect(await gate.circuitState("dead.example.com")).toBe("open");
        await clock.advance(20 * u + slack);
        expect(await gate.circuitState("dead.example.com")).toBe("half-open");
        alive = true;
        const trial = probe();
        // The same image joins the trial; another image of that registry does not probe.
        const same = probe();
        const other = await timed(
          clock,
          () => gate.check(ref("dead.example.com/other:1"), undefined, {}),
          step,
        );
        expect(other.value).toMatchObject({
          available: false,
          reason: "circuit open for registry dead.example.com",
        });
        expect(await same).toEqual({ available: true });
        expect(await trial).toEqual({ available: true });
        expect(await gate.circuitState("dead.example.com")).toBe("closed");
        expect(gate.stats().probes).toBe(2);
      }),
    );

    it(
      "100 concurrent resolutions of one image make one probe per alternative",
      withWorld(async (world) => {
        const { clock } = world;
        const alternatives = ["a.example.com/x:1", "b.example.com/x:1", "c.example.com/x:1"];
        const checker = contractChecker(clock, u, {
          "a.example.com/x:1": { after: 5, available: false },
          "b.example.com/x:1": { after: 8, available: true },
          "c.example.com/x:1": { after: 3, available: true },
        });
        const gate = gateOf(world, checker, world.state());
        const { value: results } = await timed(
          clock,
          () =>
            Promise.all(
              Array.from({ length: 100 }, () =>
                resolveFirstAvailable(
                  alternatives.map((image) => ({ image })),
                  gate,
                  { timers: clock },
                ),
              ),
            ),
          step,
        );
        expect(results.every((r) => r.winner?.image === "b.example.com/x:1")).toBe(true);
        expect(checker.calls).toHaveLength(3);
        expect(gate.stats()).toMatchObject({ probes: 3, coalesced: 297 });
      }),
    );

    it(
      "aborts a losing probe once no caller needs it, and neither caches nor blames it",
      withWorld(async (world) => {
        const { clock } = world;
        const checker = contractChecker(clock, u, {
          "a.example.com/x:1": { after: 1, available: true },
          "b.example.com/x:1": "hang",
        });
        const gate = gateOf(world, checker, world.state());
        const list = [{ image: "a.example.com/x:1" }, { image: "b.example.com/x:1" }];
        await timed(
          clock,
          () =>
            Promise.all([
              resolveFirstAvailable(list, gate, { timers: clock }),
              resolveFirstAvailable(list, gate, { timers: clock }),
            ]),
          step,
        );
        await clock.advance(step);
        expect(checker.aborted).toEqual(["b.example.com/x:1"]);
        expect(await gate.circuitState("b.example.com")).toBe("closed");
        // Not cached: the next call probes again.
        const again = gate.check(ref("b.example.com/x:1"), undefined, {});
        await clock.advance(T + step);
        expect(await again).toMatchObject({ available: false, retryable: true });
        expect(checker.callsFor("b.example.com/x:1")).toBe(2);
      }),
    );

    it(
      "keeps a shared probe alive while one caller still waits",
      withWorld(async (world) => {
        const { clock } = world;
        const checker = contractChecker(clock, u, {
          "a.example.com/x:1": { after: 5, available: true },
        });
        const gate = gateOf(world, checker, world.state());
        const first = new AbortController();
        const p1 = gate.check(ref("a.example.com/x:1"), undefined, { signal: first.signal });
        const p2 = gate.check(ref("a.example.com/x:1"), undefined, {});
        first.abort();
        expect(await p1).toMatchObject({ available: false, reason: "aborted" });
        const second = await timed(clock, () => p2, step);
        expect(second.value).toEqual({ available: true });
        expect(checker.aborted).toEqual([]);
      }),
    );

    it(
      "caches available answers longer than unavailable ones",
      withWorld(async (world) => {
        const { clock } = world;
        const checker = contractChecker(clock, u, {
          "up.example.com/x:1": { after: 0.1, available: true },
          "up.example.com/missing:1": { after: 0.1, available: false },
        });
        const gate = gateOf(world, checker, world.state());
        const ask = (image: string) =>
          timed(clock, () => gate.check(ref(image), undefined, {}), step).then((r) => r.value);
        await ask("up.example.com/x:1");
        await ask("up.example.com/missing:1");
        await clock.advance(15 * u); // past the negative TTL, inside the positive one
        expect(await ask("up.example.com/x:1")).toEqual({ available: true });
        await ask("up.example.com/missing:1");
        expect(checker.callsFor("up.example.com/x:1")).toBe(1);
        expect(checker.callsFor("up.example.com/missing:1")).toBe(2);
        await clock.advance(50 * u);
        await ask("up.example.com/x:1");
        expect(checker.callsFor("up.example.com/x:1")).toBe(2);
      }),
    );

    it(
      "does not open the circuit on definite answers (404)",
      withWorld(async (world) => {
        const { clock } = world;
        const checker = contractChecker(clock, u, {
          "up.example.com/missing:1": { after: 0.1, available: false },
        });
        const gate = gateOf(world, checker, world.state());
        await timed(clock, () => gate.check(ref("up.example.com/missing:1"), undefined, {}), step);
        expect(await gate.circuitState("up.example.com")).toBe("closed");
      }),
    );

    it(
      "keys answers by credential secret too",
      withWorld(async (world) => {
        const { clock } = world;
        const checker = contractChecker(clock, u, {
          "up.example.com/x:1": { after: 0.1, available: true },
        });
        const gate = gateOf(world, checker, world.state());
        await timed(
          clock,
          () =>
            Promise.all([
              gate.check(ref("up.example.com/x:1"), { namespace: "ns", name: "one" }, {}),
              gate.check(ref("up.example.com/x:1"), { namespace: "ns", name: "two" }, {}),
            ]),
          step,
        );
        expect(checker.calls).toHaveLength(2);
        await timed(
          clock,
          () => gate.check(ref("up.example.com/x:1"), { namespace: "ns", name: "one" }, {}),
          step,
        );
        expect(checker.calls).toHaveLength(2);
      }),
    );

    it(
      "replicas sharing the state: one probes a dead mirror, the others wait for its verdict and the circuit is open for all",
      withWorld(async (world) => {
        const { clock } = world;
        const checkers = [0, 1, 2].map(() =>
          contractChecker(clock, u, {
            [dead]: "hang",
            [original]: { after: 0.5, available: true },
          }),
        );
        const gates = checkers.map((c) => gateOf(world, c, world.state({ shared: true })));
        const list = [{ image: dead }, { image: original }];
        const first = await timed(
          clock,
          () =>
            Promise.all(
              gates.map((g) =>
                resolveFirstAvailable(list, g, { timers: clock, deadlineMs: 30 * u }),
              ),
            ),
          step,
        );
        expect(first.value.map((r) => r.winner?.image)).toEqual([original, original, original]);
        expect(first.elapsed).toBeLessThanOrEqual(T + 2 * u + slack);
        expect(checkers.reduce((n, c) => n + c.callsFor(dead), 0)).toBe(1);
        expect(checkers.reduce((n, c) => n + c.callsFor(original), 0)).toBe(1);
        // Two replicas took each of the two verdicts from the one that probed.
        expect(gates.reduce((n, g) => n + g.stats().peerVerdicts, 0)).toBe(4);
        for (const g of gates) expect(await g.circuitState("dead.example.com")).toBe("open");
        // Another image of the dead registry, on a replica that never probed it: no probe.
        const prober = checkers.findIndex((c) => c.callsFor(dead) === 1);
        const other = gates[(prober + 1) % 3];
        const later = await timed(
          clock,
          () =>
            (other as (typeof gates)[number]).check(
              ref("dead.example.com/mirror/x:1"),
              undefined,
              {},
            ),
          step,
        );
        expect(later.value).toMatchObject({
          available: false,
          reason: expect.stringMatching(/circuit open/),
        });
        expect(checkers.reduce((n, c) => n + c.callsFor("dead.example.com/mirror/x:1"), 0)).toBe(0);
      }),
    );

    it(
      "a holder slower than its marker's first lifetime keeps it: the waiter takes its verdict and never probes",
      withWorld(async (world) => {
        const { clock } = world;
        const image = "slow.example.com/z:1";
        const busy = ["busy.example.com/a:1", "busy.example.com/b:1"];
        const script = {
          [busy[0] as string]: { after: 9, available: true },
          [busy[1] as string]: { after: 9, available: true },
          [image]: { after: 9, available: true },
        };
        const holderChecker = contractChecker(clock, u, script);
        const waiterChecker = contractChecker(clock, u, script);
        // One probe slot: the holder claims the image's marker, then queues
        // behind two probes, so its verdict comes after about 27u, past the
        // marker's first lifetime (T plus 250 ms).
        const holder = gateOf(world, holderChecker, world.state({ shared: true }), {
          maxConcurrentProbes: 1,
        });
        const waiter = gateOf(world, waiterChecker, world.state({ shared: true }), {
          peerWaitMs: 60 * u,
        });
        const both = await timed(
          clock,
          async () => {
            const queued = busy.map((b) => holder.check(ref(b), undefined, {}));
            const held = holder.check(ref(image), undefined, {});
            // The waiter comes once the holder has the marker.
            await clock.advance(u);
            const waited = waiter.check(ref(image), undefined, {});
            return Promise.all([...queued, held, waited]);
          },
          step,
        );
        expect(both.value.every((a) => a.available)).toBe(true);
        expect(holderChecker.callsFor(image)).toBe(1);
        expect(waiterChecker.callsFor(image)).toBe(0);
        expect(waiter.stats().peerVerdicts).toBe(1);
      }),
    );

    it(
      "a holder that never answers: waiters stop at their own limit and one of them probes",
      withWorld(async (world) => {
        const { clock } = world;
        const image = "slow.example.com/x:1";
        // The "dead replica" took the marker and vanished without a verdict.
        const orphan = world.state({ shared: true });
        const token = await orphan.claimProbe(
          { image, credentialSecret: undefined, registry: "slow.example.com" },
          12 * u,
        );
        expect(token).toBeDefined();
        const checkers = [0, 1].map(() =>
          contractChecker(clock, u, { [image]: { after: 1, available: true } }),
        );
        const gates = checkers.map((c) =>
          gateOf(world, c, world.state({ shared: true }), { peerWaitMs: 40 * u }),
        );
        const both = await timed(
          clock,
          () => Promise.all(gates.map((g) => g.check(ref(image), undefined, {}))),
          step,
        );
        expect(both.value).toEqual([{ available: true }, { available: true }]);
        // The marker expired after 12u: one waiter took it and probed, the other got its verdict.
        expect(checkers.reduce((n, c) => n + c.calls.length, 0)).toBe(1);
        expect(both.elapsed).toBeGreaterThanOrEqual(12 * u - slack);
        expect(both.elapsed).toBeLessThanOrEqual(16 * u + slack);
      }),
    );

    it(
      "a waiter whose caller gives up leaves at its deadline",
      withWorld(async (world) => {
        const { clock } = world;
        const image = "slow.example.com/y:1";
        const orphan = world.state({ shared: true });
        await orphan.claimProbe(
          { image, credentialSecret: undefined, registry: "slow.example.com" },
          100 * u,
        );
        const checker = contractChecker(clock, u, { [image]: { after: 1, available: true } });
        const gate = gateOf(world, checker, world.state({ shared: true }), { peerWaitMs: 100 * u });
        const caller = new AbortController();
        const handle = clock.setTimeout(() => caller.abort(), 5 * u);
        const waited = await timed(
          clock,
          () => gate.check(ref(image), undefined, { signal: caller.signal }),
          step,
        );
        clock.clearTimeout(handle);
        expect(waited.value).toMatchObject({ available: false, reason: "aborted" });
        expect(waited.elapsed).toBeLessThanOrEqual(5 * u + slack + step);
        expect(checker.calls).toHaveLength(0);
        // Its own peer-wait limit makes an unbounded caller probe by itself.
        const patient = createAvailabilityGate(checker, {
          timers: clock,
          probeTimeoutMs: T,
          peerWaitMs: 3 * u,
          peerPollMs: Math.max(1, u / 2),
          state: world.state({ shared: true }),
        });
        const alone = await timed(clock, () => patient.check(ref(image), undefined, {}), step);
        expect(alone.value).toEqual({ available: true });
        expect(checker.calls).toHaveLength(1);
        expect(alone.elapsed).toBeGreaterThanOrEqual(3 * u - slack);
      }),
    );
  });
}
