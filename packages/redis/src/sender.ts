/**
 * The connection the shared state talks through: one command at a time,
 * each with its own time budget, over `@redis/client` or anything else that
 * speaks the protocol. Failures are described without the URL's password.
 */
import { createClient } from "@redis/client";
import { RedisStateError } from "./errors.js";

/**
 * One Redis command on the wire. Every command the state sends names its
 * keys, and all keys of one command share a hash tag, so a cluster client
 * can route it by `firstKey`.
 */
export interface RedisCommandSender {
  /** Sends `args` (command name first) and resolves with the reply; rejects on any failure. */
  send(firstKey: string, args: readonly string[], timeoutMs: number): Promise<unknown>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/** Removes `user:password@` from anything that might quote a URL. */
function redact(text: string): string {
  return text.replace(/\/\/[^/\s@]*@/g, "//[redacted]@");
}

export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return redact(typeof code === "string" ? `${code}: ${error.message}` : error.message);
  }
  return redact(String(error));
}

/**
 * Returns a {@link RedisCommandSender} over `@redis/client` for `url`. The
 * client never queues commands while disconnected (they fail at once) and
 * reconnects by itself, backing off up to one second.
 *
 * @example
 * ```ts
 * const sender = createRedisSender("rediss://webhook:s3cret@redis.kuik-system:6380");
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
  // Failures reach the caller through the commands; an unheard 'error' event would kill the process.
  client.on("error", () => {});
  // The first commands wait for the first connection (within their budget);
  // after that, commands sent while reconnecting fail at once.
  let connected = false;
  const ready = client.connect().then(
    () => {
      connected = true;
    },
    () => {},
  );
  return {
    async send(_firstKey, args, timeoutMs) {
      if (!connected) await ready;
      return client.sendCommand<unknown>([...args], { timeout: timeoutMs });
    },
    async close() {
      try {
        await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}
