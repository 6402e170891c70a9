import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clientWith } from "../client/fetch-double.test-support.js";
import { createTagMetadataSource } from "./tag-metadata.js";

const sha = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
const OCI_INDEX = "application/vnd.oci.image.index.v1+json";

/** A tiny registry in memory: tags → manifests, digests → manifests and blobs. */
function fakeRegistry() {
  const manifests = new Map<string, { bytes: Buffer; type: string }>();
  const blobs = new Map<string, Buffer>();
  const tags = new Map<string, string>();
  const image = (created: string | undefined, arch = "amd64") => {
    const config = Buffer.from(
      JSON.stringify({ architecture: arch, os: "linux", ...(created ? { created } : {}) }),
    );
    blobs.set(sha(config), config);
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: sha(config) },
        layers: [],
      }),
    );
    manifests.set(sha(manifest), { bytes: manifest, type: OCI_MANIFEST });
    return sha(manifest);
  };
  const index = (entries: { digest: string; platform: Record<string, string> }[]) => {
    const bytes = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_INDEX,
        manifests: entries.map((e) => ({ mediaType: OCI_MANIFEST, size: 1, ...e })),
      }),
    );
    manifests.set(sha(bytes), { bytes, type: OCI_INDEX });
    return sha(bytes);
  };
  const state = { inFlight: 0, maxInFlight: 0, requests: [] as string[] };
  const handler = async (url: URL, init: RequestInit) => {
    state.requests.push(`${init.method ?? "GET"} ${url.pathname}`);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const m = /^\/v2\/team\/app\/(manifests|blobs)\/(.+)$/.exec(url.pathname);
      if (!m) return new Response("{}", { status: 404 });
      const ref = decodeURIComponent(m[2] as string);
      if (m[1] === "blobs") {
        const b = blobs.get(ref);
        return b ? new Response(b) : new Response('{"errors":[]}', { status: 404 });
      }
      const digest = tags.get(ref) ?? ref;
      const found = manifests.get(digest);
      if (!found) return new Response('{"errors":[]}', { status: 404 });
      const headers = { "content-type": found.type, "docker-content-digest": digest };
      return init.method === "HEAD"
        ? new Response(null, { headers })
        : new Response(found.bytes, { headers });
    } finally {
      state.inFlight--;
    }
  };
  return { manifests, blobs, tags, image, index, state, handler };
}

const repo = { domain: "registry.example", path: "team/app" };

