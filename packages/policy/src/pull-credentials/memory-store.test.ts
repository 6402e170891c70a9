import { CachedPullRecordStore } from "./cached-store.js";
import { MemoryPullRecordStore } from "./memory-store.js";
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
