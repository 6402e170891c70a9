import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "./edit-distance.js";

describe("editDistance (optimal string alignment)", () => {
  it.each([
    ["", "", 0],
    ["abc", "", 3],
    ["", "abc", 3],
    ["registry", "registry", 0],
    ["registy", "registry", 1], // deletion
    ["regsitry", "registry", 1], // swap of neighbours counts once
    ["rgeistyr", "registry", 2], // two swaps
    ["ca", "abc", 3], // OSA, not unrestricted Damerau: no edit of a swapped pair
    ["Path", "path", 1], // case counts
  ] as const)("%j ~ %j = %d", (a, b, want) => {
    expect(editDistance(a, b)).toBe(want);
    expect(editDistance(b, a)).toBe(want);
  });
});

describe("closestName", () => {
  it.each([
    { name: "registy", candidates: ["registry", "path", "priority"], want: "registry" },
    { name: "zzz", candidates: ["registry"], want: undefined }, // too far to be a typo
    { name: "PATH", candidates: ["registry", "path"], want: "path" }, // a case difference
  ])("$name", ({ name, candidates, want }) => {
    expect(closestName(name, candidates)).toBe(want);
  });
});
