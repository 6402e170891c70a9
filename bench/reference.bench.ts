/**
 * `parseNormalizedNamed` over 1,000 realistic references, against
 * `docker-parse-image` (a regex splitter that does not validate) in the same
 * run. Each task call parses the whole list once, so per-call timer overhead
 * does not swamp a ~100 ns operation; ops/s are per reference.
 *
 * The tinybench table measures wall-clock time. This machine is shared, so a
 * second table alternates the two parsers in rounds and measures process CPU
 * time (time spent descheduled does not count), and reports medians: that
 * ratio is the one to trust when the load is uneven.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import dockerParseImage from "docker-parse-image";
import { runBenchmarks } from "./lib.js";
import { comparePeer, peerOptions, writeInputs } from "./peer.js";
import { realisticReferences } from "./realistic-references.js";

// Image strings reach a controller through JSON.parse; make them the same kind of strings.
const references = JSON.parse(JSON.stringify(realisticReferences())) as string[];
let sink = 0;

function ours(): void {
  for (let i = 0; i < references.length; i++) {
    sink += parseNormalizedNamed(references[i] as string).name.length;
  }
}

function theirs(): void {
  for (let i = 0; i < references.length; i++) {
    sink += dockerParseImage(references[i] as string)?.repository.length ?? 0;
  }
}

/**
 * `--emit-inputs <file>` / `--peer "<command>"` (see `peer.ts`): the same
 * pass over the same list against distribution/reference's Go code.
 */
const options = peerOptions();
if (options.emitInputs !== undefined || options.peer !== undefined) {
  const inputs = { references, rows: [{ id: "parse", name: "parseNormalizedNamed" }] };
  if (options.emitInputs !== undefined) {
    writeInputs(options.emitInputs, inputs);
    console.log(`inputs written to ${options.emitInputs}`);
  } else if (options.peer !== undefined) {
    const file = join(mkdtempSync(join(tmpdir(), "kubeimg-reference-")), "inputs.json");
    writeInputs(file, inputs);
    await comparePeer(
      "parseNormalizedNamed, one pass over 1,000 realistic references",
      options.peerName,
      options.peer,
      file,
      [
        {
          id: "parse",
          name: "parseNormalizedNamed × 1,000 references",
          ours,
          check: () => references.map((r) => parseNormalizedNamed(r).string),
        },
      ],
      { rounds: options.rounds },
    );
  }
  process.exit(0);
}

const rows = await runBenchmarks(
  "parseNormalizedNamed over 1,000 realistic references (tinybench, wall clock)",
  [
    { name: "@kubeimg/core parseNormalizedNamed", opsPerCall: references.length, fn: ours },
    { name: "docker-parse-image 3.0.1", opsPerCall: references.length, fn: theirs },
  ],
  { time: 2000, warmupTime: 500 },
);

/** Nanoseconds of process CPU time per reference for `passes` passes of `fn`. */
function cpuNanosPerReference(fn: () => void, passes: number): number {
  const start = process.cpuUsage();
  for (let k = 0; k < passes; k++) fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / (passes * references.length);
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const rounds = 21;
const oursNs: number[] = [];
const theirsNs: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < rounds; round++) {
  const a = cpuNanosPerReference(ours, 100);
  const b = cpuNanosPerReference(theirs, 100);
  oursNs.push(a);
  theirsNs.push(b);
  ratios.push(b / a);
}
const fmt = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
console.log(`\n### Same list, alternating rounds, process CPU time (median of ${rounds})\n`);
console.log("| task | ns per reference | ops/s |");
console.log("| --- | ---: | ---: |");
console.log(
  `| @kubeimg/core parseNormalizedNamed | ${median(oursNs).toFixed(1)} | ${fmt(1e9 / median(oursNs))} |`,
);
console.log(
  `| docker-parse-image 3.0.1 | ${median(theirsNs).toFixed(1)} | ${fmt(1e9 / median(theirsNs))} |`,
);

const accepted = references.filter((r) => dockerParseImage(r) !== null).length;
const wallRatio = (rows[0]?.opsPerSecond ?? 0) / (rows[1]?.opsPerSecond ?? 1);
console.log(
  `\nratio (ours ÷ docker-parse-image): ${median(ratios).toFixed(2)}× by CPU time, ` +
    `${wallRatio.toFixed(2)}× by tinybench wall clock (target ≥ 1.2×); ` +
    `targets: ≥ 10 M ops/s; docker-parse-image accepted ${accepted}/${references.length}` +
    (sink > 0 ? "" : " (no work done?)"),
);
