/** `pnpm fuzz [name...]`: runs the long property runs in `fuzz/` (a million inputs or more each). */
import { runEach } from "./run-each.js";

process.exitCode = runEach("fuzz", "fuzz", process.argv.slice(2));
