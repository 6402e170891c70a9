/**
 * Regression tests of the holes hostile registries and callers found: an
 * aborted signal leaving an unhandled rejection, private addresses in other
 * spellings, a token quoted in an error, digests of other algorithms never
 * verified, and raw TypeError/RangeError escaping on bad input.
 */
import { createHash } from "node:crypto";
import { isKubeimgError } from "@kubeimg/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RegistryImage } from "../image/index.js";
import { createRegistryClient, type RegistryClientOptions } from "./index.js";

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** A client whose `fetch` is `handler`, counting requests. */
function clientWith(handler: Handler, options: RegistryClientOptions = {}) {
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

const image: RegistryImage = { domain: "registry.example", path: "team/app", tag: "1" };
const MANIFEST = Buffer.from(
  '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}',
);
const digestOf = (algorithm: "sha256" | "sha384" | "sha512", bytes: Uint8Array) =>
  `${algorithm}:${createHash(algorithm).update(bytes).digest("hex")}`;

async function rejection(promise: Promise<unknown>): Promise<{ code?: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(isKubeimgError(error)).toBe(true);
    return error as { code?: unknown; message: string };
  }
  throw new Error("expected a rejection");
}

describe("aborted and aborting signals (issue 12 item 1)", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });

  it("answers ABORTED and leaves no unhandled rejection behind", async () => {
    const slow: Handler = (_url, init) =>
      new Promise((_resolve, reject) => {
        const signal = init.signal as AbortSignal;
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    const { client } = clientWith(slow);
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      calls.push(client.headManifest(image, { signal: AbortSignal.abort() }));
      calls.push(client.listTags(image, { signal: AbortSignal.abort() }));
      const controller = new AbortController();
      calls.push(client.getManifest(image, { signal: controller.signal }));
      setTimeout(() => controller.abort(), i % 5);
    }
    const results = await Promise.allSettled(calls);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: "ABORTED" });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });
});

describe("private addresses in every spelling (issue 12 item 2)", () => {
  it.each([
    "2130706433",
    "127.1",
    "0x7f.0.0.1",
    "0x7f000001",
    "0177.0.0.1",
    "0",
    "0.0",
    "[0:0:0:0:0:0:0:1]",
    "[::0:1]",
    "[::ffff:7f00:1]",
    "2852039166",
    "0xa9.0xfe.0xa9.0xfe",
    "169.254.43518",
    "[::ffff:a9fe:a9fe]",
    "[::a9fe:a9fe]",
  ])("refuses the registry %s before any request", async (domain) => {
    const { client, calls } = clientWith(() => new Response(null, { status: 200 }));
    const error = await rejection(client.headManifest({ domain, path: "a/b", tag: "1" }));
    expect(error.code).toBe("BLOCKED_HOST");
    expect(calls).toEqual([]);
  });

  it.each([
    "http://[::ffff:127.0.0.1]/v2/",
    "https://2130706433/v2/",
    "https://0x7f.1/v2/",
    "https://[::ffff:a9fe:a9fe]/latest/meta-data",
    "https://169.254.43518/",
  ])("refuses a redirect to %s", async (location) => {
    const { client, calls } = clientWith(
      () => new Response(null, { status: 307, headers: { location } }),
    );
    const error = await rejection(client.headManifest(image));
    expect(error.code).toBe("REDIRECT_REJECTED");
    expect(calls).toHaveLength(1);
  });

  it.each(["https://[::ffff:7f00:1]/token", "https://0x7f.1/token", "https://2852039166/token"])(
    "refuses the realm %s, also as a foreign realm asked anonymously",
    async (realm) => {
      for (const foreignRealm of ["fail", "anonymous"] as const) {
        const { client, calls } = clientWith(
          () =>
            new Response(null, {
              status: 401,
              headers: { "www-authenticate": `Bearer realm="${realm}",service="r"` },
            }),
          { foreignRealm },
        );
        const error = await rejection(client.headManifest(image));
        expect(error.code).toBe("REALM_REJECTED");
        expect(calls).toHaveLength(1);
      }
    },
  );

  it("holds every hop of a token request to the same rule", async () => {
    const { client } = clientWith((url) => {
      if (url.pathname === "/token") {
        return new Response(null, { status: 302, headers: { location: "https://0177.0.0.1/t" } });
      }
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="https://registry.example/token"' },
      });
    });
    expect((await rejection(client.headManifest(image))).code).toBe("REDIRECT_REJECTED");
  });
});

