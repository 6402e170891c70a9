/**
 * The client against scripted HTTP servers on 127.0.0.1, for what the real
 * registry cannot show: pagination, Retry-After, 429/5xx, hostile realms,
 * redirects, oversized bodies, hangs and slow bodies.
 */
import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
import {
  type ScriptedServer,
  sendError,
  settlesBefore,
  sha256,
  startScriptedServer,
} from "@kubeimg/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createAvailabilityChecker } from "../adapters/index.js";
import { createRegistryClient, keyringCredentials, type RegistryClientOptions } from "./index.js";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function serve(handler: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer(handler);
  servers.push(server);
  return server;
}

const MANIFEST = Buffer.from(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: {
      mediaType: "application/vnd.oci.image.config.v1+json",
      digest: `sha256:${"a".repeat(64)}`,
      size: 2,
    },
    layers: [],
  }),
);
const MANIFEST_DIGEST = sha256(MANIFEST);

function clientFor(server: ScriptedServer, extra: RegistryClientOptions = {}) {
  return createRegistryClient({
    registries: { [server.host]: { insecure: true, allowPrivateAddress: true } },
    retryBaseDelayMs: 10,
    ...extra,
  });
}

const credentialsFor = (host: string) =>
  keyringCredentials(
    createDockerKeyring([
      {
        config: parseDockerConfigJson({
          auths: { [host]: { username: "alice", password: "s3cret" } },
        }),
      },
    ]),
  );

describe("tag pagination", () => {
  it("follows relative and absolute opaque Link cursors to the end", async () => {
    const server = await serve((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const page = url.searchParams.get("next_page");
      const link = (target: string) => ({ link: `<${target}>; rel="next"` });
      if (url.pathname !== "/v2/team/app/tags/list") return sendError(res, 404, "NAME_UNKNOWN");
      if (!page) {
        res.writeHead(200, {
          "content-type": "text/plain",
          ...link("/v2/team/app/tags/list?next_page=opaque%2B1"),
        });
        return res.end(JSON.stringify({ name: "team/app", tags: ["b", null, "a"] }));
      }
      if (page === "opaque+1") {
        res.writeHead(200, link(`http://${req.headers.host}/v2/team/app/tags/list?next_page=zz`));
        return res.end(JSON.stringify({ tags: ["c.sig", `sha256:${"f".repeat(64)}`] }));
      }
      res.writeHead(200);
      res.end(JSON.stringify({ tags: ["c", "a"] }));
    });
    const client = clientFor(server);
    expect(await client.listTagsRaw({ domain: server.host, path: "team/app" })).toEqual([
      "b",
      "a",
      "c.sig",
      `sha256:${"f".repeat(64)}`,
      "c",
      "a",
    ]);
    expect(await client.listTags({ domain: server.host, path: "team/app" })).toEqual([
      "a",
      "b",
      "c",
    ]);
    // The cursor is used as given, never rebuilt; no `n` is sent.
    expect(server.requests.map((r) => r.url).slice(0, 3)).toEqual([
      "/v2/team/app/tags/list",
      "/v2/team/app/tags/list?next_page=opaque%2B1",
      "/v2/team/app/tags/list?next_page=zz",
    ]);
  });

  it("refuses a Link to another origin and a Link loop", async () => {
    const server = await serve((req, res) => {
      const foreign = req.url?.includes("foreign");
      res.writeHead(200, {
        link: foreign
          ? '<http://169.254.169.254/latest/meta-data>; rel="next"'
          : `<${req.url}>; rel="next"`,
      });
      res.end('{"tags":["a"]}');
    });
    const client = clientFor(server);
    await expect(
      client.listTags({ domain: server.host, path: "foreign/app" }),
    ).rejects.toMatchObject({
      code: "LINK_REJECTED",
    });
    await expect(client.listTags({ domain: server.host, path: "loop/app" })).rejects.toMatchObject({
      code: "LINK_REJECTED",
    });
  });

  it("stops at the page cap", async () => {
    const server = await serve((req, res) => {
      const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("p") ?? 0);
      res.writeHead(200, { link: `</v2/a/b/tags/list?p=${n + 1}>; rel="next"` });
      res.end(`{"tags":["t${n}"]}`);
    });
    const client = clientFor(server, { limits: { maxPages: 5 } });
    await expect(client.listTags({ domain: server.host, path: "a/b" })).rejects.toMatchObject({
      code: "TOO_MANY_PAGES",
    });
    expect(server.requests).toHaveLength(5);
  });
});

