import { parseArgs } from "node:util";
import type { Command } from "../commands/command.js";
import { CliError } from "../errors/cli-error.js";
import { COMMON_OPTIONS } from "./common-options.js";
import { closestName } from "./suggest.js";

/** The result of {@link parseCommandArgs}. */
export interface ParsedCommandArgs {
  readonly values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  readonly positionals: string[];
}

/**
 * Returns the options and positionals of `argv` for `command`, parsed
 * strictly with `node:util` `parseArgs`. An unknown option, a missing value
 * or an unexpected positional becomes a `USAGE` {@link CliError} with one
 * line pointing at `--help`.
 */
export function parseCommandArgs(command: Command, argv: readonly string[]): ParsedCommandArgs {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean }
  > = {};
  for (const [name, spec] of Object.entries({ ...command.options, ...COMMON_OPTIONS })) {
    options[name] = {
      type: spec.type,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }),
    };
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: command.positionals,
    });
    return { values: values as ParsedCommandArgs["values"], positionals };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      let message = (error as Error).message.split(/\. To specify a positional/)[0] ?? "";
      if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
        const typed = /'(-{1,2}[^'=]*)/.exec(message)?.[1];
        const suggestion =
          typed === undefined
            ? undefined
            : typed.startsWith("--")
              ? closestName(typed.slice(2), Object.keys(options))
              : undefined;
        if (suggestion !== undefined) message += `; did you mean --${suggestion}?`;
      }
      throw new CliError(
        "USAGE",
        `${message.replace(/\.$/, "")} (see 'kubeimg ${command.name} --help')`,
        undefined,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Throws a `USAGE` {@link CliError} unless `value` is given.
 */
export function requireOption<T>(value: T | undefined, flag: string, commandName: string): T {
  if (value === undefined || value === "") {
    throw new CliError("USAGE", `${flag} is required (see 'kubeimg ${commandName} --help')`, flag);
  }
  return value;
}
