export { CliError, type CliErrorCode, isCliError } from "./errors/cli-error.js";
export { EXIT_CODES, type ExitCode } from "./errors/exit-codes.js";
export type { CliIo, TextSink } from "./io/io.js";
export { nodeIo } from "./io/node-io.js";
export { runCli } from "./run.js";
export { VERSION } from "./version.js";