describe("retries", () => {
  it("retries 503 and 429 with Retry-After within the budget, then succeeds", async () => {
    let calls = 0;
    // The retry must come after a 900 ms timer armed with the 429 has fired:
    // timer order, which a paused process keeps, rather than a clock.
    let waited = false;
    let retriedAfterWait: boolean | undefined;
    const server = await serve((_req, res) => {
      calls++;
      if (calls === 1) return sendError(res, 503, "UNAVAILABLE");
      if (calls === 2) {
        setTimeout(() => {
          waited = true;
        }, 900);
        return sendError(res, 429, "TOOMANYREQUESTS", { "retry-after": "1" });
      }
      retriedAfterWait = waited;
      res.writeHead(200, {
        "docker-content-digest": MANIFEST_DIGEST,
        "content-type": "application/vnd.oci.image.manifest.v1+json",
      });
      res.end();
    });
    const head = await clientFor(server).headManifest({
      domain: server.host,
      path: "a/b",
      tag: "1",
    });
    expect(head.digest).toBe(MANIFEST_DIGEST);
    expect(calls).toBe(3);
    expect(retriedAfterWait).toBe(true); // waited for Retry-After: 1
  });

  it("does not wait for a Retry-After beyond the budget", async () => {
    const server = await serve((_req, res) =>
      sendError(res, 429, "TOOMANYREQUESTS", { "retry-after": "60" }),
    );
    const call = clientFor(server).headManifest(
      { domain: server.host, path: "a/b", tag: "1" },
      { timeoutMs: 5000 },
    );
    // Given up at once: settled well before the budget's end.
    expect(await settlesBefore(call, 2500)).toBe(true);
    await expect(call).rejects.toMatchObject({
      code: "TOOMANYREQUESTS",
      status: 429,
      retryable: true,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after the retry count and never retries 404", async () => {
    const flaky = await serve((_req, res) => sendError(res, 502, "UNKNOWN"));
    await expect(
      clientFor(flaky, { retries: 2 }).headManifest({ domain: flaky.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({ status: 502, retryable: true });
    expect(flaky.requests).toHaveLength(3);
    const missing = await serve((_req, res) => sendError(res, 404, "MANIFEST_UNKNOWN"));
    await expect(
      clientFor(missing).getManifest({ domain: missing.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({ code: "MANIFEST_UNKNOWN" });
    expect(missing.requests).toHaveLength(1);
  });
});

describe("manifest HEAD and GET", () => {
  it("sends all four manifest types and falls back to GET when HEAD lacks the digest", async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      res.end(req.method === "GET" ? MANIFEST : undefined);
    });
    const head = await clientFor(server).headManifest({
      domain: server.host,
      path: "a/b",
      tag: "1",
    });
    expect(head.digest).toBe(MANIFEST_DIGEST);
    expect(server.requests.map((r) => r.method)).toEqual(["HEAD", "GET"]);
    expect(server.requests[0]?.accept).toBe(
      "application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json",
    );
  });

  it("falls back to GET when HEAD is not allowed, but not on 404", async () => {
    const server = await serve((req, res) => {
      if (req.method === "HEAD") return sendError(res, 405, "UNSUPPORTED");
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      res.end(MANIFEST);
    });
    expect(
      (await clientFor(server).headManifest({ domain: server.host, path: "a/b", tag: "1" })).digest,
    ).toBe(MANIFEST_DIGEST);
  });

  it("rejects a body that does not hash to the requested digest", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      res.end(MANIFEST);
    });
    await expect(
      clientFor(server).getManifest({
        domain: server.host,
        path: "a/b",
        digest: `sha256:${"0".repeat(64)}`,
      }),
    ).rejects.toMatchObject({ code: "DIGEST_MISMATCH" });
  });

  it("maps a connection cut in the middle of a body to NETWORK_ERROR", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/vnd.oci.image.manifest.v1+json",
        "content-length": "1000",
      });
      res.write("{");
      setTimeout(() => res.destroy(), 20);
    });
    await expect(
      clientFor(server, { retries: 0 }).getManifest({ domain: server.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({ code: "NETWORK_ERROR", retryable: true });
  });

  it("refuses an invalid reference before sending anything", async () => {
    const server = await serve((_req, res) => res.end());
    await expect(
      clientFor(server).headManifest({ domain: server.host, path: "a/b", digest: "sha256:zz" }),
    ).rejects.toMatchObject({ code: "INVALID_REFERENCE" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("options", () => {
  it("GETs instead of HEAD with disableHead, reports Warning 299 once and rate limits each time", async () => {
    const warnings: string[] = [];
    const remaining: number[] = [];
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/vnd.oci.image.manifest.v1+json",
        warning: '299 - "this registry is deprecated"',
        "ratelimit-remaining": "42;w=21600",
      });
      res.end(MANIFEST);
    });
    const client = createRegistryClient({
      registries: {
        [server.host]: { insecure: true, allowPrivateAddress: true, disableHead: true },
      },
      onWarning: (warning) => warnings.push(warning),
      onRateLimit: (_registry, info) => remaining.push(info.remaining),
    });
    const image = { domain: server.host, path: "a/b", tag: "1" };
    expect((await client.headManifest(image)).digest).toBe(MANIFEST_DIGEST);
    await client.headManifest(image);
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(warnings).toEqual(["this registry is deprecated"]);
    expect(remaining).toEqual([42, 42]);
  });

  it("contacts only allowed registries when a list is given", async () => {
    const server = await serve((_req, res) => res.end());
    const client = clientFor(server, { allowedRegistries: ["quay.io"] });
    await expect(
      client.headManifest({ domain: server.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({
      code: "BLOCKED_HOST",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("rejects a HEAD digest that differs from the requested digest", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "docker-content-digest": `sha256:${"1".repeat(64)}` });
      res.end();
    });
    await expect(
      clientFor(server).headManifest({ domain: server.host, path: "a/b", digest: MANIFEST_DIGEST }),
    ).rejects.toMatchObject({ code: "DIGEST_MISMATCH" });
  });
});

describe("size caps", () => {
  it("refuses an oversized manifest, tag page and token response", async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const server = await serve((req, res) => {
      if (req.url?.startsWith("/token")) {
        res.writeHead(200);
        return res.end(big);
      }
      if (req.url?.includes("/locked/")) {
        return sendError(res, 401, "UNAUTHORIZED", {
          "www-authenticate": `Bearer realm="http://${req.headers.host}/token",service="s"`,
        });
      }
      res.writeHead(200, { "content-type": "application/json" }); // no Content-Length: chunked
      res.write(big);
      res.end(big);
    });
    const limits = {
      manifestBytes: 1024 * 1024,
      tagsPageBytes: 1024 * 1024,
      tokenBytes: 1024 * 1024,
    };
    const client = clientFor(server, { limits });
    await expect(
      client.getManifest({ domain: server.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
    });
    await expect(client.listTags({ domain: server.host, path: "a/b" })).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
    });
    await expect(
      client.headManifest({ domain: server.host, path: "locked/b", tag: "1" }),
    ).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
    });
  });
});

