/** The options, statistics and readiness of the Redis availability state. */
import type { AvailabilityState, RoutingTimers } from "@kubeimg/policy/availability";
import { RedisStateError } from "./errors.js";
import { checkPrefix } from "./keys.js";
import type { RedisCommandSender } from "./sender.js";

/** Options of {@link createRedisAvailabilityState}. */
export interface RedisAvailabilityStateOptions<Handle = NodeTimerHandle> {
  /**
   * `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. Either
   * this or `sender`. The URL is never logged nor put on an error.
   */
  readonly url?: string;
  /** A connection of your own (a cluster client, a test double). */
  readonly sender?: RedisCommandSender;
  /**
   * Put before every key, one per deployment sharing a server (for example
   * `prod:kuik-webhook:`): 1-64 of `[A-Za-z0-9:._-]`, no braces.
   */
  readonly prefix: string;
  /** Most time one command may take before this replica falls back to its memory (default 50 ms). */
  readonly budgetMs?: number;
  /** How long to stay on local state after a failure before trying Redis again (default 1000 ms). */
  readonly retryMs?: number;
  /** Clock and timers (default: `performance.now` and Node's timers). */
  readonly timers?: RoutingTimers<Handle>;
  /** Where transitions are reported, one line each (default: nowhere). */
  readonly log?: (line: string) => void;
  /** Most verdicts kept in the local fallback (default 1000). */
  readonly maxLocalVerdicts?: number;
}

/** Counters of a {@link RedisAvailabilityState}.
 *
 * @inline
 */
export interface RedisAvailabilityStateStats {
  /** Commands Redis answered. */
  readonly commands: number;
  /** Commands that failed or outran the budget. */
  readonly failures: number;
  /** Operations answered from local memory. */
  readonly localAnswers: number;
  /** Values under our keys that this layout did not write (ignored). */
  readonly foreignValues: number;
}

/** Options of {@link RedisAvailabilityState.ready}. */
export interface RedisReadyOptions {
  /** Stops waiting: `ready()` rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Most time to wait for Redis to answer, in ms (default 5000). */
  readonly timeoutMs?: number;
}

/** What {@link RedisAvailabilityState.ready} resolves to: the state shares through Redis.
 *
 * @inline
 */
export interface RedisReadiness {
  readonly mode: "shared";
  /** PINGs sent until one was answered (1 when Redis answered at once). */
  readonly attempts: number;
}

/** The Redis-backed {@link AvailabilityState}. */
export interface RedisAvailabilityState extends AvailabilityState {
  /** `shared` while Redis answers, `local` while this replica runs on its own memory. */
  readonly mode: "shared" | "local";
  /**
   * Resolves once Redis answers on this state's connection, so that what the
   * replica learns from its first admission on is shared; await it before
   * reporting ready. It keeps trying until `timeoutMs` (Redis may be starting
   * too), except after an authentication failure, which waiting will not
   * mend. Rejects with a {@link RedisStateError} saying why it cannot share:
   * `REDIS_REFUSED`, `REDIS_AUTH_FAILED`, `REDIS_TIMEOUT` or
   * `REDIS_UNAVAILABLE`, the setting to check in its message and `field`.
   * The state still works after a rejection, from this replica's memory,
   * trying Redis again every `retryMs`.
   *
   * @example
   * ```ts
   * import { createRedisAvailabilityState, RedisStateError } from "@kubeimg/redis";
   *
   * // Nothing listens on this port: ready() says so, naming the setting to check.
   * const state = createRedisAvailabilityState({ url: "redis://127.0.0.1:1", prefix: "prod:kuik-webhook:" });
   * try {
   *   await state.ready({ timeoutMs: 1000 }); // → { mode: "shared", attempts: 1 } where Redis answers
   * } catch (error) {
   *   if (!(error instanceof RedisStateError)) throw error;
   *   error.code; // → "REDIS_REFUSED"
   *   error.field; // → "url"
   * } finally {
   *   await state.close();
   * }
   * ```
   */
  ready(options?: RedisReadyOptions): Promise<RedisReadiness>;
  stats(): RedisAvailabilityStateStats;
  /** Closes the connection this state opened (not a `sender` passed in). */
  close(): Promise<void>;
}

/** What Node's `setTimeout` returns (this package runs on Node only). */
export type NodeTimerHandle = ReturnType<typeof setTimeout>;

/** The options every state checks before it connects: each bad value is a typed error naming its field. */
export function checkedOptions(options: Omit<RedisAvailabilityStateOptions<unknown>, "timers">): {
  prefix: string;
  budgetMs: number;
  retryMs: number;
} {
  const prefix = checkPrefix(options.prefix);
  const budgetMs = options.budgetMs ?? 50;
  const retryMs = options.retryMs ?? 1000;
  for (const [field, value] of [
    ["budgetMs", budgetMs],
    ["retryMs", retryMs],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RedisStateError("INVALID_OPTION", `${field} must be a positive number of ms`, {
        field,
        value,
      });
    }
  }
  if ((options.url === undefined) === (options.sender === undefined)) {
    throw new RedisStateError("INVALID_OPTION", "give exactly one of url and sender", {
      field: options.url === undefined ? "url" : "sender",
      value: undefined,
    });
  }
  return { prefix, budgetMs, retryMs };
}

export const nodeTimers: RoutingTimers<NodeTimerHandle> = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};
