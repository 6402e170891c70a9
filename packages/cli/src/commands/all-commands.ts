import type { Command } from "./command.js";

/** Every `kubeimg` command's name, in the order the help lists them. */
export const COMMAND_NAMES = ["parse", "tags", "route", "inspect", "pull-check", "test"] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** Whether `name` names a command. */
export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

/**
 * Loads one command. Each command's code (and the kubeimg subpaths it uses)
 * loads only when a run names it: a `kubeimg tags` run never evaluates the
 * routing, pull-credential or registry-inspection code, and `--version`
 * evaluates none.
 */
export function loadCommand(name: CommandName): Promise<Command> {
  switch (name) {
    case "parse":
      return import("./parse/parse.js").then((m) => m.parseCommand);
    case "tags":
      return import("./tags/tags.js").then((m) => m.tagsCommand);
    case "route":
      return import("./route/route.js").then((m) => m.routeCommand);
    case "inspect":
      return import("./inspect/inspect.js").then((m) => m.inspectCommand);
    case "pull-check":
      return import("./pull-check/pull-check.js").then((m) => m.pullCheckCommand);
    case "test":
      return import("./test/test.js").then((m) => m.testCommand);
  }
}

/** Every command, in {@link COMMAND_NAMES}' order (the main help lists their summaries). */
export function loadCommands(): Promise<readonly Command[]> {
  return Promise.all(COMMAND_NAMES.map(loadCommand));
}
