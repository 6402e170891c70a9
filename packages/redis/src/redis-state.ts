/**
 * The availability gate's state shared through Redis (or a Redis-protocol
 * server such as Valkey), so that every replica of a webhook learns from one
 * probe: verdicts expire by Redis TTL, the single-flight marker is a `SET`
 * with a TTL that only its holder's token can delete, and a breaker opened by
 * one replica is open for all.
 *
 * It is built to fail safe and bounded: each command gets a small budget
 * (50 ms by default) and the client never queues commands while
 * disconnected, so an unreachable, slow or restarting Redis costs an
 * admission at most that budget per step. After a failure the state answers
 * from this replica's memory (kept warm by writing every verdict and breaker
 * event there too), logs the transition once, tries Redis again after
 * `retryMs`, and logs once more when sharing resumes.
 */
import { randomUUID } from "node:crypto";
import {
  type Availability,
  type AvailabilityState,
  type BreakerPolicy,
  type CircuitState,
  createMemoryAvailabilityState,
  type ProbePeek,
  type RoutingTimers,
} from "@kubeimg/policy/availability";
import { RedisStateError } from "./errors.js";
import { imageKeys, isLayoutKey, registryKeys, scanPatternOf } from "./keys.js";
import { readinessError } from "./readiness.js";
import {
  CLAIM_SCRIPT,
  FAILURE_SCRIPT,
  READ_SCRIPT,
  REFRESH_SCRIPT,
  RELEASE_SCRIPT,
} from "./scripts.js";
import { createRedisSender, describeFailure, failureKind, RedisFailure } from "./sender.js";
import type {
  NodeTimerHandle,
  RedisAvailabilityState,
  RedisAvailabilityStateOptions,
  RedisReadiness,
  RedisReadyOptions,
} from "./state-options.js";
import { checkedOptions, nodeTimers } from "./state-options.js";
import { decodeVerdict, encodeVerdict, isToken } from "./values.js";

export type {
  NodeTimerHandle,
  RedisAvailabilityState,
  RedisAvailabilityStateOptions,
  RedisAvailabilityStateStats,
  RedisReadiness,
  RedisReadyOptions,
} from "./state-options.js";

/**
 * Returns the shared {@link AvailabilityState} over Redis, for
 * `createAvailabilityGate(checker, { timers, state })`.
 *
 * @example
 * ```ts no-run
 * import { createAvailabilityGate } from "@kubeimg/policy/availability";
 * import { createRedisAvailabilityState } from "@kubeimg/redis";
 * import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
 * import { createRegistryClient } from "@kubeimg/registry/client";
 *
 * // Needs a Redis server (and registries to check).
 * const state = createRedisAvailabilityState({
 *   url: process.env.REDIS_URL, // redis://user:password@host:6379/0, or rediss://… for TLS
 *   prefix: "prod:kuik-webhook:",
 *   log: (line) => console.error(line),
 * });
 * const timers = { now: () => performance.now(), setTimeout, clearTimeout };
 * const checker = createAvailabilityChecker({ client: createRegistryClient() });
 * const gate = createAvailabilityGate(checker, { timers, state });
 * ```
 */
export function createRedisAvailabilityState<Handle = NodeTimerHandle>(
  options: RedisAvailabilityStateOptions<Handle>,
): RedisAvailabilityState {
  return options.timers === undefined
    ? createWithTimers(options, nodeTimers)
    : createWithTimers(options, options.timers);
}

