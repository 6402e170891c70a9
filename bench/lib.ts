/**
 * A small harness over tinybench: run named tasks, print one markdown table.
 * Every `bench/*.bench.ts` file is a standalone program that calls
 * `runBenchmarks`; `pnpm bench [name...]` runs them one after another.
 */
import { Bench } from "tinybench";

export interface BenchTask {
  readonly name: string;
  readonly fn: () => unknown;
  /** How many operations one call of `fn` performs (ops/s are divided out). */
  readonly opsPerCall?: number;
}

export interface BenchRow {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly meanMs: number;
  /** The median: steadier than the mean when other work shares the machine. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly samples: number;
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Runs the tasks and prints a markdown table titled `title`; returns the rows. */
export async function runBenchmarks(
  title: string,
  tasks: readonly BenchTask[],
  options: { time?: number; warmupTime?: number } = {},
): Promise<BenchRow[]> {
  const bench = new Bench({
    time: options.time ?? 1000,
    warmupTime: options.warmupTime ?? 250,
  });
  for (const task of tasks) bench.add(task.name, task.fn);
  await bench.run();
  const rows: BenchRow[] = [];
  for (const task of tasks) {
    const result = bench.getTask(task.name)?.result;
    if (!result || !("latency" in result)) throw new Error(`benchmark "${task.name}" did not run`);
    const perCall = task.opsPerCall ?? 1;
    rows.push({
      name: task.name,
      opsPerSecond: result.throughput.mean * perCall,
      meanMs: result.latency.mean,
      p50Ms: result.latency.p50 ?? result.latency.mean,
      p99Ms: result.latency.p99 ?? result.latency.max,
      samples: result.latency.samplesCount,
    });
  }
  printTable(title, rows);
  return rows;
}

function printTable(title: string, rows: readonly BenchRow[]): void {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  console.log(`\n### ${title}\n`);
  console.log(
    "| task | ops/s | mean per call (ms) | median per call (ms) | p99 per call (ms) | samples |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${fmt(r.opsPerSecond)} | ${fmt(r.meanMs, 4)} | ${fmt(r.p50Ms, 4)} | ${fmt(r.p99Ms, 4)} | ${fmt(r.samples)} |`,
    );
  }
}

/** The seeded generator every benchmark draws its workload from (one home: `@kubeimg/testkit`). */
export { seededRandom } from "@kubeimg/testkit";