describe("createTagMetadataSource", () => {
  it("reads a single manifest's config created time and the tag's digest", async () => {
    const reg = fakeRegistry();
    const digest = reg.image("2024-03-01T10:00:00Z");
    reg.tags.set("1.0", digest);
    const { client } = clientWith(reg.handler);
    const source = createTagMetadataSource({ client });
    await expect(source.tagMetadata(repo, "1.0", {})).resolves.toEqual({
      created: "2024-03-01T10:00:00Z",
      digest,
      platforms: undefined,
      platform: "linux/amd64",
    });
  });

  it("reports a single manifest's config platform as Argo CD keys it (os/arch, /variant when set)", async () => {
    const reg = fakeRegistry();
    const arm = reg.image("2024-03-01T10:00:00Z", "arm64");
    reg.tags.set("arm", arm);
    const { client } = clientWith(reg.handler);
    const source = createTagMetadataSource({ client });
    const meta = await source.tagMetadata(repo, "arm", {});
    expect(meta.platforms).toBeUndefined();
    expect(meta.platform).toBe("linux/arm64");
  });

  it("lists an index's platforms without attestations and dates it by the chosen platform", async () => {
    const reg = fakeRegistry();
    const amd = reg.image("2024-01-01T00:00:00Z");
    const arm = reg.image("2024-06-01T00:00:00Z", "arm64");
    const top = reg.index([
      { digest: amd, platform: { os: "linux", architecture: "amd64" } },
      { digest: arm, platform: { os: "linux", architecture: "arm64", variant: "v8" } },
      { digest: amd, platform: { os: "unknown", architecture: "unknown" } },
    ]);
    reg.tags.set("multi", top);
    const { client } = clientWith(reg.handler);
    await expect(
      createTagMetadataSource({ client }).tagMetadata(repo, "multi", {}),
    ).resolves.toEqual({
      created: "2024-01-01T00:00:00Z",
      digest: top,
      platforms: ["linux/amd64", "linux/arm64/v8"],
    });
    const armSource = createTagMetadataSource({ client, platform: "linux/arm64" });
    await expect(armSource.tagMetadata(repo, "multi", {})).resolves.toMatchObject({
      created: "2024-06-01T00:00:00Z",
    });
    // No entry for the platform: no build time, platforms still listed.
    const s390 = createTagMetadataSource({ client, platform: "linux/s390x" });
    await expect(s390.tagMetadata(repo, "multi", {})).resolves.toEqual({
      created: undefined,
      digest: top,
      platforms: ["linux/amd64", "linux/arm64/v8"],
    });
  });

  it("caches by digest: tags sharing an image cost one HEAD each after the first", async () => {
    const reg = fakeRegistry();
    const digest = reg.image("2024-03-01T10:00:00Z");
    for (const t of ["1", "1.0", "1.0.0", "latest"]) reg.tags.set(t, digest);
    const { client } = clientWith(reg.handler);
    const source = createTagMetadataSource({ client });
    for (const t of ["1", "1.0", "1.0.0", "latest"]) await source.tagMetadata(repo, t, {});
    expect(reg.state.requests.filter((r) => r.startsWith("HEAD"))).toHaveLength(4);
    expect(reg.state.requests.filter((r) => r.startsWith("GET"))).toHaveLength(2);
  });

  it("looks up 1,000 tags in parallel, never more than `concurrency` requests at once", async () => {
    const reg = fakeRegistry();
    for (let i = 0; i < 1000; i++) {
      reg.tags.set(`v${i}`, reg.image(new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString()));
    }
    const { client } = clientWith(reg.handler);
    const source = createTagMetadataSource({ client, concurrency: 5 });
    const all = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => source.tagMetadata(repo, `v${i}`, {})),
    );
    expect(all[999]?.created).toBe("2024-01-01T00:16:39.000Z");
    expect(reg.state.requests).toHaveLength(3000);
    expect(reg.state.maxInFlight).toBeGreaterThan(1);
    expect(reg.state.maxInFlight).toBeLessThanOrEqual(5);
  });

  it("honours the caller's signal, also while waiting for a lane", async () => {
    const reg = fakeRegistry();
    for (let i = 0; i < 50; i++) reg.tags.set(`v${i}`, reg.image("2024-01-01T00:00:00Z"));
    const { client } = clientWith(reg.handler);
    const source = createTagMetadataSource({ client, concurrency: 1 });
    const controller = new AbortController();
    const pending = Array.from({ length: 50 }, (_, i) =>
      source.tagMetadata(repo, `v${i}`, { signal: controller.signal }).then(
        () => "ok",
        () => "aborted",
      ),
    );
    setTimeout(() => controller.abort(new Error("deadline")), 5);
    const outcomes = await Promise.all(pending);
    expect(outcomes.filter((o) => o === "aborted").length).toBeGreaterThan(40);
    expect(reg.state.requests.length).toBeLessThan(20);
  });

  it("hangs one listener on the caller's signal for all the lookups waiting for a lane", async () => {
    const reg = fakeRegistry();
    for (let i = 0; i < 200; i++) reg.tags.set(`v${i}`, reg.image("2024-01-01T00:00:00Z"));
    const { client } = clientWith(reg.handler);
    const source = createTagMetadataSource({ client, concurrency: 4 });
    const { signal } = new AbortController();
    let listening = 0;
    let most = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      if (args[0] === "abort") most = Math.max(most, ++listening);
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      if (args[0] === "abort") listening--;
      remove(...args);
    }) as typeof signal.removeEventListener;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => source.tagMetadata(repo, `v${i}`, { signal })),
    );
    // One for the waiting lookups, and a few per request in flight (at most 4 at once).
    expect(most).toBeLessThanOrEqual(1 + 4 * 3);
  });

  it("refuses a config blob whose bytes do not match its digest", async () => {
    const reg = fakeRegistry();
    const digest = reg.image("2024-03-01T10:00:00Z");
    reg.tags.set("1.0", digest);
    for (const key of reg.blobs.keys()) reg.blobs.set(key, Buffer.from('{"created":"x"}'));
    const { client } = clientWith(reg.handler);
    await expect(
      createTagMetadataSource({ client }).tagMetadata(repo, "1.0", {}),
    ).rejects.toMatchObject({ code: "DIGEST_MISMATCH" });
  });

  it("refuses malformed indexes and options with typed errors", async () => {
    const reg = fakeRegistry();
    const bad = Buffer.from(
      JSON.stringify({ schemaVersion: 2, manifests: [{ platform: "linux" }] }),
    );
    reg.manifests.set(sha(bad), { bytes: bad, type: OCI_INDEX });
    reg.tags.set("bad", sha(bad));
    const { client } = clientWith(reg.handler);
    await expect(
      createTagMetadataSource({ client }).tagMetadata(repo, "bad", {}),
    ).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
    expect(() => createTagMetadataSource({ client, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createTagMetadataSource({ client, platform: "not a platform!" })).toThrow(
      /platform/,
    );
  });
});
