import { type AddressInfo, connect, createServer } from "node:net";
import { parseNormalizedNamed as ref } from "@kubeimg/core/reference";
import { describeAvailabilityGateContract, FakeTimers, flushMicrotasks } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import type { Availability, RoutingTimers } from "./checker.js";
import { createAvailabilityGate } from "./gate.js";
import {
  type AvailabilityState,
  createMemoryAvailabilityState,
  type MemoryAvailabilityState,
} from "./state.js";

describeAvailabilityGateContract("in-memory state on a fake clock", {
  unit: 100,
  slackMs: 0,
  world() {
    const clock = new FakeTimers();
    let shared: MemoryAvailabilityState | undefined;
    return {
      clock,
      state: (options) => {
        if (!options?.shared) return createMemoryAvailabilityState({ now: () => clock.now() });
        shared ??= createMemoryAvailabilityState({ now: () => clock.now() });
        return shared;
      },
    };
  },
});

/** The in-memory state without its synchronous reads: the gate then takes its asynchronous path, as over Redis. */
function asynchronousOnly(state: MemoryAvailabilityState): AvailabilityState {
  const { getVerdictNow: _verdict, circuitStateNow: _circuit, sizes: _sizes, ...rest } = state;
  return rest;
}

describeAvailabilityGateContract("in-memory state read asynchronously only, on a fake clock", {
  unit: 100,
  slackMs: 0,
  world() {
    const clock = new FakeTimers();
    let shared: AvailabilityState | undefined;
    const make = () => asynchronousOnly(createMemoryAvailabilityState({ now: () => clock.now() }));
    return {
      clock,
      state: (options) => {
        if (!options?.shared) return make();
        shared ??= make();
        return shared;
      },
    };
  },
});

describe("createAvailabilityGate's answers from memory", () => {
  const setup = (state: AvailabilityState | undefined, answer: Availability) => {
    const timers = new FakeTimers();
    let probes = 0;
    const gate = createAvailabilityGate(
      {
        check: async () => {
          probes++;
          return answer;
        },
      },
      { timers, ...(state ? { state } : {}) },
    );
    return { timers, gate, probes: () => probes };
  };

  it("peek answers a cached verdict at once and counts it as a cache hit; check does too, without a probe", async () => {
    const { gate, probes } = setup(undefined, { available: true });
    expect(gate.peek(ref("a.example.com/x:1"), undefined)).toBeUndefined();
    expect(await gate.check(ref("a.example.com/x:1"), undefined, {})).toEqual({ available: true });
    expect(probes()).toBe(1);
    expect(gate.peek(ref("a.example.com/x:1"), undefined)).toEqual({ available: true });
    // The verdict is per secret and per platform set.
    expect(gate.peek(ref("a.example.com/x:1"), { namespace: "ns", name: "pull" })).toBeUndefined();
    expect(
      gate.peek(ref("a.example.com/x:1"), undefined, {
        platforms: [{ os: "linux", architecture: "arm64" }],
      }),
    ).toBeUndefined();
    const answer = gate.check(ref("a.example.com/x:1"), undefined, {});
    expect(gate.stats().inFlight).toBe(0);
    expect(await answer).toEqual({ available: true });
    expect(probes()).toBe(1);
    expect(gate.stats().cacheHits).toBe(2);
  });

  it("peek answers an open circuit at once, counted as short-circuited", async () => {
    const { gate, timers } = setup(undefined, {
      available: false,
      reason: "refused",
      retryable: true,
    });
    await gate.check(ref("dead.example.com/x:1"), undefined, {});
    await timers.advance(1001); // past the negative TTL, inside the cool-down
    expect(gate.peek(ref("dead.example.com/y:1"), undefined)).toMatchObject({
      available: false,
      retryable: true,
      reason: "circuit open for registry dead.example.com",
    });
    expect(gate.stats().shortCircuited).toBe(1);
  });

  it("keys a circuit by the registry the image is pulled from, not by its first path element", async () => {
    const { gate, timers } = setup(undefined, {
      available: false,
      reason: "refused",
      retryable: true,
    });
    // `mirror/app:1` is served by Docker Hub: its first element names no registry.
    await gate.check(ref("mirror/app:1"), undefined, {});
    await timers.advance(1001);
    expect(await gate.circuitState("docker.io")).toBe("open");
    expect(await gate.circuitState("mirror")).toBe("closed");
    expect(gate.peek(ref("nginx:1.27"), undefined)).toMatchObject({
      reason: "circuit open for registry docker.io",
    });
  });

  it("peek knows nothing over a state without synchronous reads", async () => {
    const state = asynchronousOnly(createMemoryAvailabilityState({ now: () => 0 }));
    const { gate } = setup(state, { available: true });
    expect(await gate.check(ref("a.example.com/x:1"), undefined, {})).toEqual({ available: true });
    expect(gate.peek(ref("a.example.com/x:1"), undefined)).toBeUndefined();
    expect(await gate.check(ref("a.example.com/x:1"), undefined, {})).toEqual({ available: true });
    expect(gate.stats()).toMatchObject({ probes: 1, cacheHits: 1 });
  });
});

