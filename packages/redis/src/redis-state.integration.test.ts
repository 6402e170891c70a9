/**
 * The Redis state against a real redis-server: the availability-gate
 * contract (the same suite the in-memory state passes), foreign values,
 * and Redis dying and coming back under a running gate.
 */
import { randomUUID } from "node:crypto";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { type AvailabilityState, createAvailabilityGate } from "@kubeimg/policy/availability";
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContractClock,
  describeAvailabilityGateContract,
} from "../../policy/src/availability/gate.contract.test-support.js";
import { imageKeys, registryKeys } from "./keys.js";
import { type RunningRedis, startRedisServer } from "./redis-server.test-support.js";
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
      const started = performance.now();
      // Not the v0 "available", not a wait on the foreign marker, not a foreign open circuit.
      expect(await gate.check(parseNormalizedNamed(image), undefined, {})).toMatchObject({
        available: false,
        reason: "connection refused",
      });
      expect(performance.now() - started).toBeLessThan(400);
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
      // Every call answers within the budget (plus scheduling), from local memory.
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        expect(await state.getVerdict(key)).toEqual({ available: true });
        const token = await state.claimProbe({ ...key, image: `a.example.com/y${i}:1` }, 1000);
        expect(token).toBeDefined();
        expect(performance.now() - started).toBeLessThan(400);
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
