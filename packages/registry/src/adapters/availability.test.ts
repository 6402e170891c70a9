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

describe("createAvailabilityChecker with platforms", () => {
  // A Windows Server 2022 image only: a host past the newest LTSC runs it under
  // containerd/platforms rc.5 (containerd/platforms#34), not under rc.4.
  const index = JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.index.v1+json",
    manifests: [
      {
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        digest: `sha256:${"a".repeat(64)}`,
        size: 100,
        platform: { os: "windows", architecture: "amd64", "os.version": "10.0.20348.3207" },
      },
    ],
  });
  const client = createRegistryClient({
    fetch: async () =>
      new Response(index, {
        status: 200,
        headers: { "content-type": "application/vnd.oci.image.index.v1+json" },
      }),
  });
  const host = [{ os: "windows", architecture: "amd64", osVersion: "10.0.26200.1" }];

  it("matches as the containerd/platforms release it is given, the newest by default", async () => {
    const rc5 = createAvailabilityChecker({ client, platforms: host });
    expect(await rc5.check("quay.io/a/b:1", undefined, {})).toEqual({ available: true });
    const rc4 = createAvailabilityChecker({ client, platforms: host, platformsRelease: "rc.4" });
    expect(await rc4.check("quay.io/a/b:1", undefined, {})).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^available, but no windows/),
    });
  });

  it("refuses a release it does not reproduce, naming the option", () => {
    expect(() =>
      createAvailabilityChecker({
        client,
        platformsRelease: "rc.3" as unknown as "rc.4",
      }),
    ).toThrow(/platformsRelease "rc.3"/);
  });
});
