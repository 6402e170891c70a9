import { describe, expect, it } from "vitest";
import { defaultSizing, sizeBatch } from "../bench/peer.js";

/**
 * A simulated side: its first `coldCalls` calls cost `coldMs` each (the
 * interpreter, the compiler's work), later ones `warmMs`, and its clock
 * reads in steps of `tickMs`. Answers the CPU ms per call of a batch, as
 * both sides of the peer protocol do.
 */
function simulatedSide(coldCalls: number, coldMs: number, warmMs: number, tickMs: number) {
  let done = 0;
  const batches: number[] = [];
  const measure = (calls: number): number => {
    batches.push(calls);
    const cold = Math.max(0, Math.min(calls, coldCalls - done));
    done += calls;
    const total = cold * coldMs + (calls - cold) * warmMs;
    return (Math.floor(total / tickMs) * tickMs) / calls;
  };
  return { measure, batches };
}

describe("sizeBatch", () => {
  it("sizes a µs-scale row's batch from its warm cost, not its first cold calls", async () => {
    // 5 µs a call once warm, 100 µs for the first 2,000, a 1 ms clock.
    const side = simulatedSide(2000, 0.1, 0.005, 1);
    const calls = await sizeBatch(side.measure);
    const batchMs = calls * 0.005;
    expect(batchMs).toBeGreaterThan(defaultSizing.batchMs * 0.8);
    expect(batchMs).toBeLessThan(defaultSizing.batchMs * 1.25);
  });

  it("sizes a ms-scale row too, and a row whose clock reads zero for small batches", async () => {
    for (const [warmMs, tickMs] of [
      [4, 0.001],
      [0.0002, 4],
    ] as const) {
      const calls = await sizeBatch(simulatedSide(3, warmMs * 5, warmMs, tickMs).measure);
      expect(calls * warmMs).toBeGreaterThan(defaultSizing.batchMs * 0.8);
      expect(calls * warmMs).toBeLessThan(defaultSizing.batchMs * 1.25);
    }
  });

  it("warms up for about warmUpMs and grows the count in bounded steps", async () => {
    const side = simulatedSide(0, 0, 0.005, 0.001);
    await sizeBatch(side.measure);
    // The count grows at most tenfold a step until a batch takes minMs.
    const grown = side.batches.findIndex((calls) => calls * 0.005 >= defaultSizing.minMs);
    expect(grown).toBeGreaterThan(0);
    for (let i = 1; i <= grown; i++) {
      expect(side.batches[i] as number).toBeLessThanOrEqual((side.batches[i - 1] as number) * 10);
    }
    const spent = side.batches.reduce((a, b) => a + b, 0) * 0.005;
    expect(spent).toBeGreaterThanOrEqual(defaultSizing.warmUpMs);
    expect(spent).toBeLessThan(defaultSizing.warmUpMs + 2 * defaultSizing.batchMs);
  });
});
