import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { explainTagSelection } from "./explain.js";
import { safeSelectLatestTag } from "./select.js";
import type { TagSelectionPolicy } from "./types.js";

describe("explainTagSelection", () => {
  it("gives every tag a verdict", () => {
    const e = explainTagSelection(["1.0.0", "2.0.0", "latest", "1.5", "v1.2.0", "1.2.0"], {
      policy: { semver: { range: "<2" } },
    });
    expect(e.tag).toBe("v1.2.0");
    expect(e.error).toBeUndefined();
    expect(e.tags.map((t) => [t.tag, t.verdict])).toEqual([
      ["1.0.0", "ranked"],
      ["2.0.0", "out-of-range"],
      ["latest", "not-a-version"],
      ["1.5", "not-a-version"],
      ["v1.2.0", "selected"],
      ["1.2.0", "ranked"],
    ]);
    expect(e.tags[1]?.reason).toBe(
      `2.0.0 is outside '<2': "2.0.0" is greater than or equal to "2"`,
    );
    expect(e.tags[5]?.reason).toContain("equal to v1.2.0");
  });

  it("explains filtered and replaced tags with their keys", () => {
    const e = explainTagSelection(["main-1-100", "dev", "pr-2-100", "main-3-200"], {
      policy: { numerical: {} },
      filterTags: { pattern: "-(?P<ts>\\d+)$", extract: "$ts" },
    });
    expect(e.tag).toBe("main-3-200");
    expect(e.tags.map((t) => [t.tag, t.key, t.verdict])).toEqual([
      ["main-1-100", "100", "replaced"],
      ["dev", undefined, "filtered-out"],
      ["pr-2-100", "100", "ranked"],
      ["main-3-200", "200", "selected"],
    ]);
  });

  it("reports the error with the verdicts that caused it", () => {
    const e = explainTagSelection(["1", "x", "3"], { policy: { numerical: {} } });
    expect(e.tag).toBeUndefined();
    expect(e.error?.code).toBe("INVALID_NUMBER");
    expect(e.tags[1]?.verdict).toBe("not-a-number");
    const none = explainTagSelection(["1.0"], { policy: { semver: { range: "*" } } });
    expect(none.error?.code).toBe("NO_MATCHING_VERSION");
    expect(explainTagSelection(["a"], { policy: {} }).error?.code).toBe("INVALID_POLICY");
    expect(explainTagSelection([], { policy: { alphabetical: {} } }).error?.code).toBe("NO_TAGS");
  });

  it("agrees with selectLatestTag on every tagpolicy vector", () => {
    const file = fileURLToPath(
      new URL("../../../../../conformance/tagpolicy/vectors.jsonl", import.meta.url),
    );
    const vectors = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((v) => typeof v.id === "string");
    expect(vectors.length).toBeGreaterThan(400);
    for (const v of vectors) {
      const tags = v.tags as string[];
      const policy = {
        policy: v.policy,
        ...(v.filterTags === undefined ? {} : { filterTags: v.filterTags }),
      } as TagSelectionPolicy;
      const selected = safeSelectLatestTag(tags, policy);
      const explained = explainTagSelection(tags, policy);
      if (selected.success) {
        expect(explained.tag, String(v.id)).toBe(selected.tag);
        expect(explained.tags.filter((t) => t.verdict === "selected").length).toBe(1);
      } else {
        expect(explained.error?.code, String(v.id)).toBe(selected.error.code);
      }
    }
  });
});

describe("explainTagSelection stays bounded (a reason per tag, not per tag × range group)", () => {
  // Masterminds v3.4.0 (Flux 1.1.x) sets no limit on range groups; v3.5.0 allows 32.
  it("a thousand range groups give short reasons and the same selection", () => {
    const groups = Array.from({ length: 1000 }, (_, i) => `>=${i * 10}.0.0 <${i * 10 + 1}.0.0`);
    const range = groups.join(" || ");
    const tags = Array.from({ length: 2000 }, (_, i) => `${(i % 50) * 10 + 5}.${i}.0`);
    tags.push("0.5.0");
    const e = explainTagSelection(tags, { policy: { semver: { range } }, semver: "v3.4.0" });
    expect(e.tag).toBe("0.5.0");
    expect(safeSelectLatestTag(tags, { policy: { semver: { range } }, semver: "v3.4.0" })).toEqual({
      success: true,
      tag: "0.5.0",
    });
    const longest = Math.max(...e.tags.map((t) => t.reason.length));
    expect(longest).toBeLessThan(600);
    const outside = e.tags.find((t) => t.verdict === "out-of-range");
    expect(outside?.reason).toMatch(/; and 997 more \(one per range group\)$/);
    expect(outside?.reason).toContain("…'");
  });

  it("a short range keeps the full reason", () => {
    const e = explainTagSelection(["3.0.0", "1.0.0"], {
      policy: { semver: { range: ">=1 <2 || >=5" } },
    });
    expect(e.tags[0]?.reason).toBe(
      `3.0.0 is outside '>=1 <2 || >=5': "3.0.0" is greater than or equal to "2"; "3.0.0" is less than "5"`,
    );
  });
});
