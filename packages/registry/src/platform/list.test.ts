/**
 * `listImagePlatforms` against a scripted registry on 127.0.0.1 that counts
 * what it is asked for: a nested index named by many entries is fetched
 * once, and the documents fetched and the entries listed are bounded in
 * total, not only per document.
 */
import { type ScriptedServer, sha256, startScriptedServer } from "@kubeimg/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createRegistryClient } from "../client/index.js";
import { isRegistryError } from "../errors/index.js";
import { type ListedEntry, listImagePlatforms } from "./index.js";

const INDEX = "application/vnd.oci.image.index.v1+json";
const MANIFEST = "application/vnd.oci.image.manifest.v1+json";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

interface Document {
  readonly body: Buffer;
  readonly digest: string;
}

function indexOf(entries: readonly object[], note = ""): Document {
  const body = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: INDEX,
      manifests: entries,
      ...(note ? { annotations: { note } } : {}),
    }),
  );
  return { body, digest: sha256(body) };
}

/** An entry naming a platform manifest (never fetched by the listing). */
function manifestEntry(i: number): object {
  return {
    mediaType: MANIFEST,
    digest: `sha256:${i.toString(16).padStart(64, "0")}`,
    size: 500,
    platform: { os: "linux", architecture: `arch${i}` },
  };
}

const indexEntry = (child: Document): object => ({
  mediaType: INDEX,
  digest: child.digest,
  size: child.body.length,
});

/**
 * Serves `top` as `team/app:1.0` and `nested` by digest; returns the server
 * and how many times each digest was fetched.
 */
async function registry(top: Document, nested: readonly Document[]) {
  const byDigest = new Map(nested.map((d) => [d.digest, d]));
  const fetches = new Map<string, number>();
  const server = await startScriptedServer((req, res) => {
    const match = /^\/v2\/team\/app\/manifests\/(.+)$/.exec(req.url ?? "");
    const ref = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    const doc = ref === "1.0" ? top : ref === undefined ? undefined : byDigest.get(ref);
    if (doc === undefined || ref === undefined) {
      res.writeHead(404).end();
      return;
    }
    fetches.set(ref, (fetches.get(ref) ?? 0) + 1);
    res.writeHead(200, { "content-type": INDEX, "docker-content-digest": doc.digest });
    res.end(req.method === "HEAD" ? undefined : doc.body);
  });
  servers.push(server);
  const client = createRegistryClient({
    registries: { [server.host]: { insecure: true, allowPrivateAddress: true } },
    retryBaseDelayMs: 10,
  });
  const image = { domain: server.host, path: "team/app", tag: "1.0" };
  const fetchCount = () => [...fetches.values()].reduce((a, b) => a + b, 0);
  return { client, image, fetches, fetchCount };
}

describe("listImagePlatforms over nested indexes", () => {
  it("fetches a nested index named by many entries once, and shares its listing", async () => {
    const nested = indexOf(Array.from({ length: 20 }, (_, i) => manifestEntry(i)));
    const top = indexOf(Array.from({ length: 50 }, () => indexEntry(nested)));
    const r = await registry(top, [nested]);
    const listed = await listImagePlatforms(r.client, r.image);
    expect(listed.kind).toBe("index");
    const entries = listed.kind === "index" ? listed.entries : [];
    expect(entries).toHaveLength(50);
    expect(entries.every((e) => e.children?.length === 20)).toBe(true);
    expect(entries[49]?.children).toBe(entries[0]?.children);
    expect(r.fetches.get(nested.digest)).toBe(1);
    expect(r.fetchCount()).toBe(2);
  });

  it("refuses a fan-out past the entry bound after two fetches, naming the option", async () => {
    // 60 entries naming one index of 2,000: 120,000 entries from 2 documents.
    const nested = indexOf(Array.from({ length: 2000 }, (_, i) => manifestEntry(i)));
    const top = indexOf(Array.from({ length: 60 }, () => indexEntry(nested)));
    const r = await registry(top, [nested]);
    const error = await listImagePlatforms(r.client, r.image).catch((e: unknown) => e);
    expect(isRegistryError(error) && error.code).toBe("INDEX_TOO_LARGE");
    expect((error as Error).message).toMatch(/more than 100000 entries .*maxListedEntries/);
    expect(r.fetchCount()).toBe(2);
    const raised = await listImagePlatforms(r.client, r.image, { maxListedEntries: 200_000 });
    expect(raised.kind === "index" && raised.entries.length).toBe(60);
  });

  it("refuses more distinct nested indexes than the document bound, naming the option", async () => {
    const nested = Array.from({ length: 100 }, (_, i) => indexOf([manifestEntry(i)], `n${i}`));
    const top = indexOf(nested.map(indexEntry));
    const r = await registry(top, nested);
    const error = await listImagePlatforms(r.client, r.image).catch((e: unknown) => e);
    expect(isRegistryError(error) && error.code).toBe("INDEX_TOO_LARGE");
    expect((error as Error).message).toMatch(/more than 64 index documents .*maxIndexDocuments/);
    expect(r.fetchCount()).toBe(64);
    const small = await listImagePlatforms(r.client, r.image, { maxIndexDocuments: 101 });
    expect(small.kind === "index" && small.entries.length).toBe(100);
  });

  it("checks the depth bound where a shared listing appears again", async () => {
    // top → a, top → b → a: a fits at depth 2 but not at depth 3.
    const a = indexOf([manifestEntry(1)], "a");
    const b = indexOf([indexEntry(a)], "b");
    const top = indexOf([indexEntry(a), indexEntry(b)]);
    const r = await registry(top, [a, b]);
    const error = await listImagePlatforms(r.client, r.image, { maxIndexDepth: 2 }).catch(
      (e: unknown) => e,
    );
    expect(isRegistryError(error) && error.code).toBe("INDEX_TOO_DEEP");
    const deep = await listImagePlatforms(r.client, r.image, { maxIndexDepth: 3 });
    const entries: readonly ListedEntry[] = deep.kind === "index" ? deep.entries : [];
    expect(entries[1]?.children?.[0]?.children).toBe(entries[0]?.children);
    expect(r.fetches.get(a.digest)).toBe(2); // once per call
  });

  it.each([0, -1, 1.5, "10", Number.NaN])("refuses the bound options set to %s", async (value) => {
    const top = indexOf([manifestEntry(1)]);
    const r = await registry(top, []);
    for (const name of ["maxIndexDocuments", "maxListedEntries"]) {
      const error = await listImagePlatforms(r.client, r.image, { [name]: value }).catch(
        (e: unknown) => e,
      );
      expect(isRegistryError(error) && error.code).toBe("INVALID_OPTION");
      expect((error as Error).message).toContain(name);
    }
  });
});
