import { describe, expect, it } from "vitest";
import { cleanTags } from "./tags.js";

describe("cleanTags", () => {
  it("drops nulls, invalid and digest-shaped entries, signatures and repeats, and sorts", () => {
    expect(
      cleanTags([
        "v2",
        null,
        "sha256-abc.sig",
        `sha256:${"f".repeat(64)}`,
        "v1",
        "v2",
        "-bad",
        "1.0",
      ]),
    ).toEqual(["1.0", "v1", "v2"]);
  });
  it("keeps the registry's order when asked", () => {
    expect(cleanTags(["b", null, "a", "b"], { sort: false })).toEqual(["b", "a"]);
  });
  it("takes a custom exclusion", () => {
    expect(cleanTags(["a.att", "b"], { exclude: (t) => t.endsWith(".att") })).toEqual(["b"]);
  });
});
