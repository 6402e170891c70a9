import { describe, expect, it } from "vitest";
import { createRegistryClient } from "../client/index.js";
import { RegistryError } from "../errors/index.js";
import { availabilityFromError, createAvailabilityChecker } from "./availability.js";

describe("availabilityFromError", () => {
  it.each([
    {
      error: new RegistryError("NOT_FOUND", "gone", { status: 404 }),
      retryable: false,
      reason: /^NOT_FOUND \(HTTP 404\)/,
    },
    {
      error: new RegistryError("DENIED", "no", { status: 403 }),
      retryable: false,
      reason: /^DENIED/,
    },
    {
      error: new RegistryError("TOOMANYREQUESTS", "slow", { status: 429, retryable: true }),
      retryable: true,
      reason: /^TOOMANYREQUESTS/,
    },
    { error: new TypeError("boom"), retryable: false, reason: /^ERROR: boom/ },
  ])("$error.message", ({ error, retryable, reason }) => {
    const result = availabilityFromError(error);
    expect(result).toMatchObject({ available: false, retryable });
    expect(result.available === false && result.reason).toMatch(reason);
  });
});

describe("createAvailabilityChecker", () => {
  it("answers, never throws, when a secret is named but cannot be fetched", async () => {
    const checker = createAvailabilityChecker({ client: createRegistryClient() });
    const result = await checker.check("quay.io/a/b:1", { namespace: "ns", name: "s" }, {});
    expect(result).toMatchObject({ available: false, retryable: false });
  });
  it("reports a malformed pull secret without contacting the registry", async () => {
    let fetched = 0;
    const client = createRegistryClient({
      fetch: async () => {
        fetched++;
        return new Response(null, { status: 200 });
      },
    });
    const checker = createAvailabilityChecker({
      client,
      getSecret: async () => ({
        type: "kubernetes.io/dockerconfigjson",
        data: { ".dockerconfigjson": "e30K!" },
      }),
    });
    const result = await checker.check("quay.io/a/b:1", { namespace: "ns", name: "s" }, {});
    expect(result).toMatchObject({ available: false, retryable: false });
    expect(result.available === false && result.reason).toMatch(/^INVALID_SECRET/);
    expect(fetched).toBe(0);
  });
});

describe("createAvailabilityChecker given the client itself", () => {
  it("says to pass { client }", () => {
    const client = createRegistryClient();
    expect(() => createAvailabilityChecker(client as never)).toThrow(
      /pass \{ client \}, not the client itself/,
    );
  });
});
