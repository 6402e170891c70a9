import { CliError } from "../errors/cli-error.js";
import type { CliIo } from "../io/io.js";

/** The output formats of `--output`, in the order `--help` lists them. */
export const OUTPUT_FORMATS = ["table", "json", "yaml"] as const;

/** One of {@link OUTPUT_FORMATS}. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Returns the output format: the `--output` value when given, otherwise a
 * table when stdout is a terminal and JSON when it is a pipe or a file.
 * Throws a `USAGE` {@link CliError} for an unknown value.
 */
export function chooseOutputFormat(flag: string | undefined, io: CliIo): OutputFormat {
  if (flag === undefined) return io.stdout.isTTY === true ? "table" : "json";
  if ((OUTPUT_FORMATS as readonly string[]).includes(flag)) return flag as OutputFormat;
  throw new CliError(
    "USAGE",
    `--output must be one of ${OUTPUT_FORMATS.join(", ")}, not "${flag}"`,
    flag,
  );
}
