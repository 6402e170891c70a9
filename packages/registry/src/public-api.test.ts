/**
 * Every public function of the package (`/client`, `/adapters`, `/platform`
 * and the http helpers they are built on), called with arbitrary arguments,
 * returns (or resolves) or throws (or rejects) a kubeimg error: never a raw
 * `TypeError` or `RangeError` from deep inside. The client and the adapters
 * are exercised through their methods too, with a `fetch` that answers 404.
 */
import { isKubeimgError } from "@kubeimg/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as adapters from "./adapters/index.js";
import * as clientApi from "./client/index.js";
import * as http from "./http/index.js";
import * as platform from "./platform/index.js";

const api = { ...clientApi, ...adapters, ...platform };

const notFound = async () => new Response(null, { status: 404 });

/** Arguments: anything, plus near-misses of the shapes the functions take. */
const argument = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.constantFrom(null, undefined, Number.NaN, Number.POSITIVE_INFINITY, -1, 2 ** 31, "", "a/b"),
  fc.record(
    {
      domain: fc.oneof(fc.constantFrom("quay.io", "127.1", "[::1]", "r.io:5000"), fc.string()),
      path: fc.oneof(fc.constantFrom("team/app", "A", ""), fc.string()),
      tag: fc.oneof(fc.constant("1"), fc.string(), fc.anything()),
      digest: fc.oneof(fc.constant(`sha512:${"b".repeat(128)}`), fc.string()),
    },
    { requiredKeys: ["domain", "path"] },
  ),
  fc.record(
    {
      timeoutMs: fc.oneof(fc.double(), fc.integer()),
      signal: fc.constantFrom(AbortSignal.abort(), {}, "x"),
      credentials: fc.constantFrom(
        () => [{ username: 1 }],
        () => "x",
        () => {
          throw new RangeError("provider");
        },
      ),
      retries: fc.oneof(fc.integer(), fc.double()),
      fetch: fc.constant(notFound),
      limits: fc.dictionary(fc.string(), fc.anything()),
      exclude: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

async function settle(run: () => unknown): Promise<void> {
  try {
    const result = run();
    if (result instanceof Promise) await result;
  } catch (error) {
    if (!isKubeimgError(error)) throw error;
  }
}

const client = api.createRegistryClient({ fetch: notFound, retries: 0, timeoutMs: 2000 });
const targets: Record<string, (...args: unknown[]) => unknown> = {};
for (const [name, value] of [...Object.entries(api), ...Object.entries(http)]) {
  if (typeof value === "function" && value !== api.RegistryError) {
    targets[name] = value as (...args: unknown[]) => unknown;
  }
}
for (const method of [
  "ping",
  "headManifest",
  "getManifest",
  "resolveDigest",
  "listTagsRaw",
  "listTags",
] as const) {
  targets[`client.${method}`] = (...args) =>
    (client[method] as (...a: unknown[]) => unknown)(...args);
}
const checker = api.createAvailabilityChecker({ client });
const lister = api.createTagLister({ client });
const resolver = api.createDigestResolver({ client });
targets["checker.check"] = (...args) => (checker.check as (...a: unknown[]) => unknown)(...args);
targets["lister.listTags"] = (...args) =>
  (lister.listTags as (...a: unknown[]) => unknown)(...args);
targets["resolver.resolveDigest"] = (...args) =>
  (resolver.resolveDigest as (...a: unknown[]) => unknown)(...args);

describe("the public API on arbitrary input", () => {
  it("has the functions it is meant to have", () => {
    expect(Object.keys(targets).length).toBeGreaterThan(15);
  });

  it.each(Object.keys(targets))("%s throws only kubeimg errors", async (name) => {
    const target = targets[name] as (...args: unknown[]) => unknown;
    await fc.assert(
      fc.asyncProperty(fc.array(argument, { maxLength: 3 }), async (args) => {
        await settle(() => target(...args));
      }),
      { numRuns: 150 },
    );
  });
});
