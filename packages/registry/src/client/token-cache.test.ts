import { describe, expect, it } from "vitest";
import { TokenCache } from "./token-cache.js";

describe("TokenCache", () => {
  it("drops tokens shortly before they expire", () => {
    let now = 0;
    const cache = new TokenCache(() => now);
    cache.set("k", "t", 60_000);
    now = 49_999;
    expect(cache.get("k")).toBe("t");
    now = 50_000;
    expect(cache.get("k")).toBeUndefined();
  });
  it("keeps at most maxEntries, dropping the oldest", () => {
    const cache = new TokenCache(() => 0, 2);
    cache.set("a", "1", 1e9);
    cache.set("b", "2", 1e9);
    cache.set("c", "3", 1e9);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, "2", "3"]);
  });
});
