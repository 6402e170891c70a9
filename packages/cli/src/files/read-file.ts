import { open, readdir, stat } from "node:fs/promises";
import { extname, isAbsolute, join } from "node:path";
import { CliError } from "../errors/cli-error.js";
import { readFailure } from "../errors/system-error.js";
import type { CliIo } from "../io/io.js";

/** A file named on the command line and its text. */
export interface InputFile {
  /** The name as the user gave it (`-` for standard input), used in messages. */
  readonly name: string;
  readonly text: string;
}

/** The largest input file (or standard input) read: 64 MiB. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** The extensions `kubectl -f DIR` reads in a directory. */
const MANIFEST_EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

function pathOf(name: string, io: CliIo): string {
  return isAbsolute(name) ? name : join(io.cwd, name);
}

/**
 * Returns the error for a failed read of `name` (`what` prefixes it, e.g.
 * `--node-config`): one sentence naming the file and the cause, never the
 * system's own text (it quotes the absolute path and varies by platform).
 */
export function fileError(name: string, error: unknown, what = ""): CliError {
  const code = (error as { code?: unknown } | undefined)?.code;
  const label = what === "" ? name : `${what} ${name}`;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new CliError("FILE_NOT_FOUND", `${label}: no such file`, name, { cause: error });
  }
  const reason = readFailure(error);
  return new CliError("FILE_UNREADABLE", `${label}: ${reason}`, name, { cause: error });
}

/** The error for an input past {@link MAX_INPUT_BYTES}. */
function tooLarge(name: string, what: string, maxBytes: number): CliError {
  const label = what === "" ? name : `${what} ${name}`;
  return new CliError("FILE_UNREADABLE", `${label}: larger than ${maxBytes} bytes`, name);
}

/**
 * Returns the UTF-8 text of the file at `path`, read through one handle and
 * counted as it is read: whatever the file is (a regular file, a named pipe,
 * `<(command)`, a character device such as `/dev/zero`), reading stops once
 * it passes `maxBytes` and the answer is a `FILE_UNREADABLE` error naming
 * `name` and the cap. A regular file's size is checked before any read.
 */
export async function readBoundedFile(
  path: string,
  name: string,
  { maxBytes = MAX_INPUT_BYTES, what = "" }: { maxBytes?: number; what?: string } = {},
): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw fileError(name, error, what);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw fileError(name, { code: "EISDIR" }, what);
    if (info.isFile() && info.size > maxBytes) throw tooLarge(name, what, maxBytes);
    const chunks: Buffer[] = [];
    // One scratch buffer, its bytes copied out: a pipe answers a few KiB per
    // read, and keeping a slice of a fresh buffer each time would hold far
    // more memory than the bytes read.
    const scratch = Buffer.allocUnsafe(CHUNK_BYTES);
    let total = 0;
    for (;;) {
      // Never more than one byte past the cap: enough to know it was passed.
      const want = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
      const { bytesRead } = await handle.read(scratch, 0, want, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(name, what, maxBytes);
      chunks.push(Buffer.from(scratch.subarray(0, bytesRead)));
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw fileError(name, error, what);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** How much one read asks for. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Returns the UTF-8 text of the file `name` (relative to `io.cwd`), or of
 * standard input for `-`. A missing file is a `FILE_NOT_FOUND`
 * {@link CliError}, a directory, an unreadable file or one larger than
 * {@link MAX_INPUT_BYTES} `FILE_UNREADABLE`, each naming the file. Named
 * pipes and devices are read through the same bound
 * ({@link readBoundedFile}).
 */
export async function readInputFile(name: string, io: CliIo): Promise<InputFile> {
  if (name === "-") {
    if (io.readStdin === undefined) {
      throw new CliError("FILE_UNREADABLE", "-: standard input is not available here", name);
    }
    const text = await io.readStdin(MAX_INPUT_BYTES);
    if (text === undefined) {
      throw new CliError(
        "FILE_UNREADABLE",
        `-: standard input is larger than ${MAX_INPUT_BYTES} bytes`,
        name,
      );
    }
    return { name: "<stdin>", text };
  }
  return { name, text: await readBoundedFile(pathOf(name, io), name) };
}

/**
 * Returns the files `-f` names, read as `kubectl -f` reads them: `-` is
 * standard input (once), a directory gives its `.yaml`, `.yml` and `.json`
 * files in name order (not its subdirectories), anything else is one file.
 * A directory without such a file is `MISSING_OBJECT`.
 */
export async function readInputFiles(names: readonly string[], io: CliIo): Promise<InputFile[]> {
  if (names.filter((n) => n === "-").length > 1) {
    throw new CliError("USAGE", "-f - (standard input) can be given only once", "-");
  }
  const files: InputFile[] = [];
  for (const name of names) {
    if (name === "-") {
      files.push(await readInputFile(name, io));
      continue;
    }
    let isDirectory = false;
    try {
      isDirectory = (await stat(pathOf(name, io))).isDirectory();
    } catch (error) {
      throw fileError(name, error);
    }
    if (!isDirectory) {
      files.push(await readInputFile(name, io));
      continue;
    }
    const entries = (await readdir(pathOf(name, io), { withFileTypes: true }))
      .filter((e) => e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name).toLowerCase()))
      .map((e) => e.name)
      .sort();
    if (entries.length === 0) {
      throw new CliError(
        "MISSING_OBJECT",
        `${name}: a directory with no .yaml, .yml or .json file`,
        name,
      );
    }
    for (const entry of entries) files.push(await readInputFile(join(name, entry), io));
  }
  return files;
}
