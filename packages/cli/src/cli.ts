/**
 * The `kubeimg` program: runs the command line of this process and sets
 * its exit code.
 *
 * @module
 */
import { nodeIo } from "./io/node-io.js";
import { runCli } from "./run.js";

process.exitCode = await runCli(process.argv.slice(2), nodeIo());
