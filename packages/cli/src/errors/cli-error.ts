import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * The stable codes of {@link CliError}: what was wrong with what the user
 * gave the command.
 *
 * @inline
 */
export type CliErrorCode =
  /** Unknown command or option, a missing or malformed argument. */
  | "USAGE"
  /** A file named on the command line does not exist. */
  | "FILE_NOT_FOUND"
  /** A file exists but cannot be read (a directory, no permission). */
  | "FILE_UNREADABLE"
  /** A file is not valid YAML or JSON. */
  | "INVALID_YAML"
  /** A YAML document expands (through its aliases) past the size the CLI reads. */
  | "YAML_TOO_LARGE"
  /** An object in a file holds a field its kind does not have (strict validation). */
  | "UNKNOWN_FIELD"
  /** A route would contain an alternative that is not a valid image reference. */
  | "INVALID_ALTERNATIVE"
  /** A file parsed but holds no object of the kind the command needs. */
  | "MISSING_OBJECT"
  /** A `kubeimg test` file, or a case in it, is not valid (the field and value are named). */
  | "INVALID_POLICY_TEST";

/**
 * Thrown for bad input to a `kubeimg` command. The command prints its
 * `message` as one line on stderr and exits with code 2.
 *
 * @example
 * ```ts
 * import { CliError, runPolicyTests } from "@kubeimg/cli";
 *
 * try {
 *   await runPolicyTests(["no-such-dir/"], { offline: true });
 * } catch (e) {
 *   if (e instanceof CliError) [e.code, e.input]; // → ["FILE_NOT_FOUND", "no-such-dir/"]
 * }
 * ```
 */
export class CliError extends KubeimgError {
  override readonly name = "CliError";
  /** Which rule the input broke; stable across releases. */
  readonly code: CliErrorCode;
  /** The argument or file that was refused, as given. */
  readonly input: string | undefined;

  constructor(code: CliErrorCode, message: string, input?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.input = input;
  }
}

/**
 * Returns true when `value` is a {@link CliError}, from whichever copy of the
 * package created it.
 */
export const isCliError = errorGuard<CliError>("CliError");
