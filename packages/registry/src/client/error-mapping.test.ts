import { describe, expect, it } from "vitest";
import { describeFailure, errorFromResponse } from "./error-mapping.js";
import { createRegistryClient } from "./index.js";

const at = { errorBytes: 1024, now: 0 };

describe("errorFromResponse", () => {
  it.each([
    { status: 401, body: "", code: "UNAUTHORIZED", retryable: false },
    { status: 403, body: "", code: "DENIED", retryable: false },
    { status: 404, body: "", code: "NOT_FOUND", retryable: false },
    { status: 429, body: "", code: "TOOMANYREQUESTS", retryable: true },
    { status: 418, body: "", code: "HTTP_ERROR", retryable: false },
    { status: 503, body: "", code: "HTTP_ERROR", retryable: true },
    { status: 505, body: "", code: "HTTP_ERROR", retryable: false },
    {
      status: 404,
      body: '{"errors":[{"code":"manifest_unknown","message":"gone"}]}',
      code: "MANIFEST_UNKNOWN", // the registry's code wins, upper-cased
      retryable: false,
    },
    { status: 400, body: '{"errors":[{"code":"BOGUS"}]}', code: "HTTP_ERROR", retryable: false },
  ])("$status $body", async ({ status, body, code, retryable }) => {
    const error = await errorFromResponse(
      new Response(body || null, { status }),
      "https://r.io/v2/",
      "r.io/a",
      at,
    );
    expect(error).toMatchObject({ code, status, retryable, reference: "r.io/a" });
  });
});

describe("describeFailure", () => {
  it("keeps names and system codes, never the text", () => {
    const error = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED secret-host"), { code: "ECONNREFUSED" }),
    });
    expect(describeFailure(error)).toBe("fetch failed (ECONNREFUSED)");
    expect(describeFailure(new TypeError('Headers.append: "Bearer abc" is invalid'))).toBe(
      "TypeError",
    );
    expect(describeFailure("text")).toBe("failure");
  });
});

describe("one retryable-status set for the transport and the errors", () => {
  it.each([
    { status: 503, attempts: 3, retryable: true },
    { status: 505, attempts: 1, retryable: false },
    { status: 501, attempts: 1, retryable: false },
    { status: 408, attempts: 3, retryable: true },
  ])(
    "$status: $attempts attempts, retryable $retryable",
    async ({ status, attempts, retryable }) => {
      let calls = 0;
      const client = createRegistryClient({
        retries: 2,
        retryBaseDelayMs: 1,
        fetch: async () => {
          calls++;
          return new Response(null, { status });
        },
      });
      await expect(
        client.getManifest({ domain: "r.io", path: "a", tag: "1" }),
      ).rejects.toMatchObject({
        status,
        retryable,
      });
      expect(calls).toBe(attempts);
    },
  );
});

describe("a registry's text in error messages", () => {
  it("is escaped in the message and kept raw in registryMessage", async () => {
    const said = "gone\u001b]52;c;cGF5bG9hZA==\u0007\r\u009b2K\u007f";
    const error = await errorFromResponse(
      new Response(JSON.stringify({ errors: [{ code: "MANIFEST_UNKNOWN", message: said }] }), {
        status: 404,
      }),
      "https://r.io/v2/",
      "r.io/a",
      at,
    );
    expect(error.message).toBe(
      "r.io/a: registry answered 404 MANIFEST_UNKNOWN (gone\\x1b]52;c;cGF5bG9hZA==\\a\\r\\u009b2K\\x7f)",
    );
    expect(error.registryMessage).toBe(said);
  });
});

describe("a TLS handshake with a plain-HTTP registry", () => {
  it("is NETWORK_ERROR naming the host's insecure option", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_request, response) => response.end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const host = `127.0.0.1:${port}`;
    try {
      const client = createRegistryClient({
        retries: 0,
        registries: { [host]: { allowPrivateAddress: true } },
      });
      const error = await client.ping(host).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "NETWORK_ERROR" });
      expect(String((error as Error).message)).toContain(`registries["${host}"].insecure: true`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
