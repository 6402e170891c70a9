/**
 * The connection the shared state talks through: one command at a time,
 * each with its own time budget, over `@redis/client` or anything else that
 * speaks the protocol. Failures are described without the URL's password.
 */
import { createClient } from "#redis-client";
import { RedisStateError } from "./errors.js";

/**
 * One Redis command on the wire. Every command the state sends names its
 * keys, and all keys of one command share a hash tag, so a cluster client
 * can route it by `firstKey`.
 */
export interface RedisCommandSender {
  /**
   * Sends `args` (command name first) and resolves with the reply; rejects on
   * any failure. A command whose `signal` is aborted before it is written
   * must never be written: its caller has given up and answered without it.
   */
  send(
    firstKey: string,
    args: readonly string[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/** Removes `user:password@` from anything that might quote a URL. */
function redact(text: string): string {
  return text.replace(/\/\/[^/\s@]*@/g, "//[redacted]@");
}

/** Returns `url` without its `user:password@`, to put on an error. */
export function redactUrl(url: string): string {
  return redact(url);
}

/** Why Redis could not be used, in the terms a person can act on. */
export type RedisFailureKind = "refused" | "auth-failed" | "timed-out" | "other";

/**
 * A failure the state or the sender diagnosed itself (a budget spent, no
 * connection yet), carrying what the connection last reported as `cause`.
 */
export class RedisFailure extends Error {
  override readonly name = "RedisFailure";
  readonly kind: RedisFailureKind;
  constructor(kind: RedisFailureKind, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
  }
}

const AUTH_REPLY =
  /^(WRONGPASS|NOAUTH|NOPERM|ERR AUTH\b|ERR invalid password|ERR Client sent AUTH)/;
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "ESOCKETTIMEDOUT"]);
const TIMEOUT_NAMES = new Set(["ConnectionTimeoutError", "TimeoutError", "SocketTimeoutError"]);

/** Returns what kind of failure `error` is (a connection refused, wrong credentials, no answer in time). */
export function failureKind(error: unknown): RedisFailureKind {
  if (error instanceof RedisFailure) return error.kind;
  if (!(error instanceof Error)) return "other";
  const code = (error as { code?: unknown }).code;
  if (code === "ECONNREFUSED") return "refused";
  if (AUTH_REPLY.test(error.message)) return "auth-failed";
  if ((typeof code === "string" && TIMEOUT_CODES.has(code)) || TIMEOUT_NAMES.has(error.name)) {
    return "timed-out";
  }
  return "other";
}

/** What to check for each kind of failure, naming the setting. */
const ADVICE: Record<RedisFailureKind, string> = {
  refused: "check the host and port in the url and that redis-server runs there",
  "auth-failed":
    "check the user and password in the url (redis://user:password@host:port) against the server's ACL users or requirepass",
  "timed-out":
    "check that the url's host is reachable from here (network policy, firewall; rediss:// for a TLS port), or raise SETTING if Redis is only slow",
  other: "check the url and the server's log",
};

const LABEL: Record<RedisFailureKind, string> = {
  refused: "connection refused",
  "auth-failed": "authentication failed",
  "timed-out": "timed out",
  other: "failed",
};

function errorText(error: unknown): string {
  if (error instanceof RedisFailure) {
    return error.cause === undefined
      ? error.message
      : `${error.message}; last: ${errorText(error.cause)}`;
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code)
      ? `${code}: ${error.message}`
      : error.message;
  }
  return String(error);
}

/**
 * Returns a one-line description of `error`: what kind of failure it is,
 * the client's own words, and what to check (`setting` is the time limit
 * that ran out). Never carries the URL's password.
 */
export function describeFailure(error: unknown, setting = "budgetMs"): string {
  const kind = failureKind(error);
  return redact(
    `${LABEL[kind]} (${errorText(error)}): ${ADVICE[kind].replace("SETTING", setting)}`,
  );
}

/**
 * Returns a {@link RedisCommandSender} over `@redis/client` for `url`. The
 * client never queues commands while disconnected (they fail at once) and
 * reconnects by itself, backing off up to one second.
 *
 * @example
 * ```ts no-run
 * import { createRedisAvailabilityState, createRedisSender } from "@kubeimg/redis";
 *
 * // Needs a Redis server: TLS (rediss:) and credentials come from the url.
 * const sender = createRedisSender("rediss://webhook:s3cret@redis.kuik-system:6380");
 * await sender.send("prod:kuik-webhook:", ["PING"], 1000); // → "PONG"
 * const state = createRedisAvailabilityState({ sender, prefix: "prod:kuik-webhook:" });
 * ```
 */
export function createRedisSender(url: string): RedisCommandSender {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisStateError("INVALID_OPTION", "url is not a URL", {
      field: "url",
      value: redact(url),
    });
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new RedisStateError(
      "INVALID_OPTION",
      `url must use redis: or rediss:, not ${parsed.protocol}`,
      { field: "url", value: redact(url) },
    );
  }
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 1000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), 1000),
    },
  });
  // Commands sent before the first connection wait for it, each only as long
  // as its caller does: one whose time ran out or whose signal was aborted is
  // dropped, never sent late. After that, commands sent while reconnecting
  // fail at once (no offline queue).
  let connected = false;
  let closed = false;
  // What the connection last reported (refused, wrong password, timeout), to
  // say why a command could not be sent before the first connection.
  let lastError: unknown;
  const waiters = new Set<{ resolve(): void; reject(error: unknown): void }>();
  const notConnected = (timeoutMs: number) =>
    new RedisFailure(
      lastError === undefined ? "timed-out" : failureKind(lastError),
      timeoutMs > 0 ? `not connected within ${timeoutMs} ms` : "not connected",
      lastError,
    );
  // Failures reach the caller through the commands; an unheard 'error' event would kill the process.
  client.on("error", (error: unknown) => {
    lastError = error;
    // Waiting will not mend credentials: say so to whoever waits now.
    if (!connected && failureKind(error) === "auth-failed") {
      for (const waiter of waiters) waiter.reject(notConnected(0));
    }
  });
  client.on("ready", () => {
    lastError = undefined;
  });
  void client.connect().then(
    () => {
      connected = true;
      for (const waiter of waiters) waiter.resolve();
      waiters.clear();
    },
    (error: unknown) => {
      closed = true;
      for (const waiter of waiters) waiter.reject(error);
      waiters.clear();
    },
  );
  const firstConnection = (timeoutMs: number, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      if (closed) return reject(new RedisFailure("other", "the connection is closed"));
      const waiter = {
        resolve: () => {
          settle();
          resolve();
        },
        reject: (error: unknown) => {
          settle();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(notConnected(timeoutMs));
      const timer = setTimeout(onAbort, timeoutMs);
      function settle() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        waiters.delete(waiter);
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      waiters.add(waiter);
    });
  return {
    async send(_firstKey, args, timeoutMs, signal) {
      if (signal?.aborted) throw new RedisFailure("timed-out", "given up before it was sent");
      if (!connected) await firstConnection(timeoutMs, signal);
      if (signal?.aborted) throw new RedisFailure("timed-out", "given up before it was sent");
      // The client takes whole milliseconds only.
      const timeout = Math.max(1, Math.ceil(timeoutMs));
      return client.sendCommand<unknown>(
        [...args],
        signal ? { timeout, abortSignal: signal } : { timeout },
      );
    },
    async close() {
      closed = true;
      try {
        await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}
