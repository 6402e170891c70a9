/**
 * The optimised ordering (memoised answers, literal-prefix prefilter,
 * registry index, `.*` fast path) against a plain transcription of the
 * algorithm on random CR sets: both must give the same list, secrets and
 * errors. `pnpm fuzz routing` runs the same comparison much longer.
 */

import { compareScenario, scenario } from "@kubeimg/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("optimised ordering = plain transcription", () => {
  it("gives the same list, secrets and errors on random CR sets", () => {
    fc.assert(
      fc.property(scenario, (value) => {
        const { want, got } = compareScenario(value);
        for (const result of got) expect(result).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});
