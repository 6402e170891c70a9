/**
 * The kubelet's on-disk record store (`fsPullRecordsAccessor`, v1.35),
 * byte-compatible with it: a kubelet and this store can share one
 * `<root-dir>/image_manager/`.
 *
 * The directory is trusted for its content format, not for what kind of
 * files it holds: a FIFO, a device, a socket, a symlink or a huge file under
 * a record's name must not hang or exhaust the process. Only regular files
 * are read (`lstat`, then an `O_NONBLOCK | O_NOFOLLOW` open whose `fstat`
 * must name the same regular file, so a swap between the check and the open
 * is caught), at most {@link maxRecordFileBytes} of them. Anything else is an
 * unreadable record: `getPulledRecord` / `intentExists` reject with
 * `STORE_IO_ERROR` and the manager answers "must pull", as the kubelet does
 * for a record it cannot decode; listings report it among their errors.
 *
 * The kubelet reads with `os.ReadFile`, which follows symlinks; it never
 * creates one. This store does not follow them: a symlink under a record's
 * name is unreadable, which can only turn a "no pull needed" into a pull,
 * never the reverse, and keeps a link to `/dev/zero` or out of the directory
 * from being read at all.
 *
 * Writes go to a temporary file of a unique name in the same directory
 * (`<name>.<pid>-<random>.tmp`: the kubelet skips names ending in `.tmp`),
 * which is fsynced, renamed over `<name>`, and the directory fsynced, so a
 * crash or a power loss leaves the old file or the new one, never a torn or
 * empty one. Two writers of one record (two processes, or this store beside
 * a kubelet) each land a whole record: the last rename wins. A record is
 * written by reading, merging and writing it back, so the loser's merge is
 * lost; a lost credential entry only makes a later check pull again.
 * Temporaries left by a crashed writer are removed when a writable store
 * opens (see {@link staleTemporaryMs}). The kubelet writes through the one
 * name `<name>.tmp`, so its write of `<name>` consumes what an interrupted
 * write left there; ours does the same (when that temporary has not changed
 * during our write), so no `<name>.tmp` remains once either has written
 * `<name>`.
 *
 * Durability costs an fsync of the file and one of the directory per write:
 * `pnpm bench pull-credentials` measured about 3x fewer record writes per
 * second than without them (533/s against 1,754/s on a loaded 2-core
 * machine; the package README has the table). `durable: false` skips both,
 * for tests and scratch directories on tmpfs only.
 *
 * The file level (safe reads, temporaries, directory fsync) is
 * `record-files.ts`; this file is the store built on it.
 */

import { randomBytes } from "node:crypto";
import type { Dirent } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, rename, rm, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { strings } from "@kubeimg/core/internal";
import {
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
} from "../codec.js";
import { isPullRecordError } from "../errors.js";
import { storageFileName } from "../hashing.js";
import {
  type ImagePulledRecord,
  type ImagePullIntent,
  type ListResult,
  type MetricsRecorder,
  PullRecordError,
  type PullRecordStore,
  pullManagerMetrics,
} from "../index.js";
import {
  consumeKubeletTemporary,
  createFlags,
  ioError,
  isNotFound,
  isRecordFileName,
  maxRecordFileBytes,
  migrationConcurrency,
  observeKubeletTemporary,
  ourTemporary,
  processExists,
  readBatch,
  readRecordFile,
  staleTemporaryMs,
  syncDirectory,
  tmpSuffix,
} from "./record-files.js";

export { maxRecordFileBytes, staleTemporaryMs } from "./record-files.js";

/**
 * Options of {@link FileSystemPullRecordStore.open}.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import {
 *   FileSystemPullRecordStore,
 *   type FileSystemPullRecordStoreOptions,
 * } from "@kubeimg/policy/pull-credentials/fs";
 *
 * const root = mkdtempSync(join(tmpdir(), "kubelet-")); // a live node: /var/lib/kubelet
 * await (await FileSystemPullRecordStore.open(root)).writeIntent("nginx:1.25");
 * const options: FileSystemPullRecordStoreOptions = { readOnly: true };
 * const reader = await FileSystemPullRecordStore.open(root, options);
 * console.log(await reader.intentExists("nginx:1.25")); // true
 * await reader.writeIntent("redis:7"); // throws STORE_IO_ERROR: the store is read-only
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
  /**
   * fsync each written file before its rename and the directory after it
   * (default `true`). `false` is for tests and tmpfs: a power loss may then
   * lose recent writes or leave an empty record file.
   */
  readonly durable?: boolean;
}

/**
 * What happened while opening: files rewritten in the current version, and files that could not be read.
 *
 * @example
 * ```ts
 * import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { FileSystemPullRecordStore, storageFileName } from "@kubeimg/policy/pull-credentials/fs";
 *
 * const root = mkdtempSync(join(tmpdir(), "kubelet-"));
 * const pulling = join(root, "image_manager", "pulling");
 * mkdirSync(pulling, { recursive: true });
 * // An intent as an older kubelet wrote it.
 * writeFileSync(
 *   join(pulling, storageFileName("nginx:1.25")),
 *   '{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1alpha1","image":"nginx:1.25"}',
 * );
 * const { migrated, errors } = (await FileSystemPullRecordStore.open(root)).openReport;
 * console.log(migrated.length, errors.length); // 1 0
 * ```
 *
 * @inline
 */
