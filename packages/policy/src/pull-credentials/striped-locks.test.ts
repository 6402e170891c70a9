import { describe, expect, it } from "vitest";
import { fnv1Hash32, StripedLocks } from "./striped-locks.js";

describe("StripedLocks", () => {
  it.each([
    ["", 0x811c9dc5],
    ["a", 0x050c5d7e],
    ["foobar", 0x31f0b262],
  ])("FNV-1 32 of %j", (key, want) => {
    expect(fnv1Hash32(key)).toBe(want);
  });

  it("hashes non-ASCII keys by their UTF-8 bytes", () => {
    const bytes = new TextEncoder().encode("é");
    let h = 0x811c9dc5;
    for (const b of bytes) h = Math.imul(h, 0x01000193) ^ b;
    expect(fnv1Hash32("é")).toBe(h >>> 0);
  });

  it("clamps the stripe count to 1..31", () => {
    expect(new StripedLocks(0).size).toBe(1);
    expect(new StripedLocks(100).size).toBe(31);
  });

  it("runs holders of one stripe one at a time, in arrival order", async () => {
    const locks = new StripedLocks(1);
    const log: string[] = [];
    const task = (name: string) =>
      locks.run(name, async () => {
        log.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 1));
        log.push(`${name}-`);
      });
    await Promise.all([task("a"), task("b"), task("c")]);
    expect(log).toEqual(["a+", "a-", "b+", "b-", "c+", "c-"]);
  });

  it("releases the stripe when the holder throws", async () => {
    const locks = new StripedLocks(3);
    await expect(locks.run("k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(locks.isFree("k")).toBe(true);
    expect(await locks.run("k", () => 1)).toBe(1);
  });

  it("runAll waits for every stripe and blocks new holders", async () => {
    const locks = new StripedLocks(4);
    const log: string[] = [];
    let release!: () => void;
    const held = locks.run("x", () =>
      new Promise<void>((r) => (release = r)).then(() => log.push("x")),
    );
    const all = locks.runAll(() => log.push("all"));
    const after = locks.run("y", () => log.push("y"));
    release();
    await Promise.all([held, all, after]);
    expect(log).toEqual(["x", "all", "y"]);
  });
});
