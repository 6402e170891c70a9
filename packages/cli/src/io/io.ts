/** A stream `kubeimg` writes text to.
 *
 * @inline
 */
export interface TextSink {
  write(text: string): void;
  /** True when a person is reading (a terminal): tables and colour then. */
  readonly isTTY?: boolean;
}

/**
 * Everything `kubeimg` takes from the world, so that the same code runs as
 * the installed program, in-process in a demo, and under test.
 */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Environment variables (`NO_COLOR`, `DOCKER_CONFIG`, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative file names are read from. */
  readonly cwd: string;
  /** The `fetch` used to reach registries. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Reads standard input to its end (`-f -`); resolves `undefined` when it
   * holds more than `maxBytes`. Absent where there is no standard input.
   */
  readonly readStdin?: (maxBytes: number) => Promise<string | undefined>;
  /** Aborted when the user interrupts the program. */
  readonly signal?: AbortSignal;
}
