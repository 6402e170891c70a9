import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
} from "node:fs";
import { type FileHandle, lstat, open, rmdir, unlink } from "node:fs/promises";
import { isPullRecordError } from "../errors.js";
import { PullRecordError } from "../index.js";

/** File names start with this; anything else in the directories is ignored. */
const filePrefix = "sha256-";
/** The kubelet skips names ending in this; so do we, and our temporaries end in it. */
export const tmpSuffix = ".tmp";
/** Our temporaries: `sha256-<hex>.<pid>-<12 hex>.tmp`. */
export const ourTemporary = /^sha256-[0-9a-f]{64}\.([1-9][0-9]{0,9})-[0-9a-f]{12}\.tmp$/;
/** How many files a listing reads before yielding to the event loop. */
export const readBatch = 256;
/** How many migration rewrites run at once. */
export const migrationConcurrency = 32;

/**
 * The largest record or intent file read (16 MiB, about 100,000 credential
 * entries); a larger file is unreadable ("must pull"), not loaded.
 */
export const maxRecordFileBytes = 16 * 1024 * 1024;

/**
 * When a temporary of ours counts as abandoned at open: its writer's pid is
 * gone from this pid namespace and it is older than `deadWriterMs`, or it is
 * older than `anyWriterMs` whatever its pid says (a pid may belong to another
 * namespace sharing the directory, or have been reused). Removing a live
 * writer's temporary only makes that write fail with `STORE_IO_ERROR`; it
 * never tears a record.
 */
export const staleTemporaryMs = { deadWriterMs: 10_000, anyWriterMs: 600_000 } as const;

const readFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
export const createFlags =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const dirFlags = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

/** True for a file name the kubelet treats as a record file. */
export function isRecordFileName(name: string): boolean {
  return name.startsWith(filePrefix) && !name.endsWith(tmpSuffix);
}

export function ioError(
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

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

export function isNotFound(error: unknown): boolean {
  return errorCode(error) === "ENOENT";
}

/** What a non-regular file is, for the error message. */
function describeKind(s: Stats): string {
  if (s.isSymbolicLink()) return "a symlink (not followed)";
  if (s.isFIFO()) return "a FIFO";
  if (s.isSocket()) return "a socket";
  if (s.isCharacterDevice()) return "a character device";
  if (s.isBlockDevice()) return "a block device";
  if (s.isDirectory()) return "a directory";
  return "not a regular file";
}

export function unreadable(path: string, reason: string, key: string | undefined): PullRecordError {
  return new PullRecordError("STORE_IO_ERROR", `cannot read ${path}: ${reason}`, {
    path,
    ...(key === undefined ? {} : { key }),
  });
}

function checkRegular(s: Stats, path: string, key: string | undefined): void {
  if (!s.isFile()) throw unreadable(path, `it is ${describeKind(s)}`, key);
  if (s.size > maxRecordFileBytes) {
    throw unreadable(
      path,
      `${s.size} bytes, more than the ${maxRecordFileBytes} a record may have`,
      key,
    );
  }
}

/**
 * Reads the record file at `path`: `undefined` when there is none; a
 * `STORE_IO_ERROR` when it is anything but a regular file of at most
 * {@link maxRecordFileBytes} bytes. Never blocks on a FIFO, never follows a
 * symlink, never reads more than the cap (a file may grow while it is read).
 * Synchronous: small files read this way are several times faster than
 * through the thread pool, and nothing here can wait on another process.
 */
export function readRecordFile(path: string, key?: string): Uint8Array | undefined {
  let seen: Stats;
  try {
    seen = lstatSync(path);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw ioError(error, `failed to read ${path}`, { path, ...(key === undefined ? {} : { key }) });
  }
  // Checked before opening: opening a device can have effects of its own.
  checkRegular(seen, path, key);
  let fd: number;
  try {
    fd = openSync(path, readFlags);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    if (errorCode(error) === "ELOOP") throw unreadable(path, "it became a symlink", key);
    throw ioError(error, `failed to read ${path}`, { path, ...(key === undefined ? {} : { key }) });
  }
  try {
    const opened = fstatSync(fd);
    if (opened.dev !== seen.dev || opened.ino !== seen.ino) {
      throw unreadable(path, "it was replaced while it was being opened", key);
    }
    checkRegular(opened, path, key);
    let buffer = Buffer.allocUnsafe(Math.min(opened.size, maxRecordFileBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxRecordFileBytes) {
          throw unreadable(path, `it grew past ${maxRecordFileBytes} bytes while being read`, key);
        }
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxRecordFileBytes + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (isPullRecordError(error)) throw error;
    throw ioError(error, `failed to read ${path}`, { path, ...(key === undefined ? {} : { key }) });
  } finally {
    closeSync(fd);
  }
}

/** Whether a process with this pid exists in our pid namespace (EPERM: it does, as another user). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== "ESRCH";
  }
}

/**
 * fsyncs a directory so a rename or unlink in it survives a power loss.
 * Filesystems that cannot sync a directory (EINVAL, ENOTSUP) are left as they are.
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, dirFlags);
    await handle.sync();
  } catch (error) {
    const code = errorCode(error);
    if (code !== "EINVAL" && code !== "ENOTSUP" && code !== "EISDIR") throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The kubelet's temporary of one record file as it was before a write of that file began. */
export interface KubeletTemporary {
  readonly path: string;
  readonly seen: Stats | undefined;
}

/** Notes whether the kubelet's temporary `<name>.tmp` of `target` exists, before writing `target`. */
export async function observeKubeletTemporary(target: string): Promise<KubeletTemporary> {
  const path = target + tmpSuffix;
  try {
    return { path, seen: await lstat(path) };
  } catch {
    return { path, seen: undefined };
  }
}

/**
 * Removes the kubelet's temporary `<name>.tmp` after a write of `<name>`, so
 * the directory ends as the kubelet's own write leaves it: the kubelet writes
 * `<name>.tmp` in place and renames it, consuming what an interrupted write
 * left, and removes it when the write fails. Only a temporary that was there
 * before the write began and is unchanged since (same inode, size, mtime and
 * ctime) is removed: one that appeared or changed meanwhile may be a live
 * kubelet's write, which its own rename will consume. A non-empty directory
 * stays, as it does for the kubelet. Removal is best effort: a leftover
 * `.tmp` is never read as a record, by the kubelet or by this store.
 */
export async function consumeKubeletTemporary(temporary: KubeletTemporary): Promise<void> {
  const { path, seen } = temporary;
  if (seen === undefined) return;
  let now: Stats;
  try {
    now = await lstat(path);
  } catch {
    return;
  }
  const unchanged =
    now.dev === seen.dev &&
    now.ino === seen.ino &&
    now.size === seen.size &&
    now.mtimeMs === seen.mtimeMs &&
    now.ctimeMs === seen.ctimeMs;
  if (!unchanged) return;
  await (now.isDirectory() ? rmdir(path) : unlink(path)).catch(() => undefined);
}
