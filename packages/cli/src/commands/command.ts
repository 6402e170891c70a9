import { CliError } from "../errors/cli-error.js";
import type { ExitCode } from "../errors/exit-codes.js";
import type { CliIo } from "../io/io.js";
import type { Colors } from "../output/color.js";
import type { OutputFormat } from "../output/format.js";

/** One option of a command, as `node:util` `parseArgs` takes it plus its help text. */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's placeholder in help, e.g. `FILE`. */
  readonly value?: string;
  readonly help: string;
}

/** What a command's `run` receives: parsed arguments and where to write. */
export interface CommandContext {
  readonly io: CliIo;
  readonly values: Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;
  readonly positionals: readonly string[];
  readonly format: OutputFormat;
  readonly colors: Colors;
  /** Writes one line to stderr prefixed with the command name (progress, warnings). */
  readonly note: (line: string) => void;
  /** Set when `-o` named one of the command's {@link Command.extraOutputFormats}. */
  readonly extraFormat?: ExtraOutputFormat;
}

/** Output formats only some commands write (`kubeimg test -o junit`). */
export type ExtraOutputFormat = "junit";

/** A `kubeimg` sub-command: its help, its options and what it does. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis, e.g. `kubeimg parse REF...`. */
  readonly usage: string;
  /** A paragraph or two for `--help`. */
  readonly description: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Whether the command takes positional arguments. */
  readonly positionals: boolean;
  /** Example command lines with a comment each, shown by `--help`. */
  readonly examples: readonly (readonly [comment: string, commandLine: string])[];
  /** Formats `-o` accepts for this command besides table, json and yaml. */
  readonly extraOutputFormats?: readonly ExtraOutputFormat[];
  run(context: CommandContext): Promise<ExitCode>;
}

/**
 * Returns the string value of option `name`, or `undefined`.
 */
export function stringOption(values: CommandContext["values"], name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * Returns every value of the repeatable string option `name` (empty when absent).
 */
export function stringOptions(values: CommandContext["values"], name: string): string[] {
  const v = values[name];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return typeof v === "string" ? [v] : [];
}

/**
 * Returns every `-f/--file` value; throws a `USAGE` {@link CliError} naming
 * `--file` when there is none.
 */
export function requireFileOptions(
  values: CommandContext["values"],
  commandName: string,
): string[] {
  const files = stringOptions(values, "file");
  if (files.length === 0) {
    throw new CliError(
      "USAGE",
      `-f/--file is required (see 'kubeimg ${commandName} --help')`,
      "--file",
    );
  }
  return files;
}
