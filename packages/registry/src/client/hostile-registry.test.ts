/**
 * A short run of the hostile-registry fuzzer (`pnpm fuzz registry` runs the
 * long one): typed errors only, no unhandled rejection, no secret in an
 * error or a log line, every call within its deadline, bounded memory.
 */

import { runHostileRegistry } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";

describe("the client against a hostile registry", () => {
  it.each([1, 2, 3])("keeps its promises (seed %i)", async (seed) => {
    const report = await runHostileRegistry({
      seed,
      calls: 150,
      // Room for a busy machine: with the fuzzer's 250 ms default, a starved
      // process answered nearly every call with TIMEOUT, and the codes the
      // registry's answers lead to went untested.
      timeoutMs: 2000,
      maxRssBytes: 1024 * 1024 * 1024,
    });
    expect(report.violations).toEqual([]);
    expect(Object.keys(report.codes).length).toBeGreaterThan(3);
  });
});
