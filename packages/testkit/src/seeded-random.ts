/**
 * One seeded pseudo-random generator for every test, fuzzer and benchmark
 * that needs repeatable "random" input: the crash test (a failing trial is
 * replayed from its seed), the hostile registry (which cases to serve), the
 * benchmarks (every run measures the same workload).
 */

/**
 * Returns a generator of numbers in [0, 1) (mulberry32: 32 bits of state,
 * good enough for picking cases, not for cryptography). The same seed always
 * gives the same sequence.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