describe("the resolveHost hook (DNS names resolving to private addresses)", () => {
  const ok: Handler = () =>
    new Response(null, {
      status: 200,
      headers: { "docker-content-digest": digestOf("sha256", MANIFEST) },
    });

  it("refuses a name that resolves to a private address, and asks for every host contacted", async () => {
    const asked: string[] = [];
    const { client, calls } = clientWith(ok, {
      resolveHost: (host) => {
        asked.push(host);
        return host === "registry.example" ? ["93.184.216.34", "10.0.0.7"] : ["93.184.216.34"];
      },
    });
    const error = await rejection(client.headManifest(image));
    expect(error.code).toBe("BLOCKED_HOST");
    expect(error.message).toContain("10.0.0.7");
    expect(asked).toEqual(["registry.example"]);
    expect(calls).toEqual([]);
  });

  it("lets public answers through and checks each redirect hop", async () => {
    const asked: string[] = [];
    const { client } = clientWith(
      (url) =>
        url.hostname === "registry.example"
          ? new Response(null, { status: 307, headers: { location: "https://cdn.example/m" } })
          : ok(url, {}),
      {
        resolveHost: async (host) => {
          asked.push(host);
          return host === "cdn.example" ? ["::ffff:169.254.169.254"] : ["93.184.216.34"];
        },
      },
    );
    expect((await rejection(client.headManifest(image))).code).toBe("BLOCKED_HOST");
    expect(asked).toEqual(["registry.example", "cdn.example"]);
  });

  it("answers a public name, and maps a failing hook to NETWORK_ERROR without its text", async () => {
    const good = clientWith(ok, { resolveHost: () => ["93.184.216.34"] });
    await expect(good.client.headManifest(image)).resolves.toMatchObject({
      digest: digestOf("sha256", MANIFEST),
    });
    const bad = clientWith(ok, {
      resolveHost: () => {
        throw Object.assign(new Error("lookup failed: secret-hook-detail"), { code: "ENOTFOUND" });
      },
    });
    const error = await rejection(bad.client.headManifest(image));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.message).toContain("ENOTFOUND");
    expect(error.message).not.toContain("secret-hook-detail");
  });

  it("is not asked about a host allowed to be private", async () => {
    const asked: string[] = [];
    const { client } = clientWith(ok, {
      registries: { "registry.example": { allowPrivateAddress: true } },
      resolveHost: (host) => {
        asked.push(host);
        return ["10.0.0.1"];
      },
    });
    await client.headManifest(image);
    expect(asked).toEqual([]);
  });
});

describe("tokens and error texts (issue 12 item 3)", () => {
  const SECRET = "s3cr3t-token-value";

  it.each([
    `${SECRET}\nX-Injected: 1`,
    `${SECRET}\r`,
    `a b ${SECRET}`,
    `${SECRET}\u0000`,
    `${SECRET}é`,
  ])("refuses the token %j with TOKEN_INVALID, never quoting it", async (token) => {
    const { client, calls } = clientWith((url) => {
      if (url.pathname === "/token") return Response.json({ token });
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="https://registry.example/token"' },
      });
    });
    const error = await rejection(client.headManifest(image));
    expect(error.code).toBe("TOKEN_INVALID");
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(SECRET);
    expect(calls).toHaveLength(2); // the 401 and the token: the token never reached a request
  });

  it("scrubs a credential or token the registry echoes back from errors and warnings", async () => {
    const warnings: string[] = [];
    const { client } = clientWith(
      (url, init) => {
        if (url.pathname === "/token") return Response.json({ token: SECRET });
        const sent = new Headers(init.headers).get("authorization");
        if (!sent) {
          return new Response(null, {
            status: 401,
            headers: { "www-authenticate": 'Bearer realm="https://registry.example/token"' },
          });
        }
        return Response.json(
          { errors: [{ code: sent, message: `you sent ${sent}` }] },
          { status: 403, headers: { warning: `299 - "echo ${sent}"` } },
        );
      },
      {
        credentials: () => [{ username: "alice", password: "pa55word-secret" }],
        onWarning: (text) => warnings.push(text),
      },
    );
    const error = await rejection(client.headManifest(image));
    const text = `${error.message} ${JSON.stringify(error)} ${warnings.join(" ")}`;
    expect(text).toContain("REDACTED");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("pa55word-secret");
    expect(warnings).toHaveLength(1);
  });

  it("never copies a fetch failure's text into an error", async () => {
    const { client } = clientWith(() => {
      throw new TypeError(`Headers.append: "Bearer ${SECRET}" is an invalid header value`);
    });
    const error = await rejection(client.headManifest(image));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.message).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });
});

describe("digests of every algorithm (issue 12 item 10)", () => {
  const serve =
    (body: Uint8Array, headerDigest?: string): Handler =>
    () =>
      new Response(body, {
        status: 200,
        headers: {
          "content-type": "application/vnd.oci.image.manifest.v1+json",
          ...(headerDigest ? { "docker-content-digest": headerDigest } : {}),
        },
      });

  it.each(["sha256", "sha384", "sha512"] as const)(
    "verifies a %s reference with its own algorithm and answers in it",
    async (algorithm) => {
      const digest = digestOf(algorithm, MANIFEST);
      const named = { domain: image.domain, path: image.path, digest };
      const { client } = clientWith(serve(MANIFEST, digestOf("sha256", MANIFEST)));
      await expect(client.getManifest(named)).resolves.toMatchObject({ digest });
      await expect(client.headManifest(named)).resolves.toMatchObject({ digest });
      await expect(client.resolveDigest(named)).resolves.toBe(digest);
    },
  );

  it.each(["sha384", "sha512"] as const)(
    "refuses other content for a %s reference",
    async (algorithm) => {
      const named = {
        domain: image.domain,
        path: image.path,
        digest: digestOf(algorithm, MANIFEST),
      };
      const other = Buffer.from('{"schemaVersion":2}');
      const { client } = clientWith(serve(other, digestOf("sha256", other)));
      expect((await rejection(client.getManifest(named))).code).toBe("DIGEST_MISMATCH");
      expect((await rejection(client.headManifest(named))).code).toBe("DIGEST_MISMATCH");
    },
  );
});

