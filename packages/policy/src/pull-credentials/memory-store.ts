import { decodeIntentFile, decodePulledRecordFile } from "./codec.js";
import { isPullRecordError, PullRecordError } from "./errors.js";
import type { ListResult, PullRecordStore, SynchronousLookup } from "./store.js";
import type { ImagePulledRecord, ImagePullIntent } from "./types.js";

type Slot<T> = { readonly value: T } | { readonly raw: string | Uint8Array };

function copyRecord(record: ImagePulledRecord): ImagePulledRecord {
  return Object.freeze({
    lastUpdatedTime: new Date(record.lastUpdatedTime.getTime()),
    imageRef: record.imageRef,
    credentialMapping: new Map(record.credentialMapping),
  });
}

/**
 * A {@link PullRecordStore} in memory: for tests, for short-lived processes,
 * and under the cache decorator for embedders with their own persistence.
 *
 * Besides values it can hold raw file content ({@link putRawIntent},
 * {@link putRawPulledRecord}), decoded on every read exactly as the
 * filesystem store decodes its files, so unreadable storage can be
 * reproduced without a disk.
 *
 * @example
 * ```ts
 * import { createVerificationPolicy, MemoryPullRecordStore, PullManager } from "@kubeimg/policy/pull-credentials";
 *
 * const store = new MemoryPullRecordStore();
 * const manager = await PullManager.open({ store, clock: { now: Date.now }, policy: createVerificationPolicy() });
 * await manager.recordPullIntent("nginx:1.25");
 * console.log(await store.intentExists("nginx:1.25")); // true
 * store.putRawIntent("redis:7", "not json"); // unreadable storage, without a disk
 * await store.intentExists("redis:7"); // throws DECODE_ERROR
 * ```
 */
export class MemoryPullRecordStore implements PullRecordStore, SynchronousLookup {
  readonly #intents = new Map<string, Slot<ImagePullIntent>>();
  readonly #records = new Map<string, Slot<ImagePulledRecord>>();

  /**
   * Stores raw intent file content under `image` (as if the file for that
   * image held it); it is decoded on read.
   */
  putRawIntent(image: string, content: string | Uint8Array): void {
    this.#intents.set(image, { raw: content });
  }

  /** Stores raw record file content under `imageRef`; it is decoded on read. */
  putRawPulledRecord(imageRef: string, content: string | Uint8Array): void {
    this.#records.set(imageRef, { raw: content });
  }

  /** A synchronous lookup: raw (undecoded) entries answer `undefined`. */
  peekPulledRecord(imageRef: string): ImagePulledRecord | null | undefined {
    const slot = this.#records.get(imageRef);
    if (slot === undefined) return null;
    return "value" in slot ? slot.value : undefined;
  }

  /** A synchronous lookup: `undefined` when only the async read can tell. */
  peekIntentExists(image: string): boolean | undefined {
    const slot = this.#intents.get(image);
    if (slot === undefined) return false;
    return "value" in slot ? true : undefined;
  }

  async writeIntent(image: string): Promise<void> {
    this.#intents.set(image, { value: Object.freeze({ image }) });
  }

  async intentExists(image: string): Promise<boolean> {
    const slot = this.#intents.get(image);
    if (slot === undefined) return false;
    if ("value" in slot) return true;
    return decodeIntentSlot(image, slot.raw).image === image;
  }

  async deleteIntent(image: string): Promise<void> {
    this.#intents.delete(image);
  }

  async listIntents(): Promise<ListResult<ImagePullIntent>> {
    const items: ImagePullIntent[] = [];
    const errors: PullRecordError[] = [];
    for (const [key, slot] of this.#intents) {
      if ("value" in slot) items.push(slot.value);
      else collect(() => items.push(decodeIntentSlot(key, slot.raw)), errors);
    }
    return { items, errors };
  }

  async getPulledRecord(imageRef: string): Promise<ImagePulledRecord | undefined> {
    const slot = this.#records.get(imageRef);
    if (slot === undefined) return undefined;
    if ("value" in slot) return slot.value;
    const record = decodeRecordSlot(imageRef, slot.raw);
    return record.imageRef === imageRef ? record : undefined;
  }

  async writePulledRecord(record: ImagePulledRecord): Promise<void> {
    this.#records.set(record.imageRef, { value: copyRecord(record) });
  }

  async deletePulledRecord(imageRef: string): Promise<void> {
    this.#records.delete(imageRef);
  }

  async listPulledRecords(): Promise<ListResult<ImagePulledRecord>> {
    const items: ImagePulledRecord[] = [];
    const errors: PullRecordError[] = [];
    for (const [key, slot] of this.#records) {
      if ("value" in slot) items.push(slot.value);
      else collect(() => items.push(decodeRecordSlot(key, slot.raw)), errors);
    }
    return { items, errors };
  }
}

function collect(run: () => unknown, errors: PullRecordError[]): void {
  try {
    run();
  } catch (error) {
    if (!isPullRecordError(error)) throw error;
    errors.push(error);
  }
}

function decodeIntentSlot(key: string, raw: string | Uint8Array): ImagePullIntent {
  try {
    return decodeIntentFile(raw).object;
  } catch (error) {
    throw rekey(error, key);
  }
}

function decodeRecordSlot(key: string, raw: string | Uint8Array): ImagePulledRecord {
  try {
    return decodePulledRecordFile(raw).object;
  } catch (error) {
    throw rekey(error, key);
  }
}

function rekey(error: unknown, key: string): unknown {
  if (!isPullRecordError(error)) return error;
  return new PullRecordError(error.code, error.message, { key, cause: error.cause });
}
