/**
 * A registry client whose `fetch` is a function of the test: no sockets,
 * every request recorded. For tests of the client's own rules.
 */

import { createHash } from "node:crypto";
import { isKubeimgError } from "@kubeimg/core";
import { expect } from "vitest";
import type { RegistryImage } from "../image/index.js";
import { createRegistryClient, type RegistryClientOptions } from "./index.js";

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** A client whose `fetch` is `handler`, counting requests. */
export function clientWith(handler: Handler, options: RegistryClientOptions = {}) {
  const calls: string[] = [];
  const client = createRegistryClient({
    retries: 0,
    ...options,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      calls.push(url.href);
      return handler(url, init ?? {});
    },
  });
  return { client, calls };
}

export const image: RegistryImage = { domain: "registry.example", path: "team/app", tag: "1" };
export const MANIFEST = Buffer.from(
  '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}',
);
export const digestOf = (algorithm: "sha256" | "sha384" | "sha512", bytes: Uint8Array) =>
  `${algorithm}:${createHash(algorithm).update(bytes).digest("hex")}`;

export async function rejection(
  promise: Promise<unknown>,
): Promise<{ code?: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(isKubeimgError(error)).toBe(true);
    return error as { code?: unknown; message: string };
  }
  throw new Error("expected a rejection");
}