describe("createAvailabilityGate with the in-memory state", () => {
  it("the in-memory state stays bounded over 1M distinct registry names", async () => {
    let now = 0;
    const state = createMemoryAvailabilityState({
      now: () => now,
      maxVerdicts: 1000,
      maxRegistries: 1000,
      maxMarkers: 1000,
    });
    const policy = { failureThreshold: 1, coolDownMs: 30_000 };
    for (let i = 0; i < 1_000_000; i++) {
      const registry = `r${i}.example.com`;
      const key = { image: `${registry}/app:1`, credentialSecret: undefined, registry };
      await state.recordFailure(registry, policy);
      await state.setVerdict(key, { available: false, reason: "refused", retryable: true }, 1000);
      await state.claimProbe(key, 1000);
      if (i % 100_000 === 0) {
        now += 1;
        expect(state.sizes()).toEqual({
          verdicts: Math.min(i + 1, 1000),
          breakers: Math.min(i + 1, 1000),
          markers: Math.min(i + 1, 1000),
        });
      }
    }
    expect(state.sizes()).toEqual({ verdicts: 1000, breakers: 1000, markers: 1000 });
    // The most recent registries are still known; the oldest were forgotten.
    expect(await state.circuitState("r999999.example.com")).toBe("open");
    expect(await state.circuitState("r0.example.com")).toBe("closed");
    // Entries expire too: past every TTL nothing is returned.
    now += 10 * 30_000;
    expect(await state.circuitState("r999999.example.com")).toBe("closed");
  }, 120_000);

  it("keeps the gate's own maps bounded over many distinct registry names", async () => {
    // A frozen clock with O(1) timers: the point is the maps, not time.
    const handles = new Map<number, () => void>();
    let nextHandle = 0;
    const timers = {
      now: () => 0,
      setTimeout: (callback: () => void) => {
        handles.set(++nextHandle, callback);
        return nextHandle;
      },
      clearTimeout: (handle: number) => void handles.delete(handle),
    };
    const state = createMemoryAvailabilityState({ now: timers.now, maxVerdicts: 100 });
    let n = 0;
    const gate = createAvailabilityGate(
      {
        // Alternate: refused (retryable, opens the breaker), missing, present.
        check: async (): Promise<Availability> => {
          const k = n++ % 3;
          if (k === 0) return { available: false, reason: "refused", retryable: true };
          if (k === 1) return { available: false, reason: "not found", retryable: false };
          return { available: true };
        },
      },
      { timers, state },
    );
    const total = 20_000;
    for (let i = 0; i < total; i += 500) {
      const calls: Promise<Availability>[] = [];
      for (let j = i; j < i + 500; j++) {
        calls.push(gate.check(ref(`r${j}.example.com/app:1`), undefined, {}));
      }
      await Promise.all(calls);
      expect(state.sizes().verdicts).toBeLessThanOrEqual(100);
      expect(state.sizes().breakers).toBeLessThanOrEqual(1000);
      expect(gate.stats()).toMatchObject({ inFlight: 0, activeProbes: 0, queuedProbes: 0 });
    }
    expect(gate.stats().probes).toBe(total);
    // Registries that answered took no breaker room: only the refusing third is kept.
    expect(state.sizes().breakers).toBe(1000);
    expect(handles.size).toBe(0);
  }, 120_000);

  it("runs at most maxConcurrentProbes probes and refuses past maxQueuedProbes", async () => {
    const timers = new FakeTimers();
    let running = 0;
    let peak = 0;
    const gate = createAvailabilityGate(
      {
        check: () =>
          new Promise<Availability>((resolve) => {
            running++;
            peak = Math.max(peak, running);
            timers.setTimeout(() => {
              running--;
              resolve({ available: true });
            }, 10);
          }),
      },
      { timers, maxConcurrentProbes: 4, maxQueuedProbes: 8 },
    );
    const calls = Array.from({ length: 20 }, (_, i) =>
      gate.check(ref(`r${i}.example.com/app:1`), undefined, {}),
    );
    await flushMicrotasks();
    expect(gate.stats()).toMatchObject({ activeProbes: 4, queuedProbes: 8, queueFull: 8 });
    await timers.advance(100);
    const answers = await Promise.all(calls);
    expect(peak).toBe(4);
    expect(answers.filter((a) => a.available)).toHaveLength(12);
    expect(answers.filter((a) => !a.available)[0]).toMatchObject({
      retryable: true,
      reason: expect.stringMatching(/too many probes in flight/),
    });
    expect(gate.stats()).toMatchObject({ activeProbes: 0, queuedProbes: 0 });
  });

  it("a queued probe whose caller aborts leaves the queue", async () => {
    const timers = new FakeTimers();
    const gate = createAvailabilityGate(
      { check: () => new Promise<Availability>(() => {}) },
      { timers, maxConcurrentProbes: 1, probeTimeoutMs: 50 },
    );
    const caller = new AbortController();
    const first = gate.check(ref("a.example.com/x:1"), undefined, {});
    const queued = gate.check(ref("b.example.com/x:1"), undefined, { signal: caller.signal });
    await flushMicrotasks();
    expect(gate.stats().queuedProbes).toBe(1);
    caller.abort();
    expect(await queued).toMatchObject({ reason: "aborted" });
    await flushMicrotasks();
    expect(gate.stats().queuedProbes).toBe(0);
    await timers.advance(50);
    expect(await first).toMatchObject({ available: false, retryable: true });
    expect(gate.stats().probes).toBe(1);
  });

  const failing = (mode: "reject" | "throw" | "hang"): AvailabilityState => {
    const fail = <T>(): Promise<T> => {
      if (mode === "throw") throw new Error("state down");
      return mode === "reject" ? Promise.reject(new Error("state down")) : new Promise<T>(() => {});
    };
    return {
      getVerdict: fail,
      setVerdict: fail,
      claimProbe: fail,
      releaseProbe: fail,
      peekProbe: fail,
      circuitState: fail,
      recordFailure: fail,
      recordSuccess: fail,
      claimTrial: fail,
      releaseTrial: fail,
      clear: fail,
    };
  };

  it.each(["reject", "throw"] as const)(
    "a state that fails (%s) costs sharing, never an answer",
    async (mode) => {
      const timers = new FakeTimers();
      const gate = createAvailabilityGate(
        { check: async () => ({ available: true }) },
        { timers, state: failing(mode) },
      );
      expect(await gate.check(ref("a.example.com/x:1"), undefined, {})).toEqual({
        available: true,
      });
      expect(await gate.circuitState("a.example.com")).toBe("closed");
      await gate.clear();
      expect(gate.stats().stateErrors).toBeGreaterThan(0);
    },
  );

  it("a state that hangs cannot hold a caller past its signal", async () => {
    const timers = new FakeTimers();
    const gate = createAvailabilityGate(
      { check: async () => ({ available: true }) },
      { timers, state: failing("hang") },
    );
    const caller = new AbortController();
    const answer = gate.check(ref("a.example.com/x:1"), undefined, { signal: caller.signal });
    timers.setTimeout(() => caller.abort(), 100);
    await timers.advance(100);
    expect(await answer).toMatchObject({ available: false, reason: "aborted" });
    expect(gate.stats().inFlight).toBe(0);
  });

  it("reads an answer that arrived before the probe timeout even when the event loop comes late", async () => {
    // A loopback server answers at once; this process then blocks its event
    // loop past the probe timeout, so the timeout and the answer are both
    // ready when the loop turns again. Node runs due timers before it reads
    // sockets: without the extra turn the gate would blame the registry.
    // The probe's 40 ms timeout is armed (due at once) only when the answer
    // is written, so a process descheduled before that cannot time it out.
    const armWithAnswer: (() => void)[] = [];
    const server = createServer((socket) => {
      socket.end("ok");
      for (const arm of armWithAnswer.splice(0)) arm();
      // The answer is in the client's socket; this process is now too busy to read it in time.
      const until = performance.now() + 120;
      while (performance.now() < until) {}
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      type Handle = { timer?: ReturnType<typeof setTimeout>; cleared?: boolean };
      const realTimers: RoutingTimers<Handle> = {
        now: () => performance.now(),
        setTimeout: (callback, ms) => {
          if (ms !== 40) return { timer: setTimeout(callback, ms) };
          const handle: Handle = {};
          armWithAnswer.push(() => {
            if (!handle.cleared) handle.timer = setTimeout(callback, 0);
          });
          return handle;
        },
        clearTimeout: (handle) => {
          handle.cleared = true;
          clearTimeout(handle.timer);
        },
      };
      const gate = createAvailabilityGate(
        {
          check: () =>
            new Promise<Availability>((resolve, reject) => {
              const socket = connect(port, "127.0.0.1");
              socket.once("data", () => {
                socket.destroy();
                resolve({ available: true });
              });
              socket.once("error", reject);
            }),
        },
        { timers: realTimers, probeTimeoutMs: 40 },
      );
      expect(await gate.check(ref("a.example.com/x:1"), undefined, {})).toEqual({
        available: true,
      });
      expect(gate.stats().timeouts).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
