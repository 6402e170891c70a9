/**
 * Measuring against a peer that is not JavaScript (the upstream Go code a
 * module ports), in the same run as our side. The repository holds only our
 * side and the inputs: a benchmark writes its inputs as JSON
 * (`--emit-inputs <file>`), and a peer program built elsewhere reads them and
 * answers a line protocol on its standard input and output
 * (`--peer "<command>"`; the inputs file is appended as its last argument):
 *
 * - `check <row>` → one line of JSON: the peer's answer for the row's first
 *   input, compared with ours before anything is timed, so both sides are
 *   shown to do the same work;
 * - `run <row> <calls>` → `<ms> ...`: the process CPU time per call, in
 *   milliseconds, over that many calls.
 *
 * Each side's batch is sized to about 300 ms of CPU time after a warm-up
 * (see {@link sizeBatch}). A round runs each side's batch in six turns,
 * alternating (ours then the peer, then the peer then ours), so a change in
 * the machine's load falls on both; each side's figure is the median of the
 * rounds, with the spread shown, and the ratio is the median of the
 * per-round ratios. CPU time rather than wall time, because the machine may
 * be shared.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { isDeepStrictEqual } from "node:util";
import { median } from "./lib.js";

/** One row measured on both sides. */
export interface PeerRow {
  /** The row's id in the protocol and in the inputs file. */
  readonly id: string;
  /** The row's label in the printed table. */
  readonly name: string;
  /** One call of our side. */
  readonly ours: () => unknown;
  /** Our answer for the row's first input, as the peer's `check` line must read. */
  readonly check: () => unknown;
}

/** The options this module reads from a benchmark's command line. */
export interface PeerOptions {
  /** `--emit-inputs <file>`: write the inputs there and measure nothing. */
  readonly emitInputs: string | undefined;
  /** `--peer "<command>"`: measure the rows against this program. */
  readonly peer: string | undefined;
  /** `--peer-name <label>`: the peer's column heading (default "peer"). */
  readonly peerName: string;
  /** `--rounds <n>` (default 7). */
  readonly rounds: number;
}

export function peerOptions(argv: readonly string[] = process.argv.slice(2)): PeerOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    return v;
  };
  const rounds = Number(value("--rounds") ?? 7);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds: a positive integer");
  return {
    emitInputs: value("--emit-inputs"),
    peer: value("--peer"),
    peerName: value("--peer-name") ?? "peer",
    rounds,
  };
}

export function writeInputs(file: string, inputs: unknown): void {
  writeFileSync(file, `${JSON.stringify(inputs)}\n`);
}

/** A running peer program answering one line per request line. */
class PeerProcess {
  private readonly lines: AsyncIterator<string>;
  private readonly child;