function createWithTimers<Handle>(
  options: Omit<RedisAvailabilityStateOptions<unknown>, "timers">,
  timers: RoutingTimers<Handle>,
): RedisAvailabilityState {
  const { prefix, budgetMs, retryMs } = checkedOptions(options);
  const log = options.log ?? (() => {});
  const ownsSender = options.sender === undefined;
  const sender = options.sender ?? createRedisSender(options.url as string);
  const local = createMemoryAvailabilityState({
    now: () => timers.now(),
    ...(options.maxLocalVerdicts !== undefined ? { maxVerdicts: options.maxLocalVerdicts } : {}),
  });
  const counters = { commands: 0, failures: 0, localAnswers: 0, foreignValues: 0 };
  let mode: "shared" | "local" = "shared";
  let retryAt = 0;
  const trials = new Map<string, string>();

  /**
   * One command under the budget; the command's own promise is always
   * observed. When the budget runs out the command's signal is aborted, so a
   * command still waiting for a connection is dropped, never sent late.
   */
  const send = (firstKey: string, args: readonly string[]): Promise<unknown> =>
    new Promise<unknown>((resolve, reject) => {
      let done = false;
      const giveUp = new AbortController();
      // When the budget's timer fires after a stall of the event loop, a reply
      // may already wait in the socket: give it one turn of the loop (timers
      // run before I/O in each turn) before calling the command late.
      const timer = timers.setTimeout(() => {
        timers.setTimeout(() => {
          if (done) return;
          done = true;
          giveUp.abort();
          reject(new RedisFailure("timed-out", `no answer within budgetMs ${budgetMs} ms`));
        }, 0);
      }, budgetMs);
      let pending: Promise<unknown>;
      try {
        pending = sender.send(firstKey, args, budgetMs, giveUp.signal);
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (value) => {
          if (done) return;
          done = true;
          timers.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          done = true;
          timers.clearTimeout(timer);
          reject(error);
        },
      );
    });

  /** Runs `shared` against Redis unless it is known down; falls back to `fallback`. */
  const run = async <T>(shared: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    if (mode === "local" && timers.now() < retryAt) {
      counters.localAnswers++;
      return fallback();
    }
    try {
      const value = await shared();
      counters.commands++;
      if (mode === "local") {
        mode = "shared";
        log("kubeimg availability state: Redis answers again; sharing verdicts and breakers");
      }
      return value;
    } catch (error) {
      counters.failures++;
      retryAt = timers.now() + retryMs;
      if (mode === "shared") {
        mode = "local";
        log(
          `kubeimg availability state: Redis unavailable (${describeFailure(error)}); using this replica's memory, retrying every ${retryMs} ms`,
        );
      }
      counters.localAnswers++;
      return fallback();
    }
  };

  /**
   * Reads `keys` (one hash tag) with {@link READ_SCRIPT}: each is its string,
   * or undefined when absent or foreign (another type, or too long to be
   * ours: never transferred), foreign ones counted.
   */
  const read = async (keys: readonly string[]): Promise<(string | undefined)[]> => {
    const reply = await send(keys[0] as string, [
      "EVAL",
      READ_SCRIPT,
      String(keys.length),
      ...keys,
    ]);
    return keys.map((_, i) => {
      const value = Array.isArray(reply) ? reply[i] : undefined;
      if (typeof value === "string") return value;
      if (value !== 0) counters.foreignValues++;
      return undefined;
    });
  };

  const verdictOf = (raw: string | undefined): Availability | undefined => {
    if (raw === undefined) return undefined;
    const verdict = decodeVerdict(raw);
    if (!verdict) counters.foreignValues++;
    return verdict;
  };

  const newToken = () => `v1:${randomUUID()}`;

  /** Waits `ms` on the state's timers, or less if `signal` aborts. */
  const pause = (ms: number, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve) => {
      const done = () => {
        timers.clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = timers.setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
    });

  /** One PING with its own time limit, dropped unsent when that runs out or `signal` aborts. */
  const ping = (timeoutMs: number, signal: AbortSignal | undefined) =>
    new Promise<unknown>((resolve, reject) => {
      const giveUp = new AbortController();
      const stop = (error: unknown) => {
        timers.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        giveUp.abort();
        reject(error);
      };
      const onAbort = () => stop(signal?.reason);
      // A backstop only: the sender honours timeoutMs itself and, when it ran
      // out waiting for a connection, says what the connection last reported.
      const timer = timers.setTimeout(
        () => stop(new RedisFailure("timed-out", `no answer within ${timeoutMs} ms`)),
        timeoutMs + 50,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      let pending: Promise<unknown>;
      try {
        pending = sender.send(prefix, ["PING"], timeoutMs, giveUp.signal);
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (value) => {
          timers.clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          if (!giveUp.signal.aborted) stop(error);
        },
      );
    });

  async function ready(wait: RedisReadyOptions = {}): Promise<RedisReadiness> {
    const timeoutMs = wait.timeoutMs ?? 5000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RedisStateError("INVALID_OPTION", "timeoutMs must be a positive number of ms", {
        field: "timeoutMs",
        value: timeoutMs,
      });
    }
    const { signal } = wait;
    signal?.throwIfAborted();
    const deadline = timers.now() + timeoutMs;
    let attempts = 0;
    let last: unknown;
    for (;;) {
      const remaining = Math.ceil(deadline - timers.now());
      if (remaining <= 0) break;
      attempts++;
      try {
        await ping(remaining, signal);
        counters.commands++;
        retryAt = 0;
        if (mode === "local") {
          mode = "shared";
          log("kubeimg availability state: Redis answers again; sharing verdicts and breakers");
        }
        return { mode: "shared", attempts };
      } catch (error) {
        signal?.throwIfAborted();
        counters.failures++;
        last = error;
        if (failureKind(error) === "auth-failed") break;
        // A refused or dropped connection answers at once: do not spin on it.
        await pause(Math.min(100, Math.max(0, deadline - timers.now())), signal);
        signal?.throwIfAborted();
      }
    }
    retryAt = timers.now() + retryMs;
    if (mode === "shared") {
      mode = "local";
      log(
        `kubeimg availability state: Redis unavailable (${describeFailure(last, "timeoutMs")}); using this replica's memory, retrying every ${retryMs} ms`,
      );
    }
    throw readinessError(last, timeoutMs, wait.timeoutMs === undefined, options.url);
  }

  return {
    get mode() {
      return mode;
    },
    ready,
    stats: () => ({ ...counters }),
    getVerdict: (key) =>
      run(
        async () => verdictOf((await read([imageKeys(prefix, key).verdict]))[0]),
        () => local.getVerdict(key),
      ),
    async setVerdict(key, answer, ttlMs) {
      await local.setVerdict(key, answer, ttlMs);
      const ttl = Math.max(1, Math.round(ttlMs));
      const k = imageKeys(prefix, key).verdict;
      await run(
        async () => {
          await send(k, ["SET", k, encodeVerdict(answer), "PX", String(ttl)]);
        },
        async () => {},
      );
    },
    claimProbe(key, ttlMs) {
      const k = imageKeys(prefix, key).probe;
      const token = newToken();
      return run(
        async () => {
          const taken = await send(k, [
            "EVAL",
            CLAIM_SCRIPT,
            "1",
            k,
            token,
            String(Math.max(1, Math.round(ttlMs))),
          ]);
          return Number(taken) === 1 ? token : undefined;
        },
        () => local.claimProbe(key, ttlMs),
      );
    },
    async releaseProbe(key, token) {
      if (!isToken(token)) return local.releaseProbe(key, token);
      const k = imageKeys(prefix, key).probe;
      await run(
        async () => {
          await send(k, ["EVAL", RELEASE_SCRIPT, "1", k, token]);
        },
        async () => {},
      );
    },
    refreshProbe(key, token, ttlMs) {
      if (!isToken(token)) return local.refreshProbe(key, token, ttlMs);
      const k = imageKeys(prefix, key).probe;
      return run(
        async () => {
          const extended = await send(k, [
            "EVAL",
            REFRESH_SCRIPT,
            "1",
            k,
            token,
            String(Math.max(1, Math.round(ttlMs))),
          ]);
          return Number(extended) === 1;
        },
        async () => false,
      );
    },
    peekProbe(key): Promise<ProbePeek> {
      const keys = imageKeys(prefix, key);
      return run(
        async () => {
          const [verdict, marker] = await read([keys.verdict, keys.probe]);
          if (marker !== undefined && !isToken(marker)) counters.foreignValues++;
          return { verdict: verdictOf(verdict), claimed: isToken(marker) };
        },
        () => local.peekProbe(key),
      );
    },
    circuitState(registry): Promise<CircuitState> {
      const keys = registryKeys(prefix, registry);
      return run(
        async () => {
          const [open, tripped] = await read([keys.open, keys.tripped]);
          if (open === "v1:open") return "open";
          if (tripped === "v1:tripped") return "half-open";
          if (open !== undefined || tripped !== undefined) counters.foreignValues++;
          return "closed";
        },
        () => local.circuitState(registry),
      );
    },
    async recordFailure(registry, policy: BreakerPolicy) {
      await local.recordFailure(registry, policy);
      const keys = registryKeys(prefix, registry);
      const keep = Math.max(1, Math.round(policy.coolDownMs)) * 10;
      await run(
        async () => {
          await send(keys.failures, [
            "EVAL",
            FAILURE_SCRIPT,
            "3",
            keys.failures,
            keys.open,
            keys.tripped,
            String(policy.failureThreshold),
            String(Math.max(1, Math.round(policy.coolDownMs))),
            String(keep),
          ]);
        },
        async () => {},
      );
    },
    async recordSuccess(registry) {
      await local.recordSuccess(registry);
      const keys = registryKeys(prefix, registry);
      await run(
        async () => {
          await send(keys.failures, ["DEL", keys.failures, keys.open, keys.tripped]);
        },
        async () => {},
      );
    },
    claimTrial(registry, ttlMs) {
      const keys = registryKeys(prefix, registry);
      const token = newToken();
      return run(
        async () => {
          const taken = await send(keys.trial, [
            "EVAL",
            CLAIM_SCRIPT,
            "1",
            keys.trial,
            token,
            String(Math.max(1, Math.round(ttlMs))),
          ]);
          if (Number(taken) !== 1) return false;
          trials.set(registry, token);
          return true;
        },
        () => local.claimTrial(registry, ttlMs),
      );
    },
    async releaseTrial(registry) {
      await local.releaseTrial(registry);
      const token = trials.get(registry);
      if (token === undefined) return;
      trials.delete(registry);
      const keys = registryKeys(prefix, registry);
      await run(
        async () => {
          await send(keys.trial, ["EVAL", RELEASE_SCRIPT, "1", keys.trial, token]);
        },
        async () => {},
      );
    },
    async clear() {
      await local.clear();
      trials.clear();
      await run(
        async () => {
          let cursor = "0";
          do {
            const reply = await send(prefix, [
              "SCAN",
              cursor,
              "MATCH",
              scanPatternOf(prefix),
              "COUNT",
              "500",
            ]);
            const [next, keys] = Array.isArray(reply) ? reply : ["0", []];
            cursor = String(next);
            for (const key of Array.isArray(keys) ? keys : []) {
              // The pattern already keeps to this prefix; the exact check keeps to this layout.
              if (typeof key === "string" && isLayoutKey(prefix, key))
                await send(key, ["DEL", key]);
            }
          } while (cursor !== "0");
        },
        async () => {},
      );
    },
    async close() {
      if (ownsSender) await sender.close();
    },
  };
}
