/**
 * The storage interface behind the manager (the kubelet's
 * `PullRecordsAccessor`), shared by every implementation: in-memory,
 * filesystem (`@kubeimg/policy/pull-credentials/fs`) and the LRU cache
 * decorator. Each runs the same contract test suite.
 */
import type { PullRecordError } from "./errors.js";
import type { ImagePulledRecord, ImagePullIntent } from "./types.js";

/**
 * A listing: what could be read, and one error per entry that could not
 * (undecodable files are skipped and reported, never fatal).
 *
 * @example
 * ```ts
 * import { type ImagePullIntent, type ListResult, MemoryPullRecordStore } from "@kubeimg/policy/pull-credentials";
 *
 * const store = new MemoryPullRecordStore();
 * await store.writeIntent("nginx:1.25");
 * store.putRawIntent("redis:7", "not json");
 * const { items, errors }: ListResult<ImagePullIntent> = await store.listIntents();
 * for (const e of errors) console.log(`unreadable: ${e.key} (${e.code})`); // unreadable: redis:7 (DECODE_ERROR)
 * console.log(items); // [ { image: 'nginx:1.25' } ]
 * ```
 */
export interface ListResult<T> {
  readonly items: readonly T[];
  readonly errors: readonly PullRecordError[];
}

/**
 * Stores intents (keyed by the exact pod image string) and pulled records
 * (keyed by imageRef).
 *
 * Contract: reads of an unreadable entry reject with a `PullRecordError`
 * (`DECODE_ERROR` or `STORE_IO_ERROR`) so the manager can fail safe; an entry
 * stored under a key whose content names another key counts as absent;
 * deleting an absent entry succeeds; writes replace atomically; records are
 * treated as immutable values.
 *
 * @example
 * ```ts
 * import { MemoryPullRecordStore, type PullRecordStore } from "@kubeimg/policy/pull-credentials";
 *
 * const store: PullRecordStore = new MemoryPullRecordStore();
 * await store.writeIntent("nginx:1.25");
 * console.log(await store.intentExists("nginx:1.25")); // true
 * console.log(await store.intentExists("docker.io/library/nginx:1.25")); // false: keys are exact image strings
 * ```
 */
export interface PullRecordStore {
  writeIntent(image: string): Promise<void>;
  /** Rejects when the stored intent cannot be read. */
  intentExists(image: string): Promise<boolean>;
  deleteIntent(image: string): Promise<void>;
  listIntents(): Promise<ListResult<ImagePullIntent>>;

  /** Resolves `undefined` when absent; rejects when the stored record cannot be read. */
  getPulledRecord(imageRef: string): Promise<ImagePulledRecord | undefined>;
  writePulledRecord(record: ImagePulledRecord): Promise<void>;
  deletePulledRecord(imageRef: string): Promise<void>;
  listPulledRecords(): Promise<ListResult<ImagePulledRecord>>;
}

/**
 * An optional capability of a store that can answer from memory without
 * waiting: `undefined` means "cannot tell synchronously, ask the async
 * method". The manager uses it for lock-free decisions on a warm cache; the
 * answers must be exactly what the async methods would give at that moment.
 *
 * @example
 * ```ts
 * import { CachedPullRecordStore, MemoryPullRecordStore } from "@kubeimg/policy/pull-credentials";
 *
 * const store = await CachedPullRecordStore.create(new MemoryPullRecordStore());
 * await store.writeIntent("nginx:1.25");
 * console.log(store.peekIntentExists("nginx:1.25")); // true, without awaiting
 * console.log(store.peekPulledRecord("sha256:1111")); // null: known absent (the warm cache is complete)
 * ```
 */
export interface SynchronousLookup {
  /** The record, `null` when known absent, `undefined` when only the async read can tell. */
  peekPulledRecord(imageRef: string): ImagePulledRecord | null | undefined;
  /** Whether the intent exists, or `undefined` when only the async read can tell. */
  peekIntentExists(image: string): boolean | undefined;
}

/**
 * True when `store` offers the {@link SynchronousLookup} methods.
 */
export function hasSynchronousLookup(
  store: PullRecordStore,
): store is PullRecordStore & SynchronousLookup {
  const s = store as Partial<SynchronousLookup>;
  return typeof s.peekPulledRecord === "function" && typeof s.peekIntentExists === "function";
}