  constructor(command: string, inputsFile: string) {
    const [program, ...args] = command.split(/\s+/).filter(Boolean);
    if (!program) throw new Error("--peer: empty command");
    this.child = spawn(program, [...args, inputsFile], { stdio: ["pipe", "pipe", "inherit"] });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  async ask(line: string): Promise<string> {
    this.child.stdin.write(`${line}\n`);
    const next = await this.lines.next();
    if (next.done) throw new Error(`peer ended before answering "${line}"`);
    return next.value;
  }

  close(): void {
    this.child.stdin.end();
  }
}

function cpuMsPerCall(fn: () => unknown, calls: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / calls;
}

/** How {@link sizeBatch} sizes a side's batch. */
export interface BatchSizing {
  /** The CPU time a timed batch aims at. */
  readonly batchMs: number;
  /**
   * The CPU time a batch must reach before its per-call figure is believed:
   * below it the clock's resolution and the first, unoptimized calls decide.
   */
  readonly minMs: number;
  /** The CPU time spent in calls of the row's size before sizing the timed batch. */
  readonly warmUpMs: number;
}

export const defaultSizing: BatchSizing = { batchMs: 300, minMs: 30, warmUpMs: 600 };

/**
 * Returns the number of calls that make a batch of about `batchMs` of CPU
 * time, where `measure(calls)` runs that many calls and answers the CPU ms
 * per call. The call count grows from one until a batch takes `minMs`
 * (a µs-scale row's first calls run cold and near the clock's resolution),
 * then batches of the estimated size run for `warmUpMs` (the optimizing
 * compiler's work and the heap's growth settle, and would otherwise fall on
 * the first rounds), and the last of them sizes the timed batch.
 */
export async function sizeBatch(
  measure: (calls: number) => number | Promise<number>,
  { batchMs, minMs, warmUpMs }: BatchSizing = defaultSizing,
): Promise<number> {
  let calls = 1;
  let perCall: number;
  for (;;) {
    perCall = await measure(calls);
    const total = perCall * calls;
    if (total >= minMs) break;
    // At most ten times more per step, so a cold first call cannot oversize the next.
    calls *= total > 0 ? Math.min(10, Math.max(2, Math.ceil((minMs * 1.5) / total))) : 10;
  }
  const callsFor = (ms: number, per: number) =>
    per > 0 ? Math.max(1, Math.round(ms / per)) : calls;
  let warm = 0;
  do {
    calls = callsFor(batchMs, perCall);
    perCall = await measure(calls);
    warm += perCall * calls;
  } while (warm < warmUpMs);
  return callsFor(batchMs, perCall);
}

/** The turns of each side in one round (see comparePeer). */
const TURNS = 6;

const fmt = (n: number): string =>
  n >= 100 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n >= 0.01 ? n.toFixed(4) : n.toPrecision(3);

/**
 * Measures every row on both sides in alternating rounds and prints one
 * table. `batchMs` is the CPU time one side's batch of calls aims at.
 */
export async function comparePeer(
  title: string,
  peerName: string,
  command: string,
  inputsFile: string,
  rows: readonly PeerRow[],
  { rounds = 7, batchMs = 300 }: { rounds?: number; batchMs?: number } = {},
): Promise<void> {
  const peer = new PeerProcess(command, inputsFile);
  try {
    for (const row of rows) {
      const theirs: unknown = JSON.parse(await peer.ask(`check ${row.id}`));
      const ours = row.check();
      if (!isDeepStrictEqual(theirs, ours)) {
        throw new Error(
          `${row.name}: the peer answers ${JSON.stringify(theirs)}, ours ${JSON.stringify(ours)}`,
        );
      }
    }
    const results: {
      row: PeerRow;
      calls: { ours: number; peer: number };
      ours: number[];
      peer: number[];
      ratios: number[];
    }[] = [];
    for (const row of rows) {
      // Warm both sides up and size a batch to about batchMs of CPU time each.
      const sizing = { ...defaultSizing, batchMs };
      const oursCalls = await sizeBatch((calls) => cpuMsPerCall(row.ours, calls), sizing);
      const peerCalls = await sizeBatch(
        async (calls) => Number((await peer.ask(`run ${row.id} ${calls}`)).split(" ")[0]),
        sizing,
      );
      const turns = Math.min(TURNS, oursCalls, peerCalls);
      const oursTurn = Math.max(1, Math.round(oursCalls / turns));
      const peerTurn = Math.max(1, Math.round(peerCalls / turns));
      const result = {
        row,
        calls: { ours: oursCalls, peer: peerCalls },
        ours: [] as number[],
        peer: [] as number[],
        ratios: [] as number[],
      };
      for (let round = 0; round < rounds; round++) {
        // A round is several short turns of each side, alternating, so a
        // burst of other work on the machine falls on both sides alike.
        let oursMs = 0;
        let peerMs = 0;
        for (let turn = 0; turn < turns; turn++) {
          const runOurs = () => {
            oursMs += cpuMsPerCall(row.ours, oursTurn) * oursTurn;
          };
          const runPeer = async () => {
            const answer = await peer.ask(`run ${row.id} ${peerTurn}`);
            peerMs += Number(answer.split(" ")[0]) * peerTurn;
          };
          if ((round + turn) % 2 === 0) {
            runOurs();
            await runPeer();
          } else {
            await runPeer();
            runOurs();
          }
        }
        const o = oursMs / (oursTurn * turns);
        const p = peerMs / (peerTurn * turns);
        result.ours.push(o);
        result.peer.push(p);
        result.ratios.push(p / o);
      }
      results.push(result);
    }
    console.log(
      `\n### ${title}: ${peerName} against ours, process CPU ms per call (median of ${rounds} alternating rounds, min–max)\n`,
    );
    console.log(`| task | ${peerName} (ms) | ours (ms) | ${peerName} ÷ ours |`);
    console.log("| --- | ---: | ---: | ---: |");
    for (const r of results) {
      const cell = (xs: number[]) =>
        `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
      const ratio = `${fmt(median(r.ratios))} (${fmt(Math.min(...r.ratios))}–${fmt(Math.max(...r.ratios))})`;
      console.log(`| ${r.row.name} | ${cell(r.peer)} | ${cell(r.ours)} | ${ratio} |`);
    }
    // The batch sizes, to judge a figure by: each batch aims at batchMs of CPU time.
    console.log(
      `\nCalls per batch (${peerName} / ours): ${results.map((r) => `${r.row.id} ${r.calls.peer} / ${r.calls.ours}`).join(", ")}.`,
    );
  } finally {
    peer.close();
  }
}
