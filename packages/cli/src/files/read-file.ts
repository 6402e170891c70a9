import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { CliError } from "../errors/cli-error.js";
import type { CliIo } from "../io/io.js";

/** A file named on the command line and its text. */
export interface InputFile {
  /** The name as the user gave it, used in messages. */
  readonly name: string;
  readonly text: string;
}

/**
 * Returns the UTF-8 text of the file `name` (relative to `io.cwd`). A missing
 * file is a `FILE_NOT_FOUND` {@link CliError}, a directory or an unreadable
 * file `FILE_UNREADABLE`, each naming the file.
 *
 * @example
 * ```ts
 * const { text } = await readInputFile("policy.yaml", io);
 * ```
 */
export async function readInputFile(name: string, io: CliIo): Promise<InputFile> {
  const path = isAbsolute(name) ? name : join(io.cwd, name);
  try {
    return { name, text: await readFile(path, "utf8") };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new CliError("FILE_NOT_FOUND", `${name}: no such file`, name, { cause: error });
    }
    const reason = code === "EISDIR" ? "is a directory" : `cannot be read (${String(code)})`;
    throw new CliError("FILE_UNREADABLE", `${name}: ${reason}`, name, { cause: error });
  }
}
