import type { PullRecordError } from "./errors.js";
import { AuthoritativeLru } from "./lru.js";
import { type MetricsRecorder, pullManagerMetrics } from "./metrics.js";
import type { ListResult, PullRecordStore, SynchronousLookup } from "./store.js";
import { StripedLocks } from "./striped-locks.js";
import type { ImagePulledRecord, ImagePullIntent } from "./types.js";

/**
 * The largest intent cache the kubelet allows.
 */
export const maxIntentsCacheCapacity = 1024;
/**
 * The largest record cache the kubelet allows.
 */
export const maxPulledRecordsCacheCapacity = 2000;

/**
 * Options of {@link CachedPullRecordStore.create}.
 *
 * @example
 * ```ts
 * import {
 *   CachedPullRecordStore,
 *   type CachedPullRecordStoreOptions,
 *   MemoryPullRecordStore,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const gauges = new Map<string, number>();
 * const options: CachedPullRecordStoreOptions = {
 *   intentsCapacity: 4,
 *   metrics: { incrementCounter: () => {}, setGauge: (name, value) => gauges.set(name, value) },
 * };
 * const store = await CachedPullRecordStore.create(new MemoryPullRecordStore(), options);
 * await store.writeIntent("nginx:1.25");
 * console.log(gauges.get("kubelet_imagemanager_inmemory_pullintents_usage_percent")); // 25
 * ```
 */
export interface CachedPullRecordStoreOptions {
  /** Intent cache entries; clamped to 1–1024 (default 1024). */
  readonly intentsCapacity?: number;
  /** Record cache entries; clamped to 1–2000 (default 2000). */
  readonly pulledRecordsCapacity?: number;
  /** Lock stripes for cache misses (default 10, at most 31). */
  readonly lockStripes?: number;
  /** Receives the `…_inmemory_…_usage_percent` gauges. */
  readonly metrics?: MetricsRecorder;
  /** Told about listing errors while warming up (the kubelet logs them). */
  readonly onError?: (error: PullRecordError, context: { operation: string }) => void;
}

/**
 * A write-through LRU cache over another {@link PullRecordStore} (the
 * kubelet's `cachedPullRecordsAccessor`).
 *
 * - At creation both caches are filled by listing the delegate. A cache is
 *   *authoritative* when that listing had no error and fewer entries than
 *   its capacity: a miss then answers "absent" without asking the delegate.
 * - Eviction for capacity makes it non-authoritative; a non-authoritative
 *   miss asks the delegate and caches a hit. A later full listing that fits
 *   makes it authoritative again.
 * - Writes and deletes go to the delegate first, then to the cache; reads
 *   come from the cache, so changes made behind its back are not seen.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { CachedPullRecordStore } from "@kubeimg/policy/pull-credentials";
 * import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
 *
 * const root = mkdtempSync(join(tmpdir(), "kubelet-")); // the kubelet's root, e.g. /var/lib/kubelet
 * const store = await CachedPullRecordStore.create(await FileSystemPullRecordStore.open(root));
 * await store.writeIntent("nginx:1.25"); // written to disk, then cached
 * console.log(await store.intentExists("nginx:1.25"), await store.intentExists("redis:7")); // true false
 * ```
 */
export class CachedPullRecordStore implements PullRecordStore, SynchronousLookup {
  readonly #delegate: PullRecordStore;
  readonly #intents: AuthoritativeLru<ImagePullIntent>;
  readonly #records: AuthoritativeLru<ImagePulledRecord>;
  readonly #intentLocks: StripedLocks;
  readonly #recordLocks: StripedLocks;
  readonly #metrics: MetricsRecorder | undefined;

