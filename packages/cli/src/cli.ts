/**
 * The `kubeimg` program: runs the command line of this process and sets
 * its exit code.
 *
 * @module
 */
import { nodeIo } from "./io/node-io.js";
import { runCli } from "./run.js";

// `pnpm kubeimg -- parse …` passes the `--` through; it is not a command.
const argv = process.argv.slice(2);
process.exitCode = await runCli(argv[0] === "--" ? argv.slice(1) : argv, nodeIo());
