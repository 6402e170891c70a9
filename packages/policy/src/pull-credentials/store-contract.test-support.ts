/**
 * The contract every {@link PullRecordStore} implementation runs (as every
 * router in hono runs one shared case file). Call
 * `describeStoreContract(name, factory)` from the implementation's test.
 */
import { describe, expect, it } from "vitest";
import type { PullRecordStore } from "./store.js";
import type { ImagePullCredentials, ImagePulledRecord } from "./types.js";

/** One fresh, empty storage for a contract test. */
export interface StoreFixture {
  /** The store under test. */
  readonly store: PullRecordStore;
  /** A new view over the same storage (drops any cache; the filesystem store re-opens). */
  reopen(): Promise<PullRecordStore>;
  /** Makes the stored intent for `image` unreadable. */
  corruptIntent(image: string): Promise<void>;
  /** Makes the stored record for `imageRef` unreadable. */
  corruptRecord(imageRef: string): Promise<void>;
  cleanup(): Promise<void>;
}

const creds = (c: Partial<ImagePullCredentials>): ImagePullCredentials => ({
  kubernetesSecrets: [],
  kubernetesServiceAccounts: [],
  nodePodsAccessible: false,
  ...c,
});

function record(
  imageRef: string,
  mapping: [string, ImagePullCredentials][] = [],
): ImagePulledRecord {
  return {
    lastUpdatedTime: new Date("2025-03-04T05:06:07Z"),
    imageRef,
    credentialMapping: new Map(mapping),
  };
}

function plain(r: ImagePulledRecord | undefined) {
  if (r === undefined) return undefined;
  return {
    lastUpdatedTime: r.lastUpdatedTime.toISOString(),
    imageRef: r.imageRef,
    credentialMapping: [...r.credentialMapping].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

/** Registers the shared contract tests for one implementation. */
export function describeStoreContract(name: string, make: () => Promise<StoreFixture>): void {
  const withFixture = (fn: (f: StoreFixture) => Promise<void>) => async () => {
    const f = await make();
    try {
      await fn(f);
    } finally {
      await f.cleanup();
    }
  };

  describe(`PullRecordStore contract: ${name}`, () => {
    it(
      "starts empty",
      withFixture(async ({ store }) => {
        expect(await store.listIntents()).toEqual({ items: [], errors: [] });
        expect(await store.listPulledRecords()).toEqual({ items: [], errors: [] });
        expect(await store.intentExists("nginx")).toBe(false);
        expect(await store.getPulledRecord("sha256:1")).toBeUndefined();
      }),
    );

    it(
      "writes, finds, lists and deletes intents by the exact image string",
      withFixture(async ({ store, reopen }) => {
        await store.writeIntent("nginx:1.25");
        await store.writeIntent("docker.io/library/nginx:1.25");
        await store.writeIntent("nginx:1.25");
        expect(await store.intentExists("nginx:1.25")).toBe(true);
        expect(await store.intentExists("nginx")).toBe(false);
        const again = await reopen();
        expect((await again.listIntents()).items.map((i) => i.image).sort()).toEqual([
          "docker.io/library/nginx:1.25",
          "nginx:1.25",
        ]);
        await again.deleteIntent("nginx:1.25");
        await again.deleteIntent("nginx:1.25"); // absent: still fine
        expect(await again.intentExists("nginx:1.25")).toBe(false);
        expect((await (await reopen()).listIntents()).items).toHaveLength(1);
      }),
    );

    it(
      "round-trips records, including odd keys and list order",
      withFixture(async ({ store, reopen }) => {
        const secrets = [
          { uid: "u2", namespace: "b", name: "s", credentialHash: "" },
          { uid: "u1", namespace: "a", name: "s", credentialHash: "h<&>" },
        ];
        const r = record("sha256:abc", [
          ["docker.io/library/nginx", creds({ kubernetesSecrets: secrets })],
          ["__proto__", creds({ nodePodsAccessible: true })],
          ["registry.example.com/ünïcode/☃", creds({})],
          [
            "quay.io/org/app",
            creds({ kubernetesServiceAccounts: [{ uid: "sa", namespace: "n", name: "default" }] }),
          ],
        ]);
        await store.writePulledRecord(r);
        expect(plain(await store.getPulledRecord("sha256:abc"))).toEqual(plain(r));
        const again = await reopen();
        expect(plain(await again.getPulledRecord("sha256:abc"))).toEqual(plain(r));
        const listed = await again.listPulledRecords();
        expect(listed.errors).toEqual([]);
        expect(listed.items.map(plain)).toEqual([plain(r)]);
      }),
    );

    it(
      "replaces a record on write and forgets it on delete",
      withFixture(async ({ store, reopen }) => {
        await store.writePulledRecord(record("r1", [["a", creds({ nodePodsAccessible: true })]]));
        await store.writePulledRecord(record("r1"));
        await store.writePulledRecord(record("r2"));
        expect((await store.getPulledRecord("r1"))?.credentialMapping.size).toBe(0);
        await store.deletePulledRecord("r1");
        await store.deletePulledRecord("r1");
        expect(await store.getPulledRecord("r1")).toBeUndefined();
        const again = await reopen();
        expect((await again.listPulledRecords()).items.map((x) => x.imageRef)).toEqual(["r2"]);
      }),
    );

    it(
      "reports an unreadable record on read, skips it when listing, and lets a write replace it",
      withFixture(async ({ store, reopen, corruptRecord }) => {
        await store.writePulledRecord(record("good"));
        await store.writePulledRecord(record("bad"));
        await corruptRecord("bad");
        const view = await reopen();
        await expect(view.getPulledRecord("bad")).rejects.toMatchObject({ code: "DECODE_ERROR" });
        const listed = await view.listPulledRecords();
        expect(listed.items.map((x) => x.imageRef)).toEqual(["good"]);
        expect(listed.errors.map((e) => e.code)).toEqual(["DECODE_ERROR"]);
        await view.writePulledRecord(record("bad"));
        expect((await view.getPulledRecord("bad"))?.imageRef).toBe("bad");
        expect((await (await reopen()).listPulledRecords()).errors).toEqual([]);
      }),
    );

    it(
      "reports an unreadable intent on read and skips it when listing",
      withFixture(async ({ store, reopen, corruptIntent }) => {
        await store.writeIntent("a");
        await store.writeIntent("b");
        await corruptIntent("b");
        const view = await reopen();
        await expect(view.intentExists("b")).rejects.toMatchObject({ code: "DECODE_ERROR" });
        const listed = await view.listIntents();
        expect(listed.items.map((i) => i.image)).toEqual(["a"]);
        expect(listed.errors).toHaveLength(1);
        await view.deleteIntent("b");
        expect(await view.intentExists("b")).toBe(false);
      }),
    );

    it(
      "keeps one readable value under concurrent writes of one key",
      withFixture(async ({ store, reopen }) => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.writePulledRecord(
              record("same", [[`k${i}`, creds({ nodePodsAccessible: true })]]),
            ),
          ),
        );
        const got = await (await reopen()).getPulledRecord("same");
        expect(got?.credentialMapping.size).toBe(1);
      }),
    );
  });
}
