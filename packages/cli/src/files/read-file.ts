import { readdir, readFile, stat } from "node:fs/promises";
import { extname, isAbsolute, join } from "node:path";
import { CliError } from "../errors/cli-error.js";
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

function fileError(name: string, error: unknown): CliError {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new CliError("FILE_NOT_FOUND", `${name}: no such file`, name, { cause: error });
  }
  const reason = code === "EISDIR" ? "is a directory" : `cannot be read (${String(code)})`;
  return new CliError("FILE_UNREADABLE", `${name}: ${reason}`, name, { cause: error });
}

/**
 * Returns the UTF-8 text of the file `name` (relative to `io.cwd`), or of
 * standard input for `-`. A missing file is a `FILE_NOT_FOUND`
 * {@link CliError}, a directory, an unreadable file or one larger than
 * {@link MAX_INPUT_BYTES} `FILE_UNREADABLE`, each naming the file.
 *
 * @example
 * ```ts
 * const { text } = await readInputFile("policy.yaml", io);
 * ```
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
  const path = pathOf(name, io);
  try {
    const info = await stat(path);
    if (info.isFile() && info.size > MAX_INPUT_BYTES) {
      throw new CliError("FILE_UNREADABLE", `${name}: larger than ${MAX_INPUT_BYTES} bytes`, name);
    }
    return { name, text: await readFile(path, "utf8") };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw fileError(name, error);
  }
}

/**
 * Returns the files `-f` names, read as `kubectl -f` reads them: `-` is
 * standard input (once), a directory gives its `.yaml`, `.yml` and `.json`
 * files in name order (not its subdirectories), anything else is one file.
 * A directory without such a file is `MISSING_OBJECT`.
 *
 * @example
 * ```ts
 * await readInputFiles(["manifests/", "-"], io); // manifests/a.yaml, manifests/b.yml, <stdin>
 * ```
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
