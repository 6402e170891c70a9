/**
 * `pnpm bench --baseline <dir> [--rounds N] [name...]`: every benchmark of
 * this checkout next to the same-named benchmark of another checkout (an
 * older commit, built there), run alternately in one session, so "before"
 * and "after" share the machine's load. A table measured in two sessions
 * mixes the code's change with the machine's; alternating rounds (ours,
 * theirs, then theirs, ours) and a median over rounds keep only the first.
 *
 * Each program prints markdown tables (`bench/lib.ts`); this reads them
 * back: per row, the first column named "median", or else the first whose
 * header gives a unit of time. Rows match by table title and task name, so a
 * row that was renamed or added since the baseline is listed without a
 * partner rather than paired with the wrong one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { median } from "../bench/lib.js";
import { repoRoot } from "./conformance/runner.js";

/** One timed row of one printed table: lower is better. */
interface TimedRow {
  /** The table's title and the row's name: unique within one program's output. */
  readonly key: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

export interface Samples {
  readonly name: string;
  readonly unit: string;
  readonly values: number[];
}

/** Reads every markdown table of a benchmark's output back into timed rows. */
export function parseTables(output: string): TimedRow[] {
  const rows: TimedRow[] = [];
  const seen = new Set<string>();
  let title = "";
  let column = -1;
  let unit = "";
  for (const raw of output.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("### ")) {
      title = line.slice(4).trim();
      column = -1;
      continue;
    }
    if (!line.startsWith("|")) {
      column = -1;
      continue;
    }
    const cells = line
      .slice(1, line.endsWith("|") ? -1 : undefined)
      .split("|")
      .map((c) => c.trim());
    if (column < 0) {
      // A header row: pick the column to read.
      column = cells.findIndex((c) => /median/i.test(c));
      if (column < 0)
        column = cells.findIndex((c) => /\((ms|µs|ns)\)|\bns per\b|\bms per\b/.test(c));
      unit = column >= 0 ? (/(ms|µs|ns)/.exec(cells[column] ?? "")?.[1] ?? "") : "";
      if (column < 0) column = Number.MAX_SAFE_INTEGER; // a table with no time column: skip its rows
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    const cell = cells[column];
    const name = cells[0];
    if (cell === undefined || !name) continue;
    const value = Number(cell.replace(/,/g, ""));
    if (!Number.isFinite(value)) continue;
    let key = title ? `${title} — ${name}` : name;
    while (seen.has(key)) key += " (again)";
    seen.add(key);
    rows.push({ key, name, value, unit });
  }
  return rows;
}

function runProgram(root: string, file: string): string | undefined {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "bench", file)], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.status !== 0) {
    console.error(`${root}/bench/${file} exited with ${result.status ?? result.signal}`);
    return undefined;
  }
  return result.stdout;
}

function collect(target: Map<string, Samples>, output: string): void {
  for (const row of parseTables(output)) {
    const entry = target.get(row.key) ?? { name: row.name, unit: row.unit, values: [] };
    entry.values.push(row.value);
    target.set(row.key, entry);
  }
}

/**
 * Pairs rows by table title and name; a row whose table was retitled pairs
 * by name alone when exactly one unpaired row of the baseline has it.
 */
export function pairRows(
  before: Map<string, Samples>,
  after: Map<string, Samples>,
): [Samples | undefined, Samples | undefined][] {
  const unpaired = new Map(before);
  const pairs: [Samples | undefined, Samples | undefined][] = [];
  const late: Samples[] = [];
  for (const [key, a] of after) {
    const b = unpaired.get(key);
    if (b) {
      unpaired.delete(key);
      pairs.push([b, a]);
    } else late.push(a);
  }
  for (const a of late) {
    const same = [...unpaired].filter(([, b]) => b.name === a.name);
    const only = same.length === 1 ? same[0] : undefined;
    if (only) unpaired.delete(only[0]);
    pairs.push([only?.[1], a]);
  }
  for (const b of unpaired.values()) pairs.push([b, undefined]);
  return pairs;
}

function printComparison(
  title: string,
  before: Map<string, Samples>,
  after: Map<string, Samples>,
): void {
  console.log(`\n## ${title}\n`);
  console.log("| row | before | after | before ÷ after | spread before | spread after |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [b, a] of pairRows(before, after)) {
    const unit = a?.unit || b?.unit || "";
    const show = (e: Samples | undefined) => (e ? `${fmt(median(e.values))} ${unit}` : "—");
    const spread = (e: Samples | undefined) =>
      e ? `${fmt(Math.min(...e.values))}–${fmt(Math.max(...e.values))}` : "—";
    const ratio = a && b ? `${(median(b.values) / median(a.values)).toFixed(2)}×` : "—";
    console.log(
      `| ${(a ?? b)?.name} | ${show(b)} | ${show(a)} | ${ratio} | ${spread(b)} | ${spread(a)} |`,
    );
  }
}

const fmt = (n: number): string =>
  n >= 100 ? n.toFixed(1) : n >= 1 ? n.toFixed(3) : n.toPrecision(3);

/**
 * Runs each matching `bench/*.bench.ts` of this checkout and of `baseline`
 * alternately for `rounds` rounds and prints, per program, one table:
 * before, after (medians over rounds, with their spread) and before ÷ after.
 * Returns the process exit code.
 */
export function runBaseline(baseline: string, rounds: number, filters: readonly string[]): number {
  const theirs = resolve(baseline);
  if (!existsSync(join(theirs, "bench"))) {
    console.error(`--baseline ${baseline}: no bench/ folder there`);
    return 1;
  }
  if (!existsSync(join(theirs, "packages", "core", "dist"))) {
    console.error(
      `--baseline ${baseline}: not built (run pnpm install and pnpm build there first)`,
    );
    return 1;
  }
  const files = readdirSync(join(repoRoot, "bench"))
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
    .sort();
  if (files.length === 0) {
    console.error(`no bench/*.bench.ts matches ${filters.join(", ")}`);
    return 1;
  }
  const missing = files.filter((f) => !existsSync(join(theirs, "bench", f)));
  if (missing.length > 0) console.log(`\nnot in the baseline (not run): ${missing.join(", ")}`);
  let failed = 0;
  for (const file of files.filter((f) => !missing.includes(f))) {
    const before = new Map<string, Samples>();
    const after = new Map<string, Samples>();
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first, so a drift in the machine's load falls on both.
      const order =
        round % 2 === 0 ? (["after", "before"] as const) : (["before", "after"] as const);
      for (const side of order) {
        process.stderr.write(`${file}: round ${round + 1}/${rounds}, ${side}\n`);
        const out = runProgram(side === "after" ? repoRoot : theirs, file);
        if (out === undefined) {
          failed++;
          continue;
        }
        collect(side === "after" ? after : before, out);
      }
    }
    printComparison(
      `bench/${file}: before (${baseline}) and after, ${rounds} alternating rounds`,
      before,
      after,
    );
  }
  return failed === 0 ? 0 : 1;
}
