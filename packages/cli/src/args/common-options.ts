import type { OptionSpec } from "../commands/command.js";
import { OUTPUT_FORMATS } from "../output/format.js";

/** The options every command takes. */
export const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = Object.freeze({
  output: {
    type: "string",
    short: "o",
    value: "FORMAT",
    help: `${OUTPUT_FORMATS.join(" | ")} (default: table on a terminal, json otherwise)`,
  },
  "no-color": { type: "boolean", help: "plain text even on a terminal (so does NO_COLOR=1)" },
  help: { type: "boolean", short: "h", help: "show this help" },
});
