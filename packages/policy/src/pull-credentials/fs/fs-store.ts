/**
 * The kubelet's on-disk record store (`fsPullRecordsAccessor`, v1.35),
 * byte-compatible with it: a kubelet and this store can share one
 * `<root-dir>/image_manager/`.
 */
import { type Dirent, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { strings } from "@kubeimg/core/internal";
import { storageFileName } from "../hashing.js";
import {
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
  type ImagePulledRecord,
  type ImagePullIntent,
  isPullRecordError,
  type ListResult,
  type MetricsRecorder,
  PullRecordError,
  type PullRecordStore,
  pullManagerMetrics,
} from "../index.js";

/** File names start with this; anything else in the directories is ignored. */
const filePrefix = "sha256-";
/** Temporary files written before the atomic rename; ignored when listing. */
const tmpSuffix = ".tmp";
/** How many files a listing reads before yielding to the event loop. */
const readBatch = 256;
/** How many migration rewrites run at once. */
const migrationConcurrency = 32;

/** True for a file name the kubelet treats as a record file. */
function isRecordFileName(name: string): boolean {
  return name.startsWith(filePrefix) && !name.endsWith(tmpSuffix);
}

/**
 * Options of {@link FileSystemPullRecordStore.open}.
 *
 * @example
 * ```ts
 * await FileSystemPullRecordStore.open("/var/lib/kubelet", { readOnly: true });
 * ```
 */
export interface FileSystemPullRecordStoreOptions {
  /** Receives the `…_ondisk_pullintents` / `…_ondisk_pulledrecords` gauges after each write or delete. */
  readonly metrics?: MetricsRecorder;
  /** Told about migration failures at open (the kubelet logs them). */
  readonly onError?: (error: PullRecordError, context: { operation: "migrate" }) => void;
  /**
   * Open without creating directories or migrating, and refuse every write
   * and delete (`STORE_IO_ERROR`): for agents that only read a live kubelet's
   * records. Older-version files are still read.
   */
  readonly readOnly?: boolean;
}

/**
 * What happened while opening: files rewritten in the current version, and files that could not be read.
 *
 * @example
 * ```ts
 * const { migrated, errors } = (await FileSystemPullRecordStore.open(root)).openReport;
 * ```
 */
export interface FileSystemOpenReport {
  readonly migrated: readonly string[];
  readonly errors: readonly PullRecordError[];
}

function ioError(
  error: unknown,
  message: string,
  details: { key?: string; path?: string },
): PullRecordError {
  return new PullRecordError(
    "STORE_IO_ERROR",
    `${message}: ${(error as Error)?.message ?? String(error)}`,
    {
      ...details,
      cause: error,
    },
  );
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

/**
 * A {@link PullRecordStore} over the kubelet's directories:
 * `<rootDir>/image_manager/pulling` (intents) and `…/pulled` (records), mode
 * 0700; files `sha256-<hex>` of mode 0600, written to `<name>.tmp` and
 * renamed over `<name>` (a crash leaves the old file or the new one, never a
 * torn one); strict decoding of v1alpha1 and v1beta1; v1beta1 written
 * byte-for-byte as v1.35 writes it. Opening migrates every readable older
 * file to v1beta1 under the name computed from its content.
 *
 * @example
 * ```ts
 * import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
 * const store = await FileSystemPullRecordStore.open("/var/lib/kubelet");
 * const manager = await PullManager.open({ store: await CachedPullRecordStore.create(store), policy, clock });
 * ```
 */
export class FileSystemPullRecordStore implements PullRecordStore {
  /** The intents directory. */
  readonly pullingDir: string;
  /** The records directory. */
  readonly pulledDir: string;
  readonly #metrics: MetricsRecorder | undefined;
  readonly #readOnly: boolean;
  readonly #fileLocks = new Map<string, Promise<unknown>>();
  #openReport: FileSystemOpenReport = { migrated: [], errors: [] };

  private constructor(rootDir: string, options: FileSystemPullRecordStoreOptions) {
    this.pullingDir = join(rootDir, "image_manager", "pulling");
    this.pulledDir = join(rootDir, "image_manager", "pulled");
    this.#metrics = options.metrics;
    this.#readOnly = options.readOnly === true;
  }

  /**
   * Opens (creating the directories, mode 0700) the store under the kubelet
   * root directory `rootDir`, then migrates older-version files.
   */
  static async open(
    rootDir: string,
    options: FileSystemPullRecordStoreOptions = {},
  ): Promise<FileSystemPullRecordStore> {
    if (typeof rootDir !== "string" || rootDir === "") {
      throw new PullRecordError("INVALID_ARGUMENT", "rootDir must be a non-empty path");
    }
    const store = new FileSystemPullRecordStore(rootDir, options);
    if (store.#readOnly) return store;
    for (const dir of [store.pullingDir, store.pulledDir]) {
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
      } catch (error) {
        throw ioError(error, `cannot create ${dir}`, { path: dir });
      }
    }
    store.#openReport = await store.#migrate(options);
    return store;
  }

  /** What the last open migrated and which files it could not read. */
  get openReport(): FileSystemOpenReport {
    return this.#openReport;
  }

  async #migrate(options: FileSystemPullRecordStoreOptions): Promise<FileSystemOpenReport> {
    const migrated: string[] = [];
    const errors: PullRecordError[] = [];
    const note = (error: PullRecordError) => {
      errors.push(error);
      options.onError?.(error, { operation: "migrate" });
    };
    // Rewrites run a few at a time (distinct files); the gauges are set once at the end.
    const inFlight = new Set<Promise<void>>();
    // An unexpected failure of one rewrite is kept and thrown once every
    // rewrite has ended: a rewrite that settled before anybody awaited it
    // must neither vanish nor surface as an unhandled rejection.
    let unexpected: { error: unknown } | undefined;
    const rewrite = async (path: string, key: string, dir: string, content: string) => {
      const p = this.#write(dir, key, content).then(
        () => {
          migrated.push(path);
        },
        (error: unknown) => {
          if (isPullRecordError(error)) note(error);
          else unexpected ??= { error };
        },
      );
      inFlight.add(p);
      p.then(() => inFlight.delete(p));
      if (inFlight.size >= migrationConcurrency) await Promise.race(inFlight);
    };
    await this.#walk(
      this.pullingDir,
      async (path, content) => {
        const decoded = decodeIntentFile(content);
        if (decoded.isCurrentVersion) return;
        await rewrite(
          path,
          decoded.object.image,
          this.pullingDir,
          encodeIntentFile(decoded.object),
        );
      },
      note,
    );
    await this.#walk(
      this.pulledDir,
      async (path, content) => {
        const decoded = decodePulledRecordFile(content);
        if (decoded.isCurrentVersion) return;
        await rewrite(
          path,
          decoded.object.imageRef,
          this.pulledDir,
          encodePulledRecordFile(decoded.object),
        );
      },
      note,
    );
    await Promise.all(inFlight);
    if (unexpected) throw unexpected.error;
    if (migrated.length > 0) {
      await this.#updateGauge("intent");
      await this.#updateGauge("pulled");
    }
    return { migrated: migrated.sort(strings.Compare), errors };
  }

  /**
   * Reads every record file at the top level of `dir` (sub-directories,
   * foreign names and `.tmp` files skipped), in name order, handing each to
   * `action`; failures are collected, never fatal. Each file is read after
   * any write to it queued earlier (e.g. by `action` for an earlier file) has
   * landed, so a migration rewrite that overwrites a not-yet-read, misnamed
   * file is seen exactly as the kubelet's one-file-at-a-time walk sees it.
   */
  async #walk(
    dir: string,
    action: (path: string, content: Uint8Array) => Promise<void> | void,
    onError: (error: PullRecordError) => void,
  ): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isNotFound(error)) return;
      onError(ioError(error, `cannot list ${dir}`, { path: dir }));
      return;
    }
    const names = entries
      .filter((e) => !e.isDirectory() && isRecordFileName(e.name))
      .map((e) => e.name)
      .sort(strings.Compare); // Go's order: UTF-8 bytes, not UTF-16 code units
    // Small files read synchronously are several times faster than through the
    // thread pool; yield between batches so a large directory does not stall the loop.
    for (let start = 0; start < names.length; start += readBatch) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const name of names.slice(start, start + readBatch)) {
        const path = join(dir, name);
        // A migration rewrite still landing on this file came earlier in name
        // order: read what it leaves, as a sequential walk would.
        const pending = this.#fileLocks.get(path);
        if (pending !== undefined) await pending;
        let content: Uint8Array;
        try {
          content = readFileSync(path);
        } catch (error) {
          if (!isNotFound(error)) onError(ioError(error, `failed to read ${path}`, { path }));
          continue;
        }
        try {
          await action(path, content);
        } catch (error) {
          if (!isPullRecordError(error)) throw error;
          onError(
            new PullRecordError(error.code, `${path}: ${error.message}`, { path, cause: error }),
          );
        }
      }
    }
  }

  async #countFiles(dir: string): Promise<number | undefined> {
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      return entries.filter((e) => !e.isDirectory() && isRecordFileName(e.name)).length;
    } catch {
      return undefined;
    }
  }

  async #updateGauge(kind: "intent" | "pulled"): Promise<void> {
    if (!this.#metrics) return;
    const count = await this.#countFiles(kind === "intent" ? this.pullingDir : this.pulledDir);
    if (count === undefined) return;
    this.#metrics.setGauge(
      kind === "intent"
        ? pullManagerMetrics.onDiskPullIntents.name
        : pullManagerMetrics.onDiskPulledRecords.name,
      count,
    );
  }

  /** Serialises operations on one file within this process (the temp name is per file). */
  #exclusive<T>(path: string, run: () => Promise<T>): Promise<T> {
    const previous = this.#fileLocks.get(path) ?? Promise.resolve();
    const next = previous.then(run, run);
    const tail = next.catch(() => undefined);
    this.#fileLocks.set(path, tail);
    void tail.then(() => {
      if (this.#fileLocks.get(path) === tail) this.#fileLocks.delete(path);
    });
    return next;
  }

  #refuseWhenReadOnly(key: string): void {
    if (this.#readOnly) {
      throw new PullRecordError("STORE_IO_ERROR", "the store was opened read-only", { key });
    }
  }

  #write(dir: string, key: string, content: string): Promise<void> {
    this.#refuseWhenReadOnly(key);
    const target = join(dir, storageFileName(key));
    return this.#exclusive(target, async () => {
      const tmp = target + tmpSuffix;
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await writeFile(tmp, content, { mode: 0o600 });
      } catch (error) {
        await rm(tmp, { force: true }).catch(() => undefined);
        throw ioError(error, `failed to create temporary file ${tmp}`, { key, path: tmp });
      }
      try {
        await rename(tmp, target);
      } catch (error) {
        await rm(tmp, { force: true }).catch(() => undefined);
        throw ioError(error, `failed to rename ${tmp}`, { key, path: target });
      }
    });
  }

  #delete(dir: string, key: string): Promise<void> {
    this.#refuseWhenReadOnly(key);
    const target = join(dir, storageFileName(key));
    return this.#exclusive(target, async () => {
      try {
        await rm(target);
      } catch (error) {
        if (isNotFound(error)) return;
        throw ioError(error, `failed to remove ${target}`, { key, path: target });
      }
    });
  }

  async #read(
    dir: string,
    key: string,
  ): Promise<{ path: string; content: Uint8Array } | undefined> {
    const path = join(dir, storageFileName(key));
    try {
      return { path, content: await readFile(path) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw ioError(error, `failed to read ${path}`, { key, path });
    }
  }

  async writeIntent(image: string): Promise<void> {
    await this.#write(this.pullingDir, image, encodeIntentFile({ image }));
    await this.#updateGauge("intent");
  }

  async intentExists(image: string): Promise<boolean> {
    const file = await this.#read(this.pullingDir, image);
    if (file === undefined) return false;
    try {
      return decodeIntentFile(file.content).object.image === image;
    } catch (error) {
      throw withLocation(error, image, file.path);
    }
  }

  async deleteIntent(image: string): Promise<void> {
    await this.#delete(this.pullingDir, image);
    await this.#updateGauge("intent");
  }

  async listIntents(): Promise<ListResult<ImagePullIntent>> {
    const items: ImagePullIntent[] = [];
    const errors: PullRecordError[] = [];
    await this.#walk(
      this.pullingDir,
      (_path, content) => {
        items.push(decodeIntentFile(content).object);
      },
      (e) => errors.push(e),
    );
    return { items, errors };
  }

  async getPulledRecord(imageRef: string): Promise<ImagePulledRecord | undefined> {
    const file = await this.#read(this.pulledDir, imageRef);
    if (file === undefined) return undefined;
    let record: ImagePulledRecord;
    try {
      record = decodePulledRecordFile(file.content).object;
    } catch (error) {
      throw withLocation(error, imageRef, file.path);
    }
    // A file whose content names another imageRef (hash collision guard) counts as absent.
    return record.imageRef === imageRef ? record : undefined;
  }

  async writePulledRecord(record: ImagePulledRecord): Promise<void> {
    await this.#write(this.pulledDir, record.imageRef, encodePulledRecordFile(record));
    await this.#updateGauge("pulled");
  }

  async deletePulledRecord(imageRef: string): Promise<void> {
    await this.#delete(this.pulledDir, imageRef);
    await this.#updateGauge("pulled");
  }

  async listPulledRecords(): Promise<ListResult<ImagePulledRecord>> {
    const items: ImagePulledRecord[] = [];
    const errors: PullRecordError[] = [];
    await this.#walk(
      this.pulledDir,
      (_path, content) => {
        items.push(decodePulledRecordFile(content).object);
      },
      (e) => errors.push(e),
    );
    return { items, errors };
  }
}

function withLocation(error: unknown, key: string, path: string): unknown {
  if (!isPullRecordError(error)) return error;
  return new PullRecordError(error.code, `${path}: ${error.message}`, { key, path, cause: error });
}
