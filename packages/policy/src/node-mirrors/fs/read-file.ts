/** What the node-mirrors filesystem readers share: the read budget, and reading one file or directory as the runtimes do. */
import { constants } from "node:fs";
import { open, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import { strings as goStrings } from "@kubeimg/core/internal";
import { NodeMirrorsError } from "../errors.js";
import type { NodePathProblem } from "../node-files.js";

/** Default cap on one config file: no sane hosts.toml or registries.conf comes near it. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/**
 * Default cap on the directory entries one read looks at: a node with a
 * hundred registries of five files each uses 600; twenty times that holds
 * any real node and keeps a hostile tree from costing more than a moment.
 */
export const DEFAULT_MAX_FILES = 10_000;
/**
 * Default cap on the bytes one read holds in total: sixteen files at the
 * per-file cap, where real configs are a few kilobytes each.
 */
export const DEFAULT_MAX_TOTAL_BYTES = 16 * 1024 * 1024;

/** The caps of one read. */
export interface ReadBudgetOptions {
  /** Per-file size cap in bytes. Default 1 MiB. */
  readonly maxFileBytes?: number;
  /** Directory entries looked at in one read, files and directories together. Default 10,000. */
  readonly maxFiles?: number;
  /** Bytes read in one read, all files together. Default 16 MiB. */
  readonly maxTotalBytes?: number;
}

export function hostPath(root: string, nodePath: string): string {
  return root === "/" ? nodePath : join(root, nodePath);
}

export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Go's text for the errors a read meets, so a message reads as containerd's would. */
export const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ELOOP: "too many levels of symbolic links",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EIO: "input/output error",
  ENAMETOOLONG: "file name too long",
  EISDIR: "is a directory",
  ENXIO: "no such device or address",
};

export function readError(error: unknown): NodePathProblem {
  const code = (error as { code?: unknown } | null)?.code;
  const message =
    typeof code === "string"
      ? (ERRNO_TEXT[code] ?? code)
      : error instanceof Error
        ? error.message
        : String(error);
  return { code: "READ_ERROR", message };
}

/** What one read may still look at and hold; throws `LIMIT_EXCEEDED` naming the bound once spent. */
export class ReadBudget {
  private entries = 0;
  private bytes = 0;
  readonly maxFileBytes: number;
  private readonly maxFiles: number;
  private readonly maxTotalBytes: number;

  constructor(options: ReadBudgetOptions) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  }

  entry(nodePath: string): void {
    if (++this.entries > this.maxFiles) {
      throw new NodeMirrorsError(
        "LIMIT_EXCEEDED",
        `${nodePath}: more than ${this.maxFiles} files and directories to read (maxFiles); raise maxFiles to read them all`,
        { file: nodePath },
      );
    }
  }

  take(size: number, nodePath: string): void {
    this.bytes += size;
    if (this.bytes > this.maxTotalBytes) {
      throw new NodeMirrorsError(
        "LIMIT_EXCEEDED",
        `${nodePath}: more than ${this.maxTotalBytes} bytes to read in total (maxTotalBytes); raise maxTotalBytes to read them all`,
        { file: nodePath },
      );
    }
  }
}

export type ReadResult = { text: string } | { skipped: string } | { problem: NodePathProblem };

/** Reads one regular file, refusing anything else and anything over the caps. */
export async function readRegular(
  path: string,
  nodePath: string,
  budget: ReadBudget,
): Promise<ReadResult | undefined> {
  const maxBytes = budget.maxFileBytes;
  const overCap = (size: string): ReadResult => ({
    problem: {
      code: "LIMIT_EXCEEDED",
      message: `${size}, over the ${maxBytes}-byte cap on one file (maxFileBytes); raise maxFileBytes to read it`,
    },
  });
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    return { problem: readError(error) };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      return { skipped: `${nodePath} is not a regular file; kubeimg does not read it` };
    if (info.size > maxBytes) return overCap(`${info.size} bytes`);
    budget.take(info.size, nodePath);
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return overCap("grown while read");
      if (length === buffer.length) break;
    }
    if (length > info.size) budget.take(length - info.size, nodePath);
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, length)) };
    } catch {
      return { problem: { code: "TOML_ERROR", message: "invalid UTF-8" } };
    }
  } catch (error) {
    if (error instanceof NodeMirrorsError) throw error;
    return { problem: readError(error) };
  } finally {
    await handle.close();
  }
}

export type Kind = "file" | "dir" | "other" | undefined | { problem: NodePathProblem };

/** The kind of a path (following symlinks, as the runtimes' `os.Stat` does), or undefined when missing. */
export async function kindOf(path: string): Promise<Kind> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
  } catch (error) {
    if (isMissing(error)) return undefined;
    return { problem: readError(error) };
  }
}

/** The names in a directory (none when it is missing), in byte order, each counted against the budget as it is seen. */
export async function listDir(
  path: string,
  nodePath: string,
  budget: ReadBudget,
): Promise<string[] | { problem: NodePathProblem }> {
  const names: string[] = [];
  try {
    const dir = await opendir(path);
    for await (const entry of dir) {
      budget.entry(`${nodePath.replace(/\/+$/, "")}/${entry.name}`);
      names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof NodeMirrorsError) throw error;
    if (isMissing(error)) return [];
    return { problem: readError(error) };
  }
  return names.sort(goStrings.Compare);
}
