import type { Command } from "./command.js";
import { inspectCommand } from "./inspect/inspect.js";
import { parseCommand } from "./parse/parse.js";
import { pullCheckCommand } from "./pull-check/pull-check.js";
import { routeCommand } from "./route/route.js";
import { tagsCommand } from "./tags/tags.js";
import { testCommand } from "./test/test.js";

/** Every `kubeimg` command, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  parseCommand,
  tagsCommand,
  routeCommand,
  inspectCommand,
  pullCheckCommand,
  testCommand,
];
