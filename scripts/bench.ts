/**
 * `pnpm bench [name...]`: runs the benchmarks in `bench/` and prints their
 * tables. They measure the built packages (`pnpm bench` builds first), the
 * code an installed kubeimg runs: the bundler turns enum members into
 * literals and module constants into variables, and both matter to the
 * optimizing compiler.
 *
 * `pnpm bench --baseline <dir> [--rounds N] [name...]` runs each benchmark
 * next to the same one in another built checkout, alternately, and prints
 * before, after and their ratio per row (see `bench-baseline.ts`).
 */
import { runBaseline } from "./bench-baseline.js";
import { runEach } from "./run-each.js";

const args = process.argv.slice(2).filter((a) => a !== "--");
let baseline: string | undefined;
let rounds = 3;
const names: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  if (arg === "--baseline" || arg === "--rounds") {
    const value = args[++i];
    if (value === undefined) {
      console.error(`${arg} needs a value`);
      process.exit(2);
    }
    if (arg === "--baseline") baseline = value;
    else {
      rounds = Number(value);
      if (!Number.isInteger(rounds) || rounds < 1) {
        console.error(`--rounds ${value}: not a positive integer`);
        process.exit(2);
      }
    }
  } else names.push(arg);
}

process.exitCode =
  baseline === undefined
    ? runEach("bench", "bench", names, { built: true })
    : runBaseline(baseline, rounds, names);