describe("credentials stay with the registry", () => {
  it("never sends credentials to a foreign token realm", async () => {
    const foreign = await serve((_req, res) => {
      res.writeHead(200);
      res.end('{"token":"stolen"}');
    });
    const registry = await serve((_req, res) =>
      sendError(res, 401, "UNAUTHORIZED", {
        // localhost is not 127.0.0.1: a different host, and a restricted one.
        "www-authenticate": `Bearer realm="http://localhost:${foreign.port}/token",service="evil"`,
      }),
    );
    for (const foreignRealm of ["fail", "anonymous"] as const) {
      const client = clientFor(registry, {
        credentials: credentialsFor(registry.host),
        foreignRealm,
      });
      await expect(
        client.headManifest({ domain: registry.host, path: "a/b", tag: "1" }),
      ).rejects.toMatchObject({
        code: "REALM_REJECTED",
      });
    }
    expect(foreign.requests).toHaveLength(0);
  });

  it("refuses a realm on an unrelated domain", async () => {
    const registry = await serve((_req, res) =>
      sendError(res, 401, "UNAUTHORIZED", {
        "www-authenticate": 'Bearer realm="https://auth.attacker.example/token",service="x"',
      }),
    );
    const client = clientFor(registry, { credentials: credentialsFor(registry.host) });
    await expect(
      client.headManifest({ domain: registry.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({
      code: "REALM_REJECTED",
    });
  });

  it("drops the Authorization header on a redirect to another origin", async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      res.end(MANIFEST);
    });
    const registry = await serve((req, res) => {
      if (!req.headers.authorization) {
        return sendError(res, 401, "UNAUTHORIZED", { "www-authenticate": 'Basic realm="r"' });
      }
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/blob/manifest` });
      res.end();
    });
    const client = clientFor(registry, { credentials: credentialsFor(registry.host) });
    const manifest = await client.getManifest({ domain: registry.host, path: "a/b", tag: "1" });
    expect(manifest.digest).toBe(MANIFEST_DIGEST);
    expect(registry.requests.at(-1)?.authorization).toMatch(/^Basic /);
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]?.authorization).toBeUndefined();
  });

  it("refuses redirects to restricted addresses", async () => {
    const registry = await serve((_req, res) => {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    });
    await expect(
      clientFor(registry).getManifest({ domain: registry.host, path: "a/b", tag: "1" }),
    ).rejects.toMatchObject({ code: "REDIRECT_REJECTED" });
  });

  it("never forwards token-request credentials through a redirect", async () => {
    const second = await serve((_req, res) => {
      res.writeHead(200);
      res.end('{"access_token":"t2"}');
    });
    const registry = await serve((req, res) => {
      if (req.url?.startsWith("/token")) {
        res.writeHead(307, { location: `http://127.0.0.1:${second.port}/token2` });
        return res.end();
      }
      if (req.headers.authorization === "Bearer t2") {
        res.writeHead(200, { "docker-content-digest": MANIFEST_DIGEST });
        return res.end();
      }
      sendError(res, 401, "UNAUTHORIZED", {
        "www-authenticate": `Bearer realm="http://${req.headers.host}/token",service="s"`,
      });
    });
    const client = clientFor(registry, { credentials: credentialsFor(registry.host) });
    expect(
      (await client.headManifest({ domain: registry.host, path: "a/b", tag: "1" })).digest,
    ).toBe(MANIFEST_DIGEST);
    expect(registry.requests.find((r) => r.url.startsWith("/token"))?.authorization).toMatch(
      /^Basic /,
    );
    expect(second.requests[0]?.authorization).toBeUndefined();
  });
});