  private constructor(delegate: PullRecordStore, options: CachedPullRecordStoreOptions) {
    this.#delegate = delegate;
    const clamp = (v: number | undefined, max: number) =>
      Math.min(Math.max(Math.trunc(v ?? max) || 1, 1), max);
    this.#intents = new AuthoritativeLru(clamp(options.intentsCapacity, maxIntentsCacheCapacity));
    this.#records = new AuthoritativeLru(
      clamp(options.pulledRecordsCapacity, maxPulledRecordsCacheCapacity),
    );
    this.#intentLocks = new StripedLocks(options.lockStripes ?? 10);
    this.#recordLocks = new StripedLocks(options.lockStripes ?? 10);
    this.#metrics = options.metrics;
  }

  /**
   * Wraps `delegate` and warms both caches by listing it. Listing errors are
   * reported to `onError` and leave that cache non-authoritative.
   */
  static async create(
    delegate: PullRecordStore,
    options: CachedPullRecordStoreOptions = {},
  ): Promise<CachedPullRecordStore> {
    const store = new CachedPullRecordStore(delegate, options);
    for (const [operation, list] of [
      ["listIntents", () => store.listIntents()],
      ["listPulledRecords", () => store.listPulledRecords()],
    ] as const) {
      const { errors } = await list();
      for (const error of errors) options.onError?.(error, { operation });
    }
    return store;
  }

  /** Whether a miss in the intent cache currently means "absent". */
  get intentsAuthoritative(): boolean {
    return this.#intents.authoritative;
  }

  /** Whether a miss in the record cache currently means "absent". */
  get pulledRecordsAuthoritative(): boolean {
    return this.#records.authoritative;
  }

  #gauges(): void {
    const m = this.#metrics;
    if (!m) return;
    m.setGauge(
      pullManagerMetrics.inMemoryPullIntentsUsagePercent.name,
      Math.floor((this.#intents.size * 100) / this.#intents.capacity),
    );
    m.setGauge(
      pullManagerMetrics.inMemoryPulledRecordsUsagePercent.name,
      Math.floor((this.#records.size * 100) / this.#records.capacity),
    );
  }

  async #refreshingList<T>(
    cache: AuthoritativeLru<T>,
    locks: StripedLocks,
    list: () => Promise<ListResult<T>>,
    keyOf: (item: T) => string,
  ): Promise<ListResult<T>> {
    if (cache.authoritative) return list();
    return locks.runAll(async () => {
      const result = await list();
      const fits = result.errors.length === 0 && result.items.length < cache.capacity;
      if (fits || cache.size === 0) {
        cache.clear();
        for (const item of result.items.slice(0, cache.capacity)) cache.set(keyOf(item), item);
        cache.authoritative = fits;
      }
      return result;
    });
  }

  /**
   * A synchronous lookup: a hit answers at once (as the kubelet's
   * lock-free read does); a miss answers "absent" only when the cache is
   * authoritative and no write of that key is in flight.
   */
  peekPulledRecord(imageRef: string): ImagePulledRecord | null | undefined {
    const hit = this.#records.get(imageRef);
    if (hit !== undefined) return hit;
    return this.#records.authoritative && this.#recordLocks.isFree(imageRef) ? null : undefined;
  }

  /** A synchronous lookup: `undefined` when only the async read can tell. */
  peekIntentExists(image: string): boolean | undefined {
    if (this.#intents.get(image) !== undefined) return true;
    return this.#intents.authoritative && this.#intentLocks.isFree(image) ? false : undefined;
  }

  listIntents(): Promise<ListResult<ImagePullIntent>> {
    return this.#refreshingList(
      this.#intents,
      this.#intentLocks,
      () => this.#delegate.listIntents(),
      (i) => i.image,
    );
  }

  async intentExists(image: string): Promise<boolean> {
    if (this.#intents.get(image) !== undefined) return true;
    return this.#intentLocks.run(image, async () => {
      if (this.#intents.get(image) !== undefined) return true;
      if (this.#intents.authoritative) return false;
      const exists = await this.#delegate.intentExists(image);
      if (exists) this.#intents.set(image, Object.freeze({ image }));
      return exists;
    });
  }

  writeIntent(image: string): Promise<void> {
    return this.#intentLocks.run(image, async () => {
      await this.#delegate.writeIntent(image);
      this.#intents.set(image, Object.freeze({ image }));
      this.#gauges();
    });
  }

  deleteIntent(image: string): Promise<void> {
    return this.#intentLocks.run(image, async () => {
      await this.#delegate.deleteIntent(image);
      this.#intents.delete(image);
      this.#gauges();
    });
  }

  listPulledRecords(): Promise<ListResult<ImagePulledRecord>> {
    return this.#refreshingList(
      this.#records,
      this.#recordLocks,
      () => this.#delegate.listPulledRecords(),
      (r) => r.imageRef,
    );
  }

  async getPulledRecord(imageRef: string): Promise<ImagePulledRecord | undefined> {
    const hit = this.#records.get(imageRef);
    if (hit !== undefined) return hit;
    return this.#recordLocks.run(imageRef, async () => {
      const again = this.#records.get(imageRef);
      if (again !== undefined) return again;
      if (this.#records.authoritative) return undefined;
      const record = await this.#delegate.getPulledRecord(imageRef);
      if (record !== undefined) this.#records.set(imageRef, record);
      return record;
    });
  }

  writePulledRecord(record: ImagePulledRecord): Promise<void> {
    return this.#recordLocks.run(record.imageRef, async () => {
      await this.#delegate.writePulledRecord(record);
      this.#records.set(record.imageRef, record);
      this.#gauges();
    });
  }

  deletePulledRecord(imageRef: string): Promise<void> {
    return this.#recordLocks.run(imageRef, async () => {
      await this.#delegate.deletePulledRecord(imageRef);
      this.#records.delete(imageRef);
      this.#gauges();
    });
  }
}
