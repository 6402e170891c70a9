/**
 * `parseNormalizedNamed` over 1,000 realistic references, against
 * `docker-parse-image` (a regex splitter that does not validate) in the same
 * run. Each task call parses the whole list once, so per-call timer overhead
 * does not swamp a ~100 ns operation; ops/s are per reference.
 */
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import dockerParseImage from "docker-parse-image";
import { runBenchmarks } from "./lib.js";
import { realisticReferences } from "./realistic-references.js";

const references = realisticReferences();
let sink = 0;

const rows = await runBenchmarks(
  "parseNormalizedNamed over 1,000 realistic references",
  [
    {
      name: "@kubeimg/core parseNormalizedNamed",
      opsPerCall: references.length,
      fn: () => {
        for (let i = 0; i < references.length; i++) {
          sink += parseNormalizedNamed(references[i] as string).name.length;
        }
      },
    },
    {
      name: "docker-parse-image 3.0.1",
      opsPerCall: references.length,
      fn: () => {
        for (let i = 0; i < references.length; i++) {
          sink += dockerParseImage(references[i] as string)?.repository.length ?? 0;
        }
      },
    },
  ],
  { time: 2000, warmupTime: 500 },
);

const ours = rows[0]?.opsPerSecond ?? 0;
const theirs = rows[1]?.opsPerSecond ?? 1;
const accepted = references.filter((r) => dockerParseImage(r) !== null).length;
console.log(
  `\nratio: ${(ours / theirs).toFixed(2)}× docker-parse-image (target ≥ 1.2×); ` +
    `ours ${(ours / 1e6).toFixed(2)} M ops/s (target ≥ 10 M); ` +
    `docker-parse-image accepted ${accepted}/${references.length}; sink ${sink > 0}`,
);