describe("secrets stay out of errors", () => {
  it("does not put passwords or tokens in error messages or fields", async () => {
    const registry = await serve((req, res) => {
      if (req.url?.startsWith("/token")) {
        res.writeHead(200);
        return res.end(JSON.stringify({ token: "secret-token-value" }));
      }
      sendError(res, 401, "UNAUTHORIZED", {
        "www-authenticate": `Bearer realm="http://${req.headers.host}/token?access_token=leak",service="s"`,
      });
    });
    const client = clientFor(registry, { credentials: credentialsFor(registry.host) });
    const error = await client
      .headManifest({ domain: registry.host, path: "a/b", tag: "1" })
      .catch((e) => e);
    expect(error).toMatchObject({ code: "UNAUTHORIZED" });
    const everything = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
    for (const secret of [
      "s3cret",
      "secret-token-value",
      "leak",
      Buffer.from("alice:s3cret").toString("base64"),
    ]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe("bearer tokens", () => {
  it("reuses a token until it expires (expires_in floored at 60 s), then fetches another", async () => {
    let clock = Date.parse("2026-11-21T06:00:00Z");
    let issued = 0;
    const registry = await serve((req, res) => {
      if (req.url?.startsWith("/token")) {
        issued++;
        res.writeHead(200);
        return res.end(JSON.stringify({ access_token: `t${issued}`, expires_in: 5 }));
      }
      if (req.headers.authorization === `Bearer t${issued}`) {
        res.writeHead(200, { "docker-content-digest": MANIFEST_DIGEST });
        return res.end();
      }
      sendError(res, 401, "UNAUTHORIZED", {
        "www-authenticate": `Bearer realm="http://${req.headers.host}/token",service="s"`,
      });
    });
    const client = clientFor(registry, { now: () => clock });
    const image = { domain: registry.host, path: "a/b", tag: "1" };
    await client.headManifest(image);
    clock += 30_000;
    await client.headManifest(image);
    expect(issued).toBe(1);
    clock += 31_000; // 61 s after issue: past the 60 s floor
    await client.headManifest(image);
    expect(issued).toBe(2);
  });
});

describe("challenges", () => {
  it("reuses the ping challenge when a resource 401 carries none (as GCR does)", async () => {
    const server = await serve((req, res) => {
      if (req.url?.startsWith("/token")) {
        res.writeHead(200);
        return res.end('{"token":"t"}');
      }
      if (req.url === "/v2/") {
        return sendError(res, 401, "UNAUTHORIZED", {
          "www-authenticate": `Bearer realm="http://${req.headers.host}/token",service="s"`,
        });
      }
      if (req.headers.authorization === "Bearer t") {
        res.writeHead(200, { "docker-content-digest": MANIFEST_DIGEST });
        return res.end();
      }
      sendError(res, 401, "UNAUTHORIZED"); // no WWW-Authenticate
    });
    const client = clientFor(server);
    const image = { domain: server.host, path: "a/b", tag: "1" };
    await expect(client.headManifest(image)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await client.ping(server.host);
    expect((await client.headManifest(image)).digest).toBe(MANIFEST_DIGEST);
  });
});

describe("an availability check under a 1 s deadline returns within the deadline", () => {
  // Within the deadline: settled before a timer armed with the call, due
  // 500 ms after the deadline's own, has fired (see settlesBefore).
  const check = async (server: ScriptedServer) => {
    const checker = createAvailabilityChecker({ client: clientFor(server), timeoutMs: 1000 });
    const answer = checker.check(`${server.host}/a/b:1`, undefined, {});
    const inTime = await settlesBefore(answer, 1500);
    return { result: await answer, inTime };
  };

  it("when the server hangs", async () => {
    const server = await serve(() => {
      // never answers
    });
    const { result, inTime } = await check(server);
    expect(result).toMatchObject({ available: false, retryable: true });
    expect(result.available === false && result.reason).toMatch(/^TIMEOUT/);
    expect(inTime).toBe(true);
  });

  it("when the server answers 429 with Retry-After: 60", async () => {
    const server = await serve((_req, res) =>
      sendError(res, 429, "TOOMANYREQUESTS", { "retry-after": "60" }),
    );
    const { result, inTime } = await check(server);
    expect(result).toMatchObject({ available: false, retryable: true });
    expect(result.available === false && result.reason).toMatch(/^TOOMANYREQUESTS/);
    expect(inTime).toBe(true);
  });

  it("when the body drips slowly", async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/vnd.oci.image.manifest.v1+json" });
      if (req.method === "HEAD") return res.end(); // no digest: forces the GET
      const timer = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(timer));
    });
    const { result, inTime } = await check(server);
    expect(result).toMatchObject({ available: false, retryable: true });
    expect(inTime).toBe(true);
  });

  it("when the caller aborts first", async () => {
    const server = await serve(() => {
      // never answers
    });
    const checker = createAvailabilityChecker({ client: clientFor(server), timeoutMs: 1000 });
    const answer = checker.check(`${server.host}/a/b:1`, undefined, {
      signal: AbortSignal.timeout(200),
    });
    // Settled before the 1 s deadline could have ended it.
    expect(await settlesBefore(answer, 600)).toBe(true);
    expect((await answer).available).toBe(false);
  });
});
