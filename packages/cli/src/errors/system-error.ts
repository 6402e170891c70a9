/**
 * Node's system errors (`EACCES`, `EIO`, …) as the sentences users read:
 * their own text quotes absolute paths, varies by platform and reads
 * `EACCES: permission denied, open '…'`.
 */

/** Why a file could not be read, by system error code, as the user reads it. */
export const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "no such file or directory",
  EISDIR: "is a directory",
  EACCES: "cannot be read: permission denied",
  EPERM: "cannot be read: operation not permitted",
  EIO: "cannot be read: input/output error",
  ELOOP: "cannot be read: too many levels of symbolic links",
  ENAMETOOLONG: "cannot be read: the file name is too long",
  EMFILE: "cannot be read: too many open files",
  ENFILE: "cannot be read: too many open files in the system",
  ENXIO: "cannot be read: no such device or address (a socket?)",
  ENODEV: "cannot be read: no such device",
  EAGAIN: "cannot be read: the resource is temporarily unavailable",
  EBUSY: "cannot be read: the device or resource is busy",
  ENOMEM: "cannot be read: out of memory",
  ERR_INVALID_ARG_VALUE: "is not a valid file name",
  ERR_INVALID_ARG_TYPE: "is not a valid file name",
};

/** The system calls that read: their failures read "cannot be read". */
const READ_SYSCALLS: ReadonlySet<string> = new Set([
  "open",
  "read",
  "stat",
  "lstat",
  "fstat",
  "scandir",
  "opendir",
  "readlink",
  "realpath",
  "access",
]);

/** A Node system error code: an identifier, never text from a file or a path. */
const SYSTEM_CODE = /^E[A-Z0-9]{1,30}$|^ERR_[A-Z0-9_]{1,60}$/;

/**
 * Returns why reading failed, as the end of a sentence that starts with the
 * file's name: `cannot be read: permission denied`, `is a directory`, or
 * `cannot be read (system error EXDEV)` for a code without a sentence, or
 * the error's class when it has no code.
 */
export function readFailure(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") {
    const known = READ_FAILURES[code];
    if (known !== undefined) return known;
    if (SYSTEM_CODE.test(code)) return `cannot be read (system error ${code})`;
  }
  return `cannot be read (${error instanceof Error ? error.name : "unknown failure"})`;
}

/**
 * Returns a sentence for a Node system error that escaped to the top of a
 * command (a store or reader that rethrew it): the path it names and the
 * cause, with the code; `undefined` for any other error.
 */
export function systemErrorSentence(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, path } = error as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== "string" || typeof syscall !== "string" || !SYSTEM_CODE.test(code)) {
    return undefined;
  }
  const reason = readFailure(error);
  if (READ_SYSCALLS.has(syscall)) {
    if (code === "ENOENT" || code === "ENOTDIR") {
      return `${typeof path === "string" ? path : "a file"}: ${reason} [${code}]`;
    }
    return typeof path === "string" ? `${path}: ${reason} [${code}]` : `a file ${reason} [${code}]`;
  }
  // Not a read: say which operation failed, with the same cause.
  const cause = reason.startsWith("cannot be read: ")
    ? `: ${reason.slice("cannot be read: ".length)}`
    : reason.startsWith("cannot be read ")
      ? ` ${reason.slice("cannot be read ".length)}`
      : `: ${reason}`;
  return `${typeof path === "string" ? `${path}: ` : ""}${syscall} failed${cause} [${code}]`;
}
