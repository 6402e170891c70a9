import { describe, expect, it } from "vitest";
import { createAvailabilityGate } from "./availability-gate.js";
import { FakeTimers, flushMicrotasks } from "./fake-timers.test-support.js";
import { resolveFirstAvailable } from "./resolve.js";
import { type Script, ScriptedChecker } from "./scripted-checker.test-support.js";

const T = 1000;

function setup(script: Record<string, Script>, options: { coolDownMs?: number } = {}) {
  const timers = new FakeTimers();
  const checker = new ScriptedChecker(timers, script);
  const gate = createAvailabilityGate(checker, {
    timers,
    probeTimeoutMs: T,
    positiveTtlMs: 5000,
    negativeTtlMs: 1000,
    circuitBreaker: { failureThreshold: 1, coolDownMs: options.coolDownMs ?? 30_000 },
  });
  return { timers, checker, gate };
}

/** Runs one admission's resolution and returns how long it took on the fake clock. */
async function admission(
  timers: FakeTimers,
  run: () => Promise<{ winner: { image: string } | undefined }>,
  step = 1,
): Promise<{ elapsed: number; winner: string | undefined }> {
  const start = timers.now();
  let winner: string | undefined;
  let done = false;
  run().then((r) => {
    winner = r.winner?.image;
    done = true;
  });
  await flushMicrotasks();
  while (!done) await timers.advance(step);
  return { elapsed: timers.now() - start, winner };
}

