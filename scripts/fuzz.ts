/**
 * `pnpm fuzz [name...]`: runs the long property runs (a million inputs or more
 * each): those over public entries in `fuzz/`, and the one that needs core's
 * reference arbitraries beside them in `packages/core/src/reference/`.
 */
import { runEach } from "./run-each.js";

process.exitCode = runEach(["fuzz", "packages/core/src/reference"], "fuzz", process.argv.slice(2));
