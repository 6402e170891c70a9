/**
 * `@kubeimg/example-kit`: the command line every example shares (one copy,
 * not one per example): `--help` prints the usage, a bad option
 * is one line on stderr and exit code 2 (never a stack trace), and relative
 * paths are read from the directory the command was started in.
 */
import { isAbsolute, resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";

/**
 * Returns the parsed arguments of this process (a leading `--`, which
 * `pnpm start -- …` passes through, dropped). `--help`/`-h` prints `usage`
 * and exits 0; an unknown option or a missing value prints one line and
 * exits 2.
 */
export function exampleArgs<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  const argv = process.argv.slice(2);
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs<T>({ ...config, args, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) throw error;
    const message = (error as Error).message.split(/\. To specify a positional/)[0];
    console.error(`${message} (see --help)`);
    process.exit(2);
  }
}

/**
 * Returns `path` resolved from the directory the command was started in:
 * `pnpm --filter … start` runs the script in the example's own folder, and
 * sets `INIT_CWD` to where the user typed the command.
 */
export function userPath(path: string): string {
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** Prints `message` as one line on stderr and exits with code 2. */
export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
