import { renderCommandHelp, renderMainHelp } from "./args/help.js";
import { parseCommandArgs } from "./args/parse-command-args.js";
import { closestName } from "./args/suggest.js";
import {
  COMMAND_NAMES,
  isCommandName,
  loadCommand,
  loadCommands,
} from "./commands/all-commands.js";
import { CliError } from "./errors/cli-error.js";
import { describeError } from "./errors/describe.js";
import { EXIT_CODES, type ExitCode } from "./errors/exit-codes.js";
import type { CliIo } from "./io/io.js";
import { colorsFor } from "./output/color.js";
import { chooseOutputFormat } from "./output/format.js";
import { sanitizeText } from "./output/sanitize.js";
import { VERSION } from "./version.js";

/**
 * Runs the `kubeimg` command line `argv` (without the program name) against
 * `io` and returns the exit code: 0 answered, 1 the policy found nothing,
 * 2 bad input. Never throws for bad input: the reason is one line on
 * `io.stderr`, with no stack trace.
 *
 * @example
 * ```ts
 * import { nodeIo, runCli } from "@kubeimg/cli";
 * process.exitCode = await runCli(["parse", "nginx"], nodeIo());
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(renderMainHelp(await loadCommands(), VERSION));
    return EXIT_CODES.BAD_INPUT;
  }
  if (first === "--help" || first === "-h") {
    io.stdout.write(renderMainHelp(await loadCommands(), VERSION));
    return EXIT_CODES.OK;
  }
  if (first === "--version" || first === "-V") {
    io.stdout.write(`${VERSION}\n`);
    return EXIT_CODES.OK;
  }
  if (first === "help") {
    const topic = rest[0];
    if (topic === undefined) {
      io.stdout.write(renderMainHelp(await loadCommands(), VERSION));
      return EXIT_CODES.OK;
    }
    if (!isCommandName(topic)) return unknownCommand(topic, io);
    io.stdout.write(renderCommandHelp(await loadCommand(topic)));
    return EXIT_CODES.OK;
  }
  if (!isCommandName(first)) return unknownCommand(first, io);
  const command = await loadCommand(first);

  const note = (line: string) =>
    io.stderr.write(`kubeimg ${command.name}: ${sanitizeText(line)}\n`);
  try {
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values.help === true) {
      io.stdout.write(renderCommandHelp(command));
      return EXIT_CODES.OK;
    }
    const output = typeof values.output === "string" ? values.output : undefined;
    const extraFormat = command.extraOutputFormats?.find((f) => f === output);
    const format = chooseOutputFormat(extraFormat === undefined ? output : "json", io);
    const colors = colorsFor(io, {
      noColor: values["no-color"] === true || format !== "table" || extraFormat !== undefined,
    });
    return await command.run({
      io,
      values,
      positionals,
      format,
      colors,
      note,
      ...(extraFormat === undefined ? {} : { extraFormat }),
    });
  } catch (error) {
    note(describeError(error));
    return EXIT_CODES.BAD_INPUT;
  }
}

function unknownCommand(name: string, io: CliIo): ExitCode {
  const names = COMMAND_NAMES;
  const suggestion = closestName(name, [...names, "help"]);
  const hint = suggestion === undefined ? "" : `did you mean "${suggestion}"? `;
  const error = new CliError(
    "USAGE",
    `unknown command "${name}" (${hint}commands: ${names.join(", ")}; see 'kubeimg --help')`,
    name,
  );
  io.stderr.write(`kubeimg: ${sanitizeText(describeError(error))}\n`);
  return EXIT_CODES.BAD_INPUT;
}