describe("typed errors on bad input (issue 12 item 13)", () => {
  it("refuses an unparseable foreign realm with REALM_REJECTED, not a TypeError", async () => {
    const { client } = clientWith(
      () =>
        new Response(null, {
          status: 401,
          headers: { "www-authenticate": 'Bearer realm="https://[::1/token"' },
        }),
      { foreignRealm: "anonymous" },
    );
    expect((await rejection(client.headManifest(image))).code).toBe("REALM_REJECTED");
  });

  it.each([Number.NaN, -1, 2 ** 31, 1e12, Number.NEGATIVE_INFINITY, "5000"])(
    "refuses timeoutMs %s with INVALID_OPTION, for the client and for a call",
    async (timeoutMs) => {
      expect(() => createRegistryClient({ timeoutMs: timeoutMs as number })).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION", name: "RegistryError" }),
      );
      const { client, calls } = clientWith(() => new Response(null, { status: 200 }));
      const error = await rejection(client.headManifest(image, { timeoutMs: timeoutMs as number }));
      expect(error.code).toBe("INVALID_OPTION");
      expect(calls).toEqual([]);
    },
  );

  it("takes timeoutMs Infinity as no deadline and 2^31 - 1 as a real one", async () => {
    const digest = digestOf("sha256", MANIFEST);
    const headers = { "docker-content-digest": digest };
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 2 ** 31 - 1]) {
      const { client } = clientWith(
        () =>
          new Promise((resolve) => setTimeout(() => resolve(new Response(null, { headers })), 20)),
        { timeoutMs },
      );
      await expect(client.headManifest(image, { timeoutMs })).resolves.toMatchObject({ digest });
    }
  });

  it.each([
    { what: "options not an object", make: () => createRegistryClient(42 as never) },
    {
      what: "an unknown option",
      make: () => createRegistryClient({ allowPrivateAdresses: true } as never),
    },
    { what: "negative retries", make: () => createRegistryClient({ retries: -1 }) },
    { what: "fractional retries", make: () => createRegistryClient({ retries: 1.5 }) },
    { what: "a zero page limit", make: () => createRegistryClient({ limits: { maxPages: 0 } }) },
    {
      what: "a user agent with a newline",
      make: () => createRegistryClient({ userAgent: "a\nb" }),
    },
    {
      what: "a fetch that is not a function",
      make: () => createRegistryClient({ fetch: 1 as never }),
    },
    {
      what: "an unknown host option",
      make: () => createRegistryClient({ registries: { "r.io": { insecur: true } as never } }),
    },
  ])("refuses $what with INVALID_OPTION", ({ make }) => {
    expect(make).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
  });

  it.each([
    {
      what: "a null image",
      call: (c: ReturnType<typeof createRegistryClient>) => c.headManifest(null as never),
    },
    {
      what: "a number image",
      call: (c: ReturnType<typeof createRegistryClient>) => c.getManifest(7 as never),
    },
    {
      what: "a path with upper case",
      call: (c: ReturnType<typeof createRegistryClient>) =>
        c.headManifest({ domain: "r.io", path: "A/b" }),
    },
    {
      what: "an empty tag",
      call: (c: ReturnType<typeof createRegistryClient>) => c.headManifest({ ...image, tag: "" }),
    },
    {
      what: "a tag smuggling a digest",
      call: (c: ReturnType<typeof createRegistryClient>) =>
        c.headManifest({ ...image, tag: `1@sha256:${"a".repeat(64)}` }),
    },
    {
      what: "a ping of a path",
      call: (c: ReturnType<typeof createRegistryClient>) => c.ping("a/b"),
    },
    { what: "a ping of nothing", call: (c: ReturnType<typeof createRegistryClient>) => c.ping("") },
    {
      what: "a signal that is not an AbortSignal",
      call: (c: ReturnType<typeof createRegistryClient>) =>
        c.headManifest(image, { signal: {} as never }),
    },
    {
      what: "call options that are not an object",
      call: (c: ReturnType<typeof createRegistryClient>) => c.listTags(image, "x" as never),
    },
  ])("rejects $what with a typed error, without a request", async ({ call }) => {
    const { client, calls } = clientWith(() => new Response(null, { status: 200 }));
    const error = await rejection(call(client));
    expect(["INVALID_REFERENCE", "INVALID_OPTION"]).toContain(error.code);
    expect(calls).toEqual([]);
  });
});
