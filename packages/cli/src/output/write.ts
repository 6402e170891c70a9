import { Document, visit } from "yaml";
import type { CliIo } from "../io/io.js";
import type { Colors } from "./color.js";
import type { OutputFormat } from "./format.js";

// What JSON.stringify and the YAML writer leave raw although a terminal may
// act on it: DEL and the C1 controls (0x9b is a one-byte CSI), the Unicode
// line separators, and the bidirectional overrides and isolates. Both formats
// can carry them as `\uXXXX` escapes inside double-quoted strings, so the
// data round-trips unchanged and the terminal sees inert text.
const RAW_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeUnsafe(text: string): string {
  return text.replace(RAW_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function yamlText(data: unknown): string {
  const document = new Document(data);
  // Every string holding such a character becomes double-quoted, where the
  // escape below is valid YAML; C0 controls the writer escapes itself.
  visit(document, {
    Scalar(_key, node) {
      if (
        typeof node.value === "string" &&
        /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(node.value)
      ) {
        node.type = "QUOTE_DOUBLE";
      }
    },
  });
  return escapeUnsafe(document.toString({ lineWidth: 0 }));
}

/**
 * Writes a command's result to stdout: `data` as JSON (two-space indent) or
 * YAML, or the text `table(colors)` returns for the table format. Neither
 * machine format lets a control character through raw.
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
      io.stdout.write(`${escapeUnsafe(JSON.stringify(data, null, 2))}\n`);
      return;
    case "yaml":
      io.stdout.write(yamlText(data));
      return;
    case "table":
      io.stdout.write(table(colors));
      return;
  }
}
