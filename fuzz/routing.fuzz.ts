/**
 * `pnpm fuzz routing [runs]`: compares the optimised routing order with a
 * plain transcription of kuik's algorithm on random CR sets (default 20,000
 * scenarios; each builds and compiles a fresh set of up to 7 CRs).
 */
import { isDeepStrictEqual } from "node:util";
import { compareScenario, scenario } from "@kubeimg/testkit";
import fc from "fast-check";

const runs = Number(process.argv[2] ?? 20_000);
const started = Date.now();
fc.assert(
  fc.property(scenario, (value) => {
    const { want, got } = compareScenario(value);
    return got.every((result) => isDeepStrictEqual(result, want));
  }),
  { numRuns: runs },
);
console.log(
  `routing: ${runs} random scenarios agree (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