describe("createAvailabilityGate", () => {
  const dead = "dead.example.com/mirror/library/nginx:1.25";
  const original = "docker.io/library/nginx:1.25";

  it.each(["hang", "hang-ignoring-abort"] as const)(
    "dead preferred mirror (%s): the first admission takes about T, the next ones within the cool-down take < 10 ms",
    async (behaviour) => {
      const { timers, checker, gate } = setup({
        [dead]: behaviour,
        [original]: { after: 5, available: true },
        "dead.example.com/mirror/library/redis:7": behaviour,
        "docker.io/library/redis:7": { after: 5, available: true },
      });
      const list = [{ image: dead }, { image: original }];
      const first = await admission(timers, () => resolveFirstAvailable(list, gate, { timers }));
      expect(first.winner).toBe(original);
      expect(first.elapsed).toBeGreaterThanOrEqual(T);
      expect(first.elapsed).toBeLessThanOrEqual(T + 2);
      expect(gate.circuitState("dead.example.com")).toBe("open");

      // Later admissions inside the cool-down, past the negative TTL, other images too.
      await timers.advance(3000);
      for (const image of ["nginx:1.25", "redis:7"]) {
        const later = await admission(timers, () =>
          resolveFirstAvailable(
            [
              { image: `dead.example.com/mirror/library/${image}` },
              { image: `docker.io/library/${image}` },
            ],
            gate,
            { timers },
          ),
        );
        expect(later.elapsed).toBeLessThan(10);
        expect(later.winner).toBe(`docker.io/library/${image}`);
      }
      expect(checker.callsFor(dead)).toBe(1);
      expect(checker.callsFor("dead.example.com/mirror/library/redis:7")).toBe(0);
      expect(gate.stats().shortCircuited).toBe(2);
    },
  );

  it("after the cool-down sends one trial probe; success closes the circuit", async () => {
    const timers = new FakeTimers();
    let alive = false;
    const gate = createAvailabilityGate(
      {
        check: (_image, _secret, { signal }) =>
          new Promise((resolve) => {
            if (alive) resolve({ available: true });
            signal?.addEventListener("abort", () =>
              resolve({ available: false, reason: "aborted", retryable: true }),
            );
          }),
      },
      { timers, probeTimeoutMs: T, circuitBreaker: { coolDownMs: 10_000 }, negativeTtlMs: 0 },
    );
    const probe = () => gate.check(dead, undefined, {});
    const first = probe();
    await timers.advance(T);
    expect((await first).available).toBe(false);
    expect(gate.circuitState("dead.example.com")).toBe("open");
    await timers.advance(10_000);
    expect(gate.circuitState("dead.example.com")).toBe("half-open");
    alive = true;
    const trial = probe();
    // The same image joins the trial; another image of that registry waits for its verdict.
    const same = probe();
    expect(await gate.check("dead.example.com/other:1", undefined, {})).toMatchObject({
      available: false,
      reason: "circuit open for registry dead.example.com",
    });
    expect(await same).toEqual({ available: true });
    expect(await trial).toEqual({ available: true });
    expect(gate.circuitState("dead.example.com")).toBe("closed");
  });

  it("100 concurrent resolutions of one image make one probe per alternative", async () => {
    const alternatives = ["a.example.com/x:1", "b.example.com/x:1", "c.example.com/x:1"];
    const { timers, checker, gate } = setup({
      [alternatives[0] as string]: { after: 50, available: false },
      [alternatives[1] as string]: { after: 80, available: true },
      [alternatives[2] as string]: { after: 30, available: true },
    });
    const runs = Array.from({ length: 100 }, () =>
      resolveFirstAvailable(
        alternatives.map((image) => ({ image })),
        gate,
        { timers },
      ),
    );
    await timers.advance(100);
    const results = await Promise.all(runs);
    expect(results.every((r) => r.winner?.image === alternatives[1])).toBe(true);
    expect(checker.calls).toHaveLength(3);
    expect(gate.stats()).toMatchObject({ probes: 3, coalesced: 297 });
  });

  it("aborts a losing probe through the gate once no caller needs it", async () => {
    const { timers, checker, gate } = setup({
      "a.example.com/x:1": { after: 10, available: true },
      "b.example.com/x:1": "hang",
    });
    const one = resolveFirstAvailable(
      [{ image: "a.example.com/x:1" }, { image: "b.example.com/x:1" }],
      gate,
      { timers },
    );
    const two = resolveFirstAvailable(
      [{ image: "a.example.com/x:1" }, { image: "b.example.com/x:1" }],
      gate,
      { timers },
    );
    await timers.advance(10);
    await Promise.all([one, two]);
    expect(checker.aborted).toEqual(["b.example.com/x:1"]);
    // An aborted probe is neither cached nor held against the registry.
    expect(gate.circuitState("b.example.com")).toBe("closed");
  });

  it("keeps a shared probe alive while one caller still waits", async () => {
    const { timers, checker, gate } = setup({
      "a.example.com/x:1": { after: 50, available: true },
    });
    const first = new AbortController();
    const p1 = gate.check("a.example.com/x:1", undefined, { signal: first.signal });
    const p2 = gate.check("a.example.com/x:1", undefined, {});
    first.abort();
    expect(await p1).toMatchObject({ available: false, reason: "aborted" });
    await timers.advance(50);
    expect(await p2).toEqual({ available: true });
    expect(checker.aborted).toEqual([]);
  });

  it("caches available answers longer than unavailable ones", async () => {
    const { timers, checker, gate } = setup({
      "up.example.com/x:1": { after: 1, available: true },
      "up.example.com/missing:1": { after: 1, available: false },
    });
    const ask = async (image: string) => {
      const p = gate.check(image, undefined, {});
      await timers.advance(1);
      return p;
    };
    await ask("up.example.com/x:1");
    await ask("up.example.com/missing:1");
    await timers.advance(1500); // past the negative TTL, inside the positive one
    await ask("up.example.com/x:1");
    await ask("up.example.com/missing:1");
    expect(checker.callsFor("up.example.com/x:1")).toBe(1);
    expect(checker.callsFor("up.example.com/missing:1")).toBe(2);
    await timers.advance(5000);
    await ask("up.example.com/x:1");
    expect(checker.callsFor("up.example.com/x:1")).toBe(2);
  });

  it("does not open the circuit on definite answers (404)", async () => {
    const { timers, gate } = setup({ "up.example.com/missing:1": { after: 1, available: false } });
    const p = gate.check("up.example.com/missing:1", undefined, {});
    await timers.advance(1);
    await p;
    expect(gate.circuitState("up.example.com")).toBe("closed");
  });

  it("keys answers by credential secret too", async () => {
    const { timers, checker, gate } = setup({
      "up.example.com/x:1": { after: 1, available: true },
    });
    const a = gate.check("up.example.com/x:1", { namespace: "ns", name: "one" }, {});
    const b = gate.check("up.example.com/x:1", { namespace: "ns", name: "two" }, {});
    await timers.advance(1);
    await Promise.all([a, b]);
    expect(checker.calls).toHaveLength(2);
  });
});
