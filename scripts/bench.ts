/**
 * `pnpm bench [name...]`: runs the benchmarks in `bench/` and prints their
 * tables. They measure the built packages (`pnpm bench` builds first), the
 * code an installed kubeimg runs: the bundler turns enum members into
 * literals and module constants into variables, and both matter to the
 * optimizing compiler.
 */
import { runEach } from "./run-each.js";

process.exitCode = runEach("bench", "bench", process.argv.slice(2), { built: true });