export interface FileSystemOpenReport {
  readonly migrated: readonly string[];
  /** Abandoned temporaries of earlier writers that were removed (see {@link staleTemporaryMs}). */
  readonly removedTemporaries: readonly string[];
  readonly errors: readonly PullRecordError[];
}

/**
 * A {@link PullRecordStore} over the kubelet's directories:
 * `<rootDir>/image_manager/pulling` (intents) and `…/pulled` (records), mode
 * 0700; files `sha256-<hex>` of mode 0600, written to a unique temporary,
 * fsynced and renamed over `<name>` (a crash or power loss leaves the old
 * file or the new one, never a torn one; two writers: the last rename wins);
 * only regular files of at most {@link maxRecordFileBytes} are read; strict
 * decoding of v1alpha1 and v1beta1; v1beta1 written byte-for-byte as v1.35
 * writes it. Opening removes abandoned temporaries and migrates every
 * readable older file to v1beta1 under the name computed from its content.
 *
 * @example
 * ```ts no-run
 * import { CachedPullRecordStore, createVerificationPolicy, PullManager } from "@kubeimg/policy/pull-credentials";
 * import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
 *
 * const policy = createVerificationPolicy();
 * const clock = { now: Date.now };
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
  readonly #durable: boolean;
  readonly #fileLocks = new Map<string, Promise<unknown>>();
  #openReport: FileSystemOpenReport = { migrated: [], removedTemporaries: [], errors: [] };

  private constructor(rootDir: string, options: FileSystemPullRecordStoreOptions) {
    this.pullingDir = join(rootDir, "image_manager", "pulling");
    this.pulledDir = join(rootDir, "image_manager", "pulled");
    this.#metrics = options.metrics;
    this.#readOnly = options.readOnly === true;
    this.#durable = options.durable !== false;
  }

  /**
   * Opens (creating the directories, mode 0700) the store under the kubelet
   * root directory `rootDir`, removes abandoned temporaries, then migrates
   * older-version files.
   */
  static async open(
    rootDir: string,
    options: FileSystemPullRecordStoreOptions = {},
  ): Promise<FileSystemPullRecordStore> {
    if (typeof rootDir !== "string" || rootDir === "") {
      throw new PullRecordError("INVALID_ARGUMENT", "rootDir must be a non-empty path");
    }
    if (options.durable !== undefined && typeof options.durable !== "boolean") {
      throw new PullRecordError("INVALID_ARGUMENT", "options.durable must be a boolean");
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
    if (store.#durable) {
      // Directories this open created must survive a power loss too.
      const imageManager = dirname(store.pullingDir);
      try {
        await syncDirectory(imageManager);
        await syncDirectory(dirname(imageManager));
      } catch (error) {
        throw ioError(error, `cannot sync ${imageManager}`, { path: imageManager });
      }
    }
    const errors: PullRecordError[] = [];
    const note = (error: PullRecordError) => {
      errors.push(error);
      options.onError?.(error, { operation: "migrate" });
    };
    const removedTemporaries = await store.#removeStaleTemporaries(note);
    const migrated = await store.#migrate(note);
    store.#openReport = { migrated, removedTemporaries, errors };
    return store;
  }

  /** What the last open migrated and which files it could not read. */
  get openReport(): FileSystemOpenReport {
    return this.#openReport;
  }

  /** Removes temporaries of our naming pattern whose writer is gone (see {@link staleTemporaryMs}). */
  async #removeStaleTemporaries(note: (error: PullRecordError) => void): Promise<string[]> {
    const removed: string[] = [];
    const now = Date.now();
    for (const dir of [this.pullingDir, this.pulledDir]) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (!isNotFound(error)) note(ioError(error, `cannot list ${dir}`, { path: dir }));
        continue;
      }
      for (const name of names) {
        const match = ourTemporary.exec(name);
        if (match === null) continue;
        const path = join(dir, name);
        let age: number;
        try {
          const s = await lstat(path);
          if (!s.isFile()) continue; // not something we wrote
          age = now - s.mtimeMs;
        } catch {
          continue;
        }
        const pid = Number(match[1]);
        const stale =
          age > staleTemporaryMs.anyWriterMs ||
          (age > staleTemporaryMs.deadWriterMs && pid !== process.pid && !processExists(pid));
        if (!stale) continue;
        try {
          await unlink(path);
          removed.push(path);
        } catch (error) {
          if (!isNotFound(error)) note(ioError(error, `cannot remove ${path}`, { path }));
        }
      }
    }
    return removed.sort(strings.Compare);
  }

  async #migrate(note: (error: PullRecordError) => void): Promise<string[]> {
    const migrated: string[] = [];
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
    return migrated.sort(strings.Compare);
  }

  /**
   * Reads every record file at the top level of `dir` (sub-directories,
   * foreign names and `.tmp` files skipped, as the kubelet skips them), in
   * name order, handing each to `action`; failures (including a FIFO, a
   * symlink or an oversized file under a record's name) are collected, never
   * fatal. Each file is read after
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
    // Files are read synchronously (see readRecordFile); yield between batches
    // so a large directory does not stall the loop.
    for (let start = 0; start < names.length; start += readBatch) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const name of names.slice(start, start + readBatch)) {
        const path = join(dir, name);
        // A migration rewrite still landing on this file came earlier in name
        // order: read what it leaves, as a sequential walk would.
        const pending = this.#fileLocks.get(path);
        if (pending !== undefined) await pending;
        let content: Uint8Array | undefined;
        try {
          content = readRecordFile(path);
        } catch (error) {
          if (!isPullRecordError(error)) throw error;
          onError(error);
          continue;
        }
        if (content === undefined) continue;
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

  /**
   * Serialises operations on one file within this process, so calls land in
   * the order they were made (temporaries are unique; this is about order).
   */
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
      const kubeletTemporary = await observeKubeletTemporary(target);
      try {
        await this.#writeUnique(dir, key, target, content);
      } finally {
        await consumeKubeletTemporary(kubeletTemporary);
      }
      if (this.#durable) {
        try {
          await syncDirectory(dir);
        } catch (error) {
          throw ioError(error, `wrote ${target} but could not sync ${dir}`, { key, path: target });
        }
      }
    });
  }

  async #writeUnique(dir: string, key: string, target: string, content: string): Promise<void> {
    // Unique per write: two processes writing one record never share a
    // temporary, so each rename moves a whole file of its own into place.
    const tmp = `${target}.${process.pid}-${randomBytes(6).toString("hex")}${tmpSuffix}`;
    let handle: FileHandle;
    try {
      handle = await open(tmp, createFlags, 0o600).catch(async (error: unknown) => {
        if (!isNotFound(error)) throw error;
        // The directory went away: recreate it on write, as the kubelet does.
        await mkdir(dir, { recursive: true, mode: 0o700 });
        return open(tmp, createFlags, 0o600);
      });
    } catch (error) {
      throw ioError(error, `failed to create temporary file ${tmp}`, { key, path: tmp });
    }
    try {
      try {
        await handle.writeFile(content, "utf8");
        if (this.#durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw ioError(error, `failed to write ${target}`, { key, path: target });
    }
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
      if (this.#durable) {
        try {
          await syncDirectory(dir);
        } catch (error) {
          throw ioError(error, `removed ${target} but could not sync ${dir}`, {
            key,
            path: target,
          });
        }
      }
    });
  }

  async #read(
    dir: string,
    key: string,
  ): Promise<{ path: string; content: Uint8Array } | undefined> {
    const path = join(dir, storageFileName(key));
    const content = readRecordFile(path, key);
    return content === undefined ? undefined : { path, content };
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
    return (await this.getPulledRecordFile(imageRef))?.record;
  }

  /**
   * {@link getPulledRecord} with where the record came from: its file and the
   * API version it is written in (an older one until a writable store
   * migrates it). Read once, with the same checks.
   *
   * @example
   * ```ts
   * import { mkdtempSync } from "node:fs";
   * import { tmpdir } from "node:os";
   * import { join } from "node:path";
   * import { FileSystemPullRecordStore, storageFileName } from "@kubeimg/policy/pull-credentials/fs";
   *
   * const root = mkdtempSync(join(tmpdir(), "kubelet-"));
   * const store = await FileSystemPullRecordStore.open(root);
   * const imageRef = `sha256:${"1".repeat(64)}`;
   * await store.writePulledRecord({
   *   lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
   *   imageRef,
   *   credentialMapping: new Map(),
   * });
   * const found = await store.getPulledRecordFile(imageRef);
   * if (found) {
   *   console.log(found.apiVersion); // kubelet.config.k8s.io/v1beta1
   *   console.log(found.path === join(root, "image_manager", "pulled", storageFileName(imageRef))); // true
   * }
   * ```
   */
  async getPulledRecordFile(
    imageRef: string,
  ): Promise<
    | { readonly path: string; readonly apiVersion: string; readonly record: ImagePulledRecord }
    | undefined
  > {
    const file = await this.#read(this.pulledDir, imageRef);
    if (file === undefined) return undefined;
    let decoded: ReturnType<typeof decodePulledRecordFile>;
    try {
      decoded = decodePulledRecordFile(file.content);
    } catch (error) {
      throw withLocation(error, imageRef, file.path);
    }
    // A file whose content names another imageRef (hash collision guard) counts as absent.
    if (decoded.object.imageRef !== imageRef) return undefined;
    return { path: file.path, apiVersion: decoded.apiVersion, record: decoded.object };
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
