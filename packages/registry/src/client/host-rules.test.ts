/**
 * The host rule where the client applies it (issue 12 item 2): registry
 * hosts, redirect hops and token realms in every spelling the URL parser
 * accepts, and the `resolveHost` hook for DNS names.
 */
import { describe, expect, it } from "vitest";
import {
  clientWith,
  digestOf,
  type Handler,
  image,
  MANIFEST,
  rejection,
} from "./fetch-double.test-support.js";

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

describe("BLOCKED_HOST names the option that allows the host", () => {
  it("a private registry: registries[host].allowPrivateAddress or allowPrivateAddresses", async () => {
    const { client } = clientWith(() => new Response(null, { status: 200 }));
    const error = await rejection(
      client.headManifest({ domain: "10.0.0.7:5000", path: "a/b", tag: "1" }),
    );
    expect(error.code).toBe("BLOCKED_HOST");
    expect(error.message).toContain('registries["10.0.0.7:5000"].allowPrivateAddress: true');
    expect(error.message).toContain("allowPrivateAddresses: true");
  });

  it("a registry outside allowedRegistries names that option", async () => {
    const { client } = clientWith(() => new Response(null, { status: 200 }), {
      allowedRegistries: ["quay.io"],
    });
    const error = await rejection(
      client.headManifest({ domain: "ghcr.io", path: "a/b", tag: "1" }),
    );
    expect(error.message).toContain('add "ghcr.io" to the client option allowedRegistries');
  });
});
