import { stringify } from "yaml";
import type { CliIo } from "../io/io.js";
import type { Colors } from "./color.js";
import type { OutputFormat } from "./format.js";

/**
 * Writes a command's result to stdout: `data` as JSON (two-space indent) or
 * YAML, or the text `table(colors)` returns for the table format.
 *
 * @example
 * ```ts
 * writeResult(io, "json", { tag: "1.25" }, () => "TAG\n1.25\n", colors);
 * ```
 */
export function writeResult(
  io: CliIo,
  format: OutputFormat,
  data: unknown,
  table: (colors: Colors) => string,
  colors: Colors,
): void {
  switch (format) {
    case "json":
      io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      return;
    case "yaml":
      io.stdout.write(stringify(data, { lineWidth: 0 }));
      return;
    case "table":
      io.stdout.write(table(colors));
      return;
  }
}
