export { CliError } from "./errors/cli-error.js";
export { EXIT_CODES, type ExitCode } from "./errors/exit-codes.js";
export type { CliIo } from "./io/io.js";
export { nodeIo } from "./io/node-io.js";
export type {
  ListTags,
  PolicyTestReport,
  PolicyTestUpstream,
  RunPolicyTestsOptions,
} from "./policy-tests/index.js";
export { runPolicyTests } from "./policy-tests/index.js";
export { runCli } from "./run.js";
export { VERSION } from "./version.js";
