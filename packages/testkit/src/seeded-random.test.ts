import { describe, expect, it } from "vitest";
import { seededRandom } from "./seeded-random.js";

describe("seededRandom", () => {
  it("repeats its sequence for a seed and differs between seeds", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, c)).not.toEqual(first);
  });

  it("is mulberry32: the sequence replayed seeds were recorded with", () => {
    const random = seededRandom(1);
    expect(Math.floor(random() * 2 ** 32)).toBe(2693262067);
  });

  it("stays in [0, 1) and spreads over it", () => {
    const random = seededRandom(123);
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const x = random();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      buckets[Math.floor(x * 10)]++;
    }
    for (const n of buckets) expect(n).toBeGreaterThan(800);
  });
});
