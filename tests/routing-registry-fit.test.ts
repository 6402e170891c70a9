/**
 * `@kubeimg/registry`'s availability checker must plug into
 * `@kubeimg/policy/routing` (the packages never import each other; their
 * types only have to agree), both ways: the registry checker is a routing
 * checker, and the routing gate wraps it.
 */
import {
  type AvailabilityChecker,
  createAvailabilityGate,
  type RoutingTimers,
  resolveFirstAvailable,
} from "@kubeimg/policy/routing";
import type { ImageAvailabilityChecker } from "@kubeimg/registry/adapters";
import { describe, expect, it } from "vitest";

describe("registry availability checker in routing", () => {
  it("has the routing checker's shape and works behind the gate", async () => {
    const registryChecker: ImageAvailabilityChecker = {
      check: async (image) =>
        image.startsWith("mirror.example.com/")
          ? { available: true }
          : { available: false, reason: "NOT_FOUND (HTTP 404)", retryable: false },
    };
    const checker: AvailabilityChecker = registryChecker;
    const timers: RoutingTimers<ReturnType<typeof setTimeout>> = {
      now: () => 0,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle),
    };
    const gate = createAvailabilityGate(checker, { timers, probeTimeoutMs: 1000 });
    const result = await resolveFirstAvailable(
      [{ image: "docker.io/library/nginx:1" }, { image: "mirror.example.com/library/nginx:1" }],
      gate,
    );
    expect(result.index).toBe(1);
  });
});
