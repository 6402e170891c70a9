/**
 * An in-memory {@link CliIo} for in-process tests and the demo.
 */
import type { CliIo } from "./io.js";

/** A {@link CliIo} that collects what is written. */
export interface MemoryIo {
  readonly io: CliIo;
  out(): string;
  err(): string;
}

/** Returns an in-memory {@link CliIo}; `fetch` refuses unless given. */
export function memoryIo(options: {
  tty: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
  fetch?: typeof globalThis.fetch;
  /** Standard input's text, for `-f -`. */
  stdin?: string;
}): MemoryIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: { write: (t) => stdout.push(t), isTTY: options.tty },
    stderr: { write: (t) => stderr.push(t), isTTY: options.tty },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    fetch: options.fetch ?? (() => Promise.reject(new Error("no network in this test"))),
    ...(options.stdin === undefined
      ? {}
      : {
          readStdin: async (maxBytes: number) =>
            Buffer.byteLength(options.stdin as string) > maxBytes ? undefined : options.stdin,
        }),
  };
  return { io, out: () => stdout.join(""), err: () => stderr.join("") };
}
