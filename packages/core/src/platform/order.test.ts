import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyOf, only, onlyOS, ordered, type PlatformMatchComparer } from "./compare.js";
import { orderIndexEntries, selectPlatform, sortPlatforms } from "./order.js";
import type { PlatformInput } from "./platform.js";

/** The definition: a stable sort by `less` (Array.prototype.sort is stable). */
function sortedByLess(comparer: PlatformMatchComparer, candidates: readonly PlatformInput[]) {
  return candidates
    .map((_, i) => i)
    .sort((i, j) => {
      const a = candidates[i] as PlatformInput;
      const b = candidates[j] as PlatformInput;
      return comparer.less(a, b) ? -1 : comparer.less(b, a) ? 1 : 0;
    });
}

const platform: fc.Arbitrary<PlatformInput> = fc.record({
  os: fc.constantFrom("linux", "Linux", "windows", "darwin", ""),
  architecture: fc.constantFrom("arm64", "aarch64", "arm", "armhf", "amd64", "x86_64", "386"),
  variant: fc.constantFrom("", "v5", "v6", "v7", "v8", "8", "v8.2", "v9", "v2", "v3", "v1", "v07"),
  osVersion: fc.constantFrom("", "10.0.17763.1", "10.0.20348.5"),
  osFeatures: fc.constantFrom([], ["gpu"], ["win32k"], ["gpu", "sgx"]),
});

const comparers: readonly PlatformMatchComparer[] = [
  only({ os: "linux", architecture: "arm64", variant: "v8.2" }),
  only({ os: "linux", architecture: "amd64", variant: "v3" }),
  only({ os: "linux", architecture: "arm", variant: "v7" }),
  only({ os: "windows", architecture: "amd64", osVersion: "10.0.20348.5" }),
  ordered([
    { os: "linux", architecture: "amd64", osFeatures: ["gpu", "sgx"] },
    { os: "linux", architecture: "arm64" },
  ]),
  onlyOS({ os: "linux", architecture: "arm64" }),
  anyOf([{ os: "linux", architecture: "amd64", osFeatures: ["gpu"] }]),
];

describe("sorting by a comparer", () => {
  it("gives the stable sort by less, for every comparer kind", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...comparers),
        fc.array(platform, { maxLength: 40 }),
        (comparer, candidates) => {
          const want = sortedByLess(comparer, candidates);
          expect(sortPlatforms(comparer, candidates)).toEqual(want);
          const matching = want.filter((i) => comparer.match(candidates[i] as PlatformInput));
          expect(
            orderIndexEntries(
              comparer,
              candidates.map((p) => ({ platform: p })),
            ),
          ).toEqual(matching);
          expect(selectPlatform(comparer, candidates)).toBe(matching[0]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("normalizes each candidate once, whatever the number of preferences", () => {
    // arm64 v8.2 has seven preferences; count how often a candidate is read.
    const node = only({ os: "linux", architecture: "arm64", variant: "v8.2" });
    let reads = 0;
    const counted = (p: PlatformInput): PlatformInput =>
      new Proxy(p, {
        get(target, key, receiver) {
          if (key === "architecture") reads++;
          return Reflect.get(target, key, receiver);
        },
      });
    const entries = ["v5", "v6", "v7", "v8", "v8", "v7", "v6", "v5"].map((variant) => ({
      platform: counted({ os: "linux", architecture: "arm", variant }),
    }));
    expect(orderIndexEntries(node, entries)).toEqual([3, 4, 2, 5, 1, 6, 0, 7]);
    expect(reads).toBe(entries.length);
  });

  it("asks a comparer of its own once per comparison, as Go's stable sort does", () => {
    let calls = 0;
    const byArchitecture: PlatformMatchComparer = {
      kind: "all",
      match: () => true,
      less: (a, b) => {
        calls++;
        return a.architecture < b.architecture;
      },
    };
    const inOrder = ["a", "b", "c", "d", "e", "f"].map((architecture) => ({
      os: "",
      architecture,
    }));
    expect(sortPlatforms(byArchitecture, inOrder)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(calls).toBe(inOrder.length - 1);
  });
});
