/**
 * Regression tests of the holes hostile registries and callers found: an
 * aborted signal leaving an unhandled rejection, a token quoted in an
 * error, digests of other algorithms never verified, and raw
 * TypeError/RangeError escaping on bad input. Host rules: `host-rules.test.ts`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clientWith,
  digestOf,
  type Handler,
  image,
  MANIFEST,
  rejection,
} from "./fetch-double.test-support.js";
import { createRegistryClient } from "./index.js";

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
