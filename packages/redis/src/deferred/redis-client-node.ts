/**
 * `#redis-client` in Node: `@redis/client`'s `createClient`, loading the
 * client on its first call. Evaluating the client costs a fresh process more
 * than twice what starting Node does, and a process that imports
 * `@kubeimg/redis` to pass its own sender (or only its types and key
 * layout) never connects; the client loads when a sender is created.
 * Creating a sender stays synchronous, so the client comes from Node's
 * `require` (it ships CommonJS only).
 */
// A name of its own: bundles often declare `createRequire` in a banner.
import { createRequire as nodeCreateRequire } from "node:module";
import type * as RedisClient from "@redis/client";

let client: typeof RedisClient | undefined;

export const createClient = ((...args: Parameters<typeof RedisClient.createClient>) => {
  client ??= nodeCreateRequire(import.meta.url)("@redis/client") as typeof RedisClient;
  return client.createClient(...args);
}) as typeof RedisClient.createClient;
