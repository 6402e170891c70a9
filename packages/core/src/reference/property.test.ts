/**
 * Properties over generated reference-shaped strings (see
 * `arbitraries.fixture.ts`): every input parses or throws the typed error,
 * results round-trip through `parse(x.string)`, and the single-pass scanner
 * answers exactly as upstream's regular expressions do. `pnpm fuzz reference`
 * runs the same properties for millions of inputs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  describeOutcome,
  type OracleAnswer,
  operations,
  oracleParse,
  oracleParseNormalizedNamed,
  referenceLike,
} from "./arbitraries.test-support.js";
import { isImageReferenceError } from "./errors.js";
import { parse, parseNormalizedNamed } from "./parse.js";
import type { Reference } from "./reference.js";

/** Field-by-field equality of two outcomes (cheaper than a generic deep equal). */
function sameOutcome(a: OracleAnswer, b: OracleAnswer): boolean {
  if ("error" in a || "error" in b) return "error" in a && "error" in b && a.error === b.error;
  return (
    a.domain === b.domain &&
    a.path === b.path &&
    a.tag === b.tag &&
    a.digest === b.digest &&
    a.string === b.string
  );
}

describe("reference properties", () => {
  // One property with every check, so that 100k generated inputs cost one
  // generation each (each input goes through one of the five operations,
  // plus parse and parseNormalizedNamed against the oracle); `expect` only
  // runs to explain a failure.
  it("over 100k reference-shaped inputs: typed errors only, round-trips, upstream's answers", () => {
    fc.assert(
      fc.property(referenceLike, fc.constantFrom(...operations), (s, op) => {
        // The operation returns, or throws ImageReferenceError carrying the input.
        let r: Reference | undefined;
        try {
          r = op(s);
        } catch (error) {
          if (!isImageReferenceError(error) || error.input !== s) throw error;
        }
        // parse(x.string) gives x back.
        if (r !== undefined && "name" in r) {
          const named = r;
          const again = describeOutcome(() => parse(named.string));
          const before = describeOutcome(() => named);
          if (!sameOutcome(again, before)) expect(again).toEqual(before);
        }
        // The scanner answers as upstream's regular expressions do.
        const ours = describeOutcome(() => parse(s));
        const theirs = oracleParse(s);
        if (!sameOutcome(ours, theirs)) expect(ours).toEqual(theirs);
        const normalized = describeOutcome(() => parseNormalizedNamed(s));
        const upstream = oracleParseNormalizedNamed(s);
        if (!sameOutcome(normalized, upstream)) expect(normalized).toEqual(upstream);
      }),
      { numRuns: 100_000 },
    );
  });
});
