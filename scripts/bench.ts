/** `pnpm bench [name...]`: runs the benchmarks in `bench/` and prints their tables. */
import { runEach } from "./run-each.js";

process.exitCode = runEach("bench", "bench", process.argv.slice(2));
