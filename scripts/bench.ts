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
 * `--emit-inputs`, `--peer`, `--peer-name` and `--rounds` without
 * `--baseline` go to the programs (see `bench/peer.ts`).
 */
import { runBaseline } from "./bench-baseline.js";
import { runEach } from "./run-each.js";

const args = process.argv.slice(2).filter((a) => a !== "--");
let baseline: string | undefined;
let rounds = 3;
let roundsGiven = false;
const names: string[] = [];
/** Options for the programs themselves (`bench/peer.ts`), passed on with their values. */
const forwarded: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  if (arg === "--emit-inputs" || arg === "--peer" || arg === "--peer-name") {
    const value = args[++i];
    if (value === undefined) {
      console.error(`${arg} needs a value`);
      process.exit(2);
    }
    forwarded.push(arg, value);
  } else if (arg === "--baseline" || arg === "--rounds") {
    const value = args[++i];
    if (value === undefined) {
      console.error(`${arg} needs a value`);
      process.exit(2);
    }
    if (arg === "--baseline") baseline = value;
    else {
      roundsGiven = true;
      rounds = Number(value);
      if (!Number.isInteger(rounds) || rounds < 1) {
        console.error(`--rounds ${value}: not a positive integer`);
        process.exit(2);
      }
    }
  } else names.push(arg);
}

if (baseline === undefined && roundsGiven) forwarded.push("--rounds", String(rounds));
process.exitCode =
  baseline === undefined
    ? runEach("bench", "bench", names, { built: true, args: forwarded })
    : runBaseline(baseline, rounds, names);
