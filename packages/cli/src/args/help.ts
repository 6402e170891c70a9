import type { Command, OptionSpec } from "../commands/command.js";
import { COMMON_OPTIONS } from "./common-options.js";

function optionLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const short = spec.short === undefined ? "    " : `-${spec.short}, `;
    const value = spec.type === "string" ? ` ${spec.value ?? "VALUE"}` : "";
    const repeat = spec.multiple === true ? " (repeatable)" : "";
    return [`${short}--${name}${value}`, spec.help + repeat] as const;
  });
  const width = Math.max(0, ...rows.map(([flag]) => flag.length));
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`);
}

/**
 * Returns the `--help` text of `command`: synopsis, description, options,
 * the common options, examples and the exit codes.
 */
export function renderCommandHelp(command: Command): string {
  const lines = [`Usage: ${command.usage}`, "", command.description, ""];
  if (Object.keys(command.options).length > 0) {
    lines.push("Options:", ...optionLines(command.options), "");
  }
  lines.push("Common options:", ...optionLines(COMMON_OPTIONS), "");
  lines.push("Examples:");
  for (const [comment, commandLine] of command.examples) {
    lines.push(`  # ${comment}`, `  ${commandLine}`);
  }
  lines.push("", EXIT_CODE_HELP);
  return `${lines.join("\n")}\n`;
}

const EXIT_CODE_HELP =
  "Exit codes: 0 answered, 1 the policy found nothing, 2 bad input (one line on stderr says why).";

/**
 * Returns the top-level help: the command list and how to get more.
 */
export function renderMainHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `kubeimg ${version} — image references, tag policies, routing and pull decisions, as the Go code in your cluster computes them.`,
    "",
    "Usage: kubeimg COMMAND [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Run 'kubeimg COMMAND --help' for a command's options and an example.",
    "Output: --output table|json|yaml (a table on a terminal, JSON otherwise); NO_COLOR is honoured.",
    EXIT_CODE_HELP,
    "",
  ].join("\n");
}
