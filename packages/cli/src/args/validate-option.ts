import type { UnknownFieldPolicy } from "@kubeimg/policy/routing";
import type { CommandContext, OptionSpec } from "../commands/command.js";
import { CliError } from "../errors/cli-error.js";

const POLICIES: readonly UnknownFieldPolicy[] = ["strict", "warn", "ignore"];

/** `--validate`, as `kubectl apply --validate` spells it. */
export const VALIDATE_OPTION: Readonly<Record<string, OptionSpec>> = Object.freeze({
  validate: {
    type: "string",
    value: "MODE",
    help: "fields the CRDs do not know: strict (default: an error naming the field) | warn | ignore",
  },
  verbose: {
    type: "boolean",
    short: "v",
    help: "say what was read: objects of other kinds skipped, files of a directory",
  },
});

/**
 * Returns the `--validate` mode (default `strict`); throws a `USAGE`
 * {@link CliError} for another value.
 */
export function unknownFieldPolicy(values: CommandContext["values"]): UnknownFieldPolicy {
  const value = values.validate;
  if (value === undefined) return "strict";
  if (typeof value === "string" && (POLICIES as readonly string[]).includes(value)) {
    return value as UnknownFieldPolicy;
  }
  throw new CliError(
    "USAGE",
    `--validate must be one of ${POLICIES.join(", ")}, not "${String(value)}"`,
    String(value),
  );
}
