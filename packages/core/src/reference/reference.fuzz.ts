/**
 * `pnpm fuzz reference`: the reference properties of
 * `packages/core/src/reference/property.test.ts` for a million generated
 * inputs (or `FUZZ_RUNS`), each through all five parsing operations:
 * every input parses or throws ImageReferenceError (never another
 * exception), `parse(x.string)` round-trips, and `parse` and
 * `parseNormalizedNamed` answer exactly as upstream's regular expressions.
 */

import { parse, parseNormalizedNamed } from "@kubeimg/core/reference";
import fc from "fast-check";
import {
  describeOutcome,
  operations,
  oracleParse,
  oracleParseNormalizedNamed,
  referenceLike,
} from "./arbitraries.test-support.js";
import { isImageReferenceError } from "./errors.js";

const runs = Number(process.env.FUZZ_RUNS ?? 1_000_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const started = Date.now();
let parsed = 0;
let refused = 0;
fc.assert(
  fc.property(referenceLike, (s) => {
    for (const op of operations) {
      try {
        const r = op(s);
        parsed++;
        if (
          "name" in r &&
          !same(
            describeOutcome(() => parse(r.string)),
            describeOutcome(() => r),
          )
        ) {
          throw new Error(`round-trip failed for ${JSON.stringify(s)} → ${r.string}`);
        }
      } catch (error) {
        if (!isImageReferenceError(error) || error.input !== s) throw error;
        refused++;
      }
    }
    const ours = describeOutcome(() => parse(s));
    const theirs = oracleParse(s);
    if (!same(ours, theirs)) {
      throw new Error(
        `parse ${JSON.stringify(s)}: ${JSON.stringify(ours)} ≠ ${JSON.stringify(theirs)}`,
      );
    }
    if (
      !same(
        describeOutcome(() => parseNormalizedNamed(s)),
        oracleParseNormalizedNamed(s),
      )
    ) {
      throw new Error(`parseNormalizedNamed ${JSON.stringify(s)} disagrees with the oracle`);
    }
  }),
  { numRuns: runs, seed },
);
console.log(
  `reference fuzz: ${runs.toLocaleString("en-US")} inputs × 5 operations (seed ${seed}): ` +
    `${parsed.toLocaleString("en-US")} parsed, ${refused.toLocaleString("en-US")} refused with ImageReferenceError, ` +
    `0 other exceptions, round-trips and oracle agreement hold — ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
