/**
 * The Redis state against a real redis-server: the availability-gate
 * contract (the same suite the in-memory state passes), foreign values,
 * and Redis dying and coming back under a running gate.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { type AvailabilityState, createAvailabilityGate } from "@kubeimg/policy/availability";
import {
  type ContractClock,
  describeAvailabilityGateContract,
  freePort,
  type RunningRedis,
  settlesBefore,
  startRedisServer,
} from "@kubeimg/testkit";
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageKeys, registryKeys } from "./keys.js";
import { createRedisAvailabilityState, type RedisAvailabilityState } from "./redis-state.js";

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

const realClock: ContractClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const opened: RedisAvailabilityState[] = [];
function redisState(
  prefix: string,
  extra: { log?: (line: string) => void; budgetMs?: number; retryMs?: number } = {},
) {
  const state = createRedisAvailabilityState({
    url: redis.url,
    prefix,
    timers: realClock,
    // Generous on a busy test machine: a fallback here would hide sharing.
    budgetMs: extra.budgetMs ?? 500,
    ...(extra.retryMs ? { retryMs: extra.retryMs } : {}),
    ...(extra.log ? { log: extra.log } : {}),
  });
  opened.push(state);
  return state;
}
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

describeAvailabilityGateContract("Redis state on the real clock", {
  unit: 25,
  slackMs: 250,
  world() {
    const sharedPrefix = `t:${randomUUID().slice(0, 8)}:`;
    return {
      clock: realClock,
      state: (options) =>
        redisState(options?.shared ? sharedPrefix : `t:${randomUUID().slice(0, 8)}:`),
    };
  },
});

/** A raw client to plant values under our keys. */
async function raw() {
  const client = createClient({ url: redis.url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

describe("Redis state: values it did not write", () => {
  it("ignores foreign and older values under its keys, and overwrites them", async () => {
    const prefix = `f:${randomUUID().slice(0, 8)}:`;
    const image = "harbor.example.com/team/app:1";
    const key = { image, credentialSecret: undefined, registry: "harbor.example.com" };
    const keys = imageKeys(prefix, key);
    const breaker = registryKeys(prefix, "harbor.example.com");
    const client = await raw();
    try {
      // An older writer (v0 layout) and garbage, with no TTL.
      await client.set(keys.verdict, '{"kubeimg":"verdict","v":0,"available":true}');
      await client.set(keys.probe, "held-by-someone-else");
      await client.set(breaker.open, "1");
      await client.set(breaker.tripped, "yes");
      await client.set(breaker.failures, "not a number");
      const state = redisState(prefix);
      let probes = 0;
      const gate = createAvailabilityGate(
        {
          check: async () => {
            probes++;
            return { available: false, reason: "connection refused", retryable: true };
          },
        },
        { timers: realClock, probeTimeoutMs: 500, peerWaitMs: 5000, state },
      );
      // Not the v0 "available", not a wait on the foreign marker (5 s), not a foreign open circuit.
      const answer = gate.check(parseNormalizedNamed(image), undefined, {});
      expect(await settlesBefore(answer, 2500)).toBe(true);
      expect(await answer).toMatchObject({
        available: false,
        reason: "connection refused",
      });
      expect(probes).toBe(1);
      expect(state.stats().foreignValues).toBeGreaterThanOrEqual(2);
      // Our own values replaced theirs: a decodable verdict, a count restarted at 1, the circuit open.
      expect(await client.get(breaker.failures)).toBe("v1:1");
      expect(await client.get(breaker.open)).toBe("v1:open");
      expect(JSON.parse((await client.get(keys.verdict)) ?? "{}")).toMatchObject({
        kubeimg: "verdict",
        v: 1,
      });
      expect(await client.pTTL(keys.verdict)).toBeGreaterThan(0);
      expect(await gate.circuitState("harbor.example.com")).toBe("open");
    } finally {
      await client.close();
    }
  });

  it("stores no credential, image or secret name", async () => {
    const prefix = `c:${randomUUID().slice(0, 8)}:`;
    const state = redisState(prefix);
    const gate = createAvailabilityGate(
      {
        check: async () => ({
          available: false,
          reason: "GET https://robot:s3cret@harbor.example.com/v2/ Bearer eyJtoken",
          retryable: true,
        }),
      },
      { timers: realClock, state },
    );
    await gate.check(
      parseNormalizedNamed("harbor.example.com/team/app:1"),
      { namespace: "kuik-system", name: "harbor-robot" },
      {},
    );
    const client = await raw();
    try {
      const keys = await client.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThanOrEqual(3);
      const everything = [...keys, ...(await Promise.all(keys.map((k) => client.get(k))))].join(
        "\n",
      );
      for (const secret of [
        "s3cret",
        "eyJtoken",
        "robot:",
        "kuik-system",
        "harbor-robot",
        "team/app",
      ]) {
        expect(everything).not.toContain(secret);
      }
    } finally {
      await client.close();
    }
  });
});

describe("Redis state: large values and values of another type under its keys", () => {
  /** Bytes redis-server has written to all its clients so far. */
  async function netOutputBytes(client: Awaited<ReturnType<typeof raw>>): Promise<number> {
    const info = await client.info("stats");
    return Number(/total_net_output_bytes:(\d+)/.exec(info)?.[1]);
  }

  it("reads at most a small bounded part of each, treats them as absent and stays shared", async () => {
    const prefix = `h:${randomUUID().slice(0, 8)}:`;
    const at = (name: string) => ({
      image: `h.example.com/${name}:1`,
      credentialSecret: undefined,
      registry: "h.example.com",
    });
    const big = imageKeys(prefix, at("big"));
    const typed = imageKeys(prefix, at("typed"));
    const breaker = registryKeys(prefix, "h.example.com");
    const huge = "x".repeat(4 * 1024 * 1024);
    const client = await raw();
    try {
      await client.set(big.verdict, huge, { PX: 60_000 });
      await client.set(big.probe, huge, { PX: 60_000 });
      await client.rPush(typed.verdict, ["a", "b"]);
      await client.hSet(typed.probe, "k", "v");
      await client.sAdd(breaker.open, "v1:open");
      await client.rPush(breaker.tripped, "v1:tripped");
      await client.rPush(breaker.failures, "v1:3");
      await client.rPush(breaker.trial, "x");
      const lines: string[] = [];
      const state = redisState(prefix, { log: (l) => lines.push(l) });
      const before = await netOutputBytes(client);
      for (let i = 0; i < 20; i++) {
        expect(await state.getVerdict(at("big"))).toBeUndefined();
        expect(await state.peekProbe(at("big"))).toEqual({ verdict: undefined, claimed: false });
        expect(await state.getVerdict(at("typed"))).toBeUndefined();
        expect(await state.peekProbe(at("typed"))).toEqual({ verdict: undefined, claimed: false });
        expect(await state.circuitState("h.example.com")).toBe("closed");
      }
      // Each of the 100 reads above costs at most a small reply, never the 4 MiB value.
      expect((await netOutputBytes(client)) - before).toBeLessThan(256 * 1024);
      // Claims and counts treat them as absent and replace them with values of this layout.
      await state.releaseProbe(at("typed"), "v1:00000000-0000-0000-0000-000000000000");
      const token = await state.claimProbe(at("typed"), 60_000);
      expect(token).toMatch(/^v1:/);
      await state.releaseProbe(at("typed"), token as string);
      expect(await client.exists(typed.probe)).toBe(0);
      expect(await state.claimProbe(at("big"), 60_000)).toMatch(/^v1:/);
      expect(await state.claimTrial("h.example.com", 60_000)).toBe(true);
      await state.releaseTrial("h.example.com");
      await state.recordFailure("h.example.com", { failureThreshold: 2, coolDownMs: 60_000 });
      expect(await client.get(breaker.failures)).toBe("v1:1");
      expect(state.mode).toBe("shared");
      expect(state.stats()).toMatchObject({ failures: 0, localAnswers: 0 });
      expect(state.stats().foreignValues).toBeGreaterThanOrEqual(100);
      expect(lines).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("Redis state: Redis dies and comes back", () => {
  it("falls back to local memory within its budget, logs each transition once, and resumes sharing", async () => {
    const prefix = `k:${randomUUID().slice(0, 8)}:`;
    const lines: string[] = [];
    const state = redisState(prefix, { budgetMs: 100, retryMs: 200, log: (l) => lines.push(l) });
    const key = {
      image: "a.example.com/x:1",
      credentialSecret: undefined,
      registry: "a.example.com",
    };
    // Connected and sharing first (the first connection may take a while on a busy machine).
    const warm = performance.now() + 10_000;
    do await state.setVerdict(key, { available: true }, 60_000);
    while (state.mode !== "shared" && performance.now() < warm);
    expect(state.mode).toBe("shared");
    lines.length = 0;
    await redis.kill();
    try {
      // Every call answers within its 100 ms budget, from local memory: before
      // a timer armed with it for three budgets has fired (see settlesBefore).
      for (let i = 0; i < 20; i++) {
        const verdict = state.getVerdict(key);
        expect(await settlesBefore(verdict, 300)).toBe(true);
        expect(await verdict).toEqual({ available: true });
        const claim = state.claimProbe({ ...key, image: `a.example.com/y${i}:1` }, 1000);
        expect(await settlesBefore(claim, 300)).toBe(true);
        expect(await claim).toBeDefined();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(state.mode).toBe("local");
    } finally {
      await redis.restart();
    }
    // The client reconnects on its own; the next attempt after retryMs shares again.
    const deadline = performance.now() + 10_000;
    while (state.mode !== "shared" && performance.now() < deadline) {
      await state.getVerdict(key);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(state.mode).toBe("shared");
    expect(lines.filter((l) => l.includes("Redis unavailable"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("answers again"))).toHaveLength(1);
    // Sharing again: a verdict written through one state is read through another.
    const other = redisState(prefix);
    await state.setVerdict(key, { available: false, reason: "x", retryable: false }, 60_000);
    expect(await other.getVerdict(key)).toEqual({
      available: false,
      reason: "x",
      retryable: false,
    });
    for (const line of lines) expect(line).not.toContain(redis.url.replace("redis://", ""));
  });
});

describe("Redis state: clear()", () => {
  it("deletes this prefix's keys only, not those of a longer prefix or of others", async () => {
    const base = `cl${randomUUID().slice(0, 8)}:`;
    const prefixes = [base, `${base}eu:`, `${base}e`, `${base.slice(0, -1)}x:`];
    const states = prefixes.map((p) => redisState(p));
    const key = {
      image: "a.example.com/x:1",
      credentialSecret: undefined,
      registry: "a.example.com",
    };
    for (const state of states) {
      await state.setVerdict(key, { available: true }, 60_000);
      await state.recordFailure("a.example.com", { failureThreshold: 1, coolDownMs: 60_000 });
    }
    const client = await raw();
    try {
      // A key of this prefix that this layout did not write stays too.
      await client.set(`${base}other`, "x", { PX: 60_000 });
      await states[0]?.clear();
      expect((await client.keys(`${base}{*`)).sort()).toEqual([]);
      for (const p of prefixes.slice(1)) {
        expect((await client.keys(`${p}{*}:v1:*`)).length).toBe(4);
      }
      expect(await client.get(`${base}other`)).toBe("x");
      expect(await states[1]?.getVerdict(key)).toEqual({ available: true });
    } finally {
      await client.close();
    }
  });
});

describe("Redis state: Redis is down when the replica starts", () => {
  it("sends no command whose caller gave up, however late Redis comes up", async () => {
    const port = await freePort();
    const prefix = `late:${randomUUID().slice(0, 8)}:`;
    const state = createRedisAvailabilityState({
      url: `redis://127.0.0.1:${port}`,
      prefix,
      timers: realClock,
      budgetMs: 50,
      retryMs: 20,
    });
    opened.push(state);
    const key = (i: number) => ({
      image: `a.example.com/x${i}:1`,
      credentialSecret: undefined,
      registry: "a.example.com",
    });
    const policy = { failureThreshold: 1, coolDownMs: 60_000 };
    // Every call gives up within its budget and answers from local memory.
    for (let i = 0; i < 10; i++) {
      await state.setVerdict(key(i), { available: true }, 60_000);
      expect(await state.claimProbe(key(i), 60_000)).toBeDefined();
      await state.recordFailure(`r${i}.example.com`, policy);
      expect(await state.claimTrial(`r${i}.example.com`, 60_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(state.mode).toBe("local");
    const late = await startRedisServer({ port });
    try {
      // Wait until this state shares again: anything it parked would have gone first.
      const deadline = performance.now() + 20_000;
      while (state.mode !== "shared" && performance.now() < deadline) {
        await state.getVerdict(key(100));
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(state.mode).toBe("shared");
      const client = createClient({ url: late.url });
      client.on("error", () => {});
      await client.connect();
      try {
        expect(await client.keys("*")).toEqual([]);
      } finally {
        await client.close();
      }
    } finally {
      await late.stop();
    }
  }, 60_000);
});

describe("Redis state: ready()", () => {
  /** A state on `url` with the default budget, logging into `lines`. */
  function stateOn(url: string, lines: string[]) {
    const state = createRedisAvailabilityState({
      url,
      prefix: `r:${randomUUID().slice(0, 8)}:`,
      timers: realClock,
      log: (l) => lines.push(l),
    });
    opened.push(state);
    return state;
  }
  async function failure(promise: Promise<unknown>): Promise<Record<string, unknown>> {
    try {
      await promise;
    } catch (error) {
      return error as Record<string, unknown>;
    }
    throw new Error("ready() resolved");
  }

  it("resolves once Redis answers; the state shares from then on", async () => {
    const lines: string[] = [];
    const state = stateOn(redis.url, lines);
    expect(await state.ready()).toEqual({ mode: "shared", attempts: 1 });
    expect(state.mode).toBe("shared");
    expect(lines).toEqual([]);
  });

  it("a refused connection: REDIS_REFUSED naming the url, logged as refused", async () => {
    const lines: string[] = [];
    const port = await freePort();
    const state = stateOn(`redis://webhook:hunter2@127.0.0.1:${port}`, lines);
    const error = await failure(state.ready({ timeoutMs: 400 }));
    expect(error).toMatchObject({
      name: "RedisStateError",
      code: "REDIS_REFUSED",
      field: "url",
      value: `redis://[redacted]@127.0.0.1:${port}`,
    });
    expect(error.message).toMatch(
      /connection refused .*ECONNREFUSED.*check the host and port in the url/,
    );
    expect(state.mode).toBe("local");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Redis unavailable \(connection refused/);
    expect(`${error.message}${lines.join("")}`).not.toContain("hunter2");
  });

  it("wrong or missing credentials: REDIS_AUTH_FAILED at the first answer, logged as auth failed", async () => {
    const guarded = await startRedisServer({ args: ["--requirepass", "hunter2"] });
    try {
      for (const [url, reply] of [
        [`redis://:not-it@127.0.0.1:${guarded.port}`, "WRONGPASS"],
        [`redis://127.0.0.1:${guarded.port}`, "NOAUTH"],
      ] as const) {
        const lines: string[] = [];
        const state = stateOn(url, lines);
        const error = await failure(state.ready({ timeoutMs: 20_000 }));
        expect(error).toMatchObject({ code: "REDIS_AUTH_FAILED", field: "url" });
        expect(error.message).toContain(reply);
        expect(error.message).toMatch(
          /authentication failed .*check the user and password in the url/,
        );
        expect(error.message).not.toContain("not-it");
        expect(lines[0]).toMatch(/Redis unavailable \(authentication failed/);
      }
      const lines: string[] = [];
      const good = stateOn(`redis://:hunter2@127.0.0.1:${guarded.port}`, lines);
      expect(await good.ready()).toMatchObject({ mode: "shared" });
    } finally {
      await guarded.stop();
    }
  });

  it("a server that never answers: REDIS_TIMEOUT naming timeoutMs, logged as timed out", async () => {
    const sockets = new Set<Socket>();
    const hole = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => hole.listen(0, "127.0.0.1", resolve));
    const address = hole.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const lines: string[] = [];
      const state = stateOn(`redis://127.0.0.1:${port}`, lines);
      const error = await failure(state.ready({ timeoutMs: 300 }));
      expect(error).toMatchObject({ code: "REDIS_TIMEOUT", field: "timeoutMs", value: 300 });
      expect(error.message).toMatch(/timed out .*reachable.*raise timeoutMs/);
      expect(lines[0]).toMatch(/Redis unavailable \(timed out/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hole.close(() => resolve()));
    }
  });

  it("stops waiting when its signal aborts, and refuses a bad timeoutMs", async () => {
    const state = stateOn(`redis://127.0.0.1:${await freePort()}`, []);
    const controller = new AbortController();
    const waiting = failure(state.ready({ signal: controller.signal, timeoutMs: 60_000 }));
    setTimeout(() => controller.abort(new Error("shutting down")), 50);
    expect((await waiting).message).toBe("shutting down");
    expect(await failure(state.ready({ timeoutMs: 0 }))).toMatchObject({
      code: "INVALID_OPTION",
      field: "timeoutMs",
    });
  });
});

describe("createRedisAvailabilityState options", () => {
  it.each([
    [{ prefix: "{x}", url: "redis://127.0.0.1:1" }, "prefix"],
    [{ prefix: "p:", url: "http://user:pw@127.0.0.1:1" }, "url"],
    [{ prefix: "p:" }, "url"],
    [{ prefix: "p:", url: "redis://127.0.0.1:1", budgetMs: 0 }, "budgetMs"],
  ])("rejects %j naming %s", (options, field) => {
    let error: unknown;
    try {
      createRedisAvailabilityState(options as Parameters<typeof createRedisAvailabilityState>[0]);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: "RedisStateError", code: "INVALID_OPTION", field });
    expect(JSON.stringify((error as { value?: unknown }).value ?? "")).not.toContain("pw");
  });
});

// Keeps the import used when the suite is filtered.
export type { AvailabilityState };
