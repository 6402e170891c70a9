import { describe, expect, it } from "vitest";
import { CachedPullRecordStore } from "./cached-store.js";
import { MemoryPullRecordStore } from "./memory-store.js";
import { hasSynchronousLookup, type PullRecordStore } from "./store.js";
import { describeStoreContract } from "./store-contract.test-support.js";

const garbage = "{not json";

describeStoreContract("MemoryPullRecordStore", async () => {
  const store = new MemoryPullRecordStore();
  return {
    store,
    reopen: async () => store,
    corruptIntent: async (image) => store.putRawIntent(image, garbage),
    corruptRecord: async (ref) => store.putRawPulledRecord(ref, garbage),
    cleanup: async () => undefined,
  };
});

describeStoreContract("CachedPullRecordStore over memory", async () => {
  const base = new MemoryPullRecordStore();
  return {
    store: await CachedPullRecordStore.create(base),
    reopen: () => CachedPullRecordStore.create(base),
    corruptIntent: async (image) => base.putRawIntent(image, garbage),
    corruptRecord: async (ref) => base.putRawPulledRecord(ref, garbage),
    cleanup: async () => undefined,
  };
});

describeStoreContract(
  "CachedPullRecordStore over memory, capacity 1 (never authoritative)",
  async () => {
    const base = new MemoryPullRecordStore();
    const options = { intentsCapacity: 1, pulledRecordsCapacity: 1 };
    return {
      store: await CachedPullRecordStore.create(base, options),
      reopen: () => CachedPullRecordStore.create(base, options),
      corruptIntent: async (image) => base.putRawIntent(image, garbage),
      corruptRecord: async (ref) => base.putRawPulledRecord(ref, garbage),
      cleanup: async () => undefined,
    };
  },
);

describe("hasSynchronousLookup", () => {
  it("is true for the memory store and the cache, false for a store without peeks", async () => {
    const memory = new MemoryPullRecordStore();
    expect(hasSynchronousLookup(memory)).toBe(true);
    expect(hasSynchronousLookup(await CachedPullRecordStore.create(memory))).toBe(true);
    const asyncOnly: PullRecordStore = {
      writeIntent: (image) => memory.writeIntent(image),
      intentExists: (image) => memory.intentExists(image),
      deleteIntent: (image) => memory.deleteIntent(image),
      listIntents: () => memory.listIntents(),
      getPulledRecord: (imageRef) => memory.getPulledRecord(imageRef),
      writePulledRecord: (record) => memory.writePulledRecord(record),
      deletePulledRecord: (imageRef) => memory.deletePulledRecord(imageRef),
      listPulledRecords: () => memory.listPulledRecords(),
    };
    expect(hasSynchronousLookup(asyncOnly)).toBe(false);
  });
});
