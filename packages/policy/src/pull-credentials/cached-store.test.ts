import { describe, expect, it } from "vitest";
import { CachedPullRecordStore } from "./cached-store.js";
import { MemoryPullRecordStore } from "./memory-store.js";
import type { MetricsRecorder } from "./metrics.js";
import type { ImagePulledRecord } from "./types.js";

const rec = (imageRef: string): ImagePulledRecord => ({
  lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
  imageRef,
  credentialMapping: new Map(),
});

/** A memory store that counts the reads reaching it. */
class CountingStore extends MemoryPullRecordStore {
  reads = 0;
  override async getPulledRecord(imageRef: string) {
    this.reads++;
    return super.getPulledRecord(imageRef);
  }
  override async intentExists(image: string) {
    this.reads++;
    return super.intentExists(image);
  }
}

describe("CachedPullRecordStore: the authoritative-cache rule", () => {
  it("answers misses without the delegate while the listing fit", async () => {
    const base = new CountingStore();
    await base.writePulledRecord(rec("a"));
    const cache = await CachedPullRecordStore.create(base, { pulledRecordsCapacity: 2 });
    expect(cache.pulledRecordsAuthoritative).toBe(true);
    expect(await cache.getPulledRecord("missing")).toBeUndefined();
    expect(await cache.intentExists("missing")).toBe(false);
    expect(base.reads).toBe(0);
  });

  it("is not authoritative when the listing fills the capacity", async () => {
    const base = new CountingStore();
    await base.writePulledRecord(rec("a"));
    await base.writePulledRecord(rec("b"));
    const cache = await CachedPullRecordStore.create(base, { pulledRecordsCapacity: 2 });
    expect(cache.pulledRecordsAuthoritative).toBe(false);
    expect(await cache.getPulledRecord("missing")).toBeUndefined();
    expect(base.reads).toBe(1);
  });

  it("loses authority on eviction, not on delete, and regains it with a listing that fits", async () => {
    const base = new CountingStore();
    const cache = await CachedPullRecordStore.create(base, { pulledRecordsCapacity: 2 });
    await cache.writePulledRecord(rec("a"));
    await cache.deletePulledRecord("a");
    expect(cache.pulledRecordsAuthoritative).toBe(true);
    await cache.writePulledRecord(rec("a"));
    await cache.writePulledRecord(rec("b"));
    await cache.writePulledRecord(rec("c")); // evicts "a"
    expect(cache.pulledRecordsAuthoritative).toBe(false);
    // A non-authoritative miss falls through and caches the hit.
    expect((await cache.getPulledRecord("a"))?.imageRef).toBe("a");
    expect(base.reads).toBe(1);
    await cache.getPulledRecord("a");
    expect(base.reads).toBe(1);
    await base.deletePulledRecord("b");
    await base.deletePulledRecord("c");
    await cache.listPulledRecords();
    expect(cache.pulledRecordsAuthoritative).toBe(true);
  });

  it("does not see changes made behind its back until it is re-created", async () => {
    const base = new MemoryPullRecordStore();
    const cache = await CachedPullRecordStore.create(base);
    await base.writePulledRecord(rec("behind"));
    expect(await cache.getPulledRecord("behind")).toBeUndefined();
    expect(
      (await (await CachedPullRecordStore.create(base)).getPulledRecord("behind"))?.imageRef,
    ).toBe("behind");
  });

  it("does not cache a failed write", async () => {
    const base = new MemoryPullRecordStore();
    base.writePulledRecord = async () => {
      throw new Error("disk full");
    };
    const cache = await CachedPullRecordStore.create(base);
    await expect(cache.writePulledRecord(rec("x"))).rejects.toThrow("disk full");
    expect(await cache.getPulledRecord("x")).toBeUndefined();
  });

  it("reports usage gauges in percent", async () => {
    const gauges = new Map<string, number>();
    const metrics: MetricsRecorder = {
      incrementCounter: () => undefined,
      setGauge: (n, v) => gauges.set(n, v),
    };
    const cache = await CachedPullRecordStore.create(new MemoryPullRecordStore(), {
      pulledRecordsCapacity: 3,
      intentsCapacity: 4,
      metrics,
    });
    await cache.writePulledRecord(rec("a"));
    await cache.writeIntent("i");
    expect(Object.fromEntries(gauges)).toEqual({
      kubelet_imagemanager_inmemory_pullintents_usage_percent: 25,
      kubelet_imagemanager_inmemory_pulledrecords_usage_percent: 33,
    });
  });

  it("clamps the capacities to the kubelet's largest caches (1024 intents, 2000 records)", async () => {
    const gauges = new Map<string, number>();
    const metrics: MetricsRecorder = {
      incrementCounter: () => undefined,
      setGauge: (n, v) => gauges.set(n, v),
    };
    const cache = await CachedPullRecordStore.create(new MemoryPullRecordStore(), {
      pulledRecordsCapacity: 100_000,
      intentsCapacity: 100_000,
      metrics,
    });
    for (let i = 0; i < 20; i++) {
      await cache.writePulledRecord(rec(`r${i}`));
      await cache.writeIntent(`i${i}`);
    }
    // 20 of 1024 and 20 of 2000; unclamped, both would be 0 %.
    expect(Object.fromEntries(gauges)).toEqual({
      kubelet_imagemanager_inmemory_pullintents_usage_percent: 1,
      kubelet_imagemanager_inmemory_pulledrecords_usage_percent: 1,
    });
  });
});
