// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Go Expand templates spell groups as ${name}.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compileRegexp } from "@kubeimg/core/regexp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TagPolicyError } from "./errors.js";
import { compileTagFilter } from "./filter.js";
import { policerFromSpec } from "./policers.js";
import { compileTagPolicy } from "./select.js";
import { singlePassSelect } from "./single-pass.js";
import type { ImagePolicyChoice, TagFilterSpec } from "./types.js";

function vectors(suite: string): Record<string, unknown>[] {
  const file = fileURLToPath(
    new URL(`../../../../../conformance/${suite}/vectors.jsonl`, import.meta.url),
  );
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((v) => typeof v.id === "string");
}

const tagVectors = vectors("tagpolicy");
const regexpVectors = vectors("regexp");

const compiles = (pattern: string): boolean => {
  try {
    compileRegexp(pattern);
    return true;
  } catch {
    return false;
  }
};

/** Every pattern of both suites that compiles, plus the shapes Flux documents. */
const patterns = [
  ...new Set([
    "^main-[0-9a-f]+-(?P<ts>[0-9]+)$",
    "^main-[0-9a-f]+-(?P<ts>.*)$",
    "^RELEASE\\.(?P<ts>.*)Z$",
    "(?P<n>[0-9.eE+-]+|NaN|Inf)",
    "^(.*)$",
    "",
    ...tagVectors.flatMap((v) => {
      const f = v.filterTags as TagFilterSpec | undefined;
      return f?.pattern === undefined ? [] : [f.pattern];
    }),
    ...regexpVectors.map((v) => v.pattern).filter((p): p is string => typeof p === "string"),
  ]),
].filter(compiles);

const extracts = [
  ...new Set([
    "",
    "$0",
    "$1",
    "$2",
    "${1}x",
    "$ts",
    "$n",
    "v",
    ...tagVectors.flatMap((v) => {
      const f = v.filterTags as TagFilterSpec | undefined;
      return f?.extract === undefined ? [] : [f.extract];
    }),
    ...regexpVectors.map((v) => v.template).filter((t): t is string => typeof t === "string"),
  ]),
];

/** Tags from both suites, and pieces that make keys tie, fail ParseFloat or sort differently in UTF-8. */
const vectorTags = [
  ...new Set([
    ...tagVectors.flatMap((v) => v.tags as string[]),
    ...regexpVectors.map((v) => v.input).filter((t): t is string => typeof t === "string"),
  ]),
];
const prefixes = ["", "main-", "main-abc-", "main-0f-", "RELEASE.", "v", "x-"];
const middles = [
  "0",
  "01",
  "1",
  "1.0",
  "-0",
  "1e0",
  "NaN",
  "Inf",
  "9007199254740993",
  "123456789012345",
  "1234567890123456",
  "1e400",
  "abc",
  "\uE000",
  "\u{1F600}",
  "Z",
  "",
];
const suffixes = ["", "Z", "-rc.1"];

const tagArb = fc.oneof(
  fc.constantFrom(...vectorTags),
  fc
    .tuple(
      fc.constantFrom(...prefixes),
      fc.array(fc.constantFrom(...middles), { minLength: 1, maxLength: 3 }),
      fc.constantFrom(...suffixes),
    )
    .map(([p, m, s]) => p + m.join("") + s),
);

const choiceArb: fc.Arbitrary<ImagePolicyChoice> = fc.oneof(
  fc.constantFrom("asc", "desc", "ASC", "Desc").map((order) => ({ alphabetical: { order } })),
  fc.constantFrom("asc", "desc").map((order) => ({ numerical: { order } })),
);

type Outcome = { tag: string } | { code: string; message: string };

/** Flux's steps with the map: filter every tag, rank the distinct keys, map the winner back. */
function plain(tags: readonly string[], choice: ImagePolicyChoice, spec: TagFilterSpec): Outcome {
  try {
    const policer = policerFromSpec(choice);
    if (tags.length === 0) return { code: "NO_TAGS", message: "" };
    const keys = compileTagFilter(spec).apply(tags);
    return { tag: keys.get(policer.latest([...keys.keys()])) as string };
  } catch (error) {
    if (error instanceof TagPolicyError) return { code: error.code, message: error.message };
    throw error;
  }
}

function selected(
  tags: readonly string[],
  choice: ImagePolicyChoice,
  spec: TagFilterSpec,
): Outcome {
  try {
    if (tags.length === 0) return { code: "NO_TAGS", message: "" };
    return { tag: compileTagPolicy({ policy: choice, filterTags: spec }).select(tags) };
  } catch (error) {
    if (error instanceof TagPolicyError) return { code: error.code, message: error.message };
    throw error;
  }
}

describe("singlePassSelect", () => {
  it("draws on both suites' patterns", () => {
    expect(patterns.length).toBeGreaterThan(100);
    expect(extracts.length).toBeGreaterThan(20);
  });

  it("selects the tag the map-and-rank path selects, or defers to it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.constantFrom(...extracts),
        choiceArb,
        fc.array(tagArb, { maxLength: 40 }),
        (pattern, extract, choice, tags) => {
          const spec = { pattern, extract };
          const expected = plain(tags, choice, spec);
          expect(selected(tags, choice, spec)).toEqual(expected);
          const fast = singlePassSelect(tags, compileTagFilter(spec), policerFromSpec(choice));
          if (fast !== undefined) expect({ tag: fast }).toEqual(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("agrees on Flux-shaped patterns over lists full of shared keys and ties", () => {
    // Few distinct tags, so keys repeat, values tie and odd numbers meet.
    const dense = fc
      .tuple(
        fc.constantFrom("", "main-a-", "main-b-", "a"),
        fc.constantFrom(
          "0",
          "01",
          "1",
          "1.0",
          "-0",
          "1e0",
          "2",
          "NaN",
          "Inf",
          "x",
          "\uE000",
          "\u{1F600}",
        ),
      )
      .map(([p, m]) => p + m);
    fc.assert(
      fc.property(
        fc.constantFrom(
          "^(.*)$",
          "^(?:main-[0-9a-f]+-)?(?P<ts>.*)$",
          "^main-[0-9a-f]+-(?P<ts>[0-9]+)$",
          "-(?P<ts>[^-]*)$",
          "^(a)?(.*)$",
          "",
        ),
        fc.constantFrom("", "$1", "$ts", "$2", "${1}", "k$1"),
        choiceArb,
        fc.array(dense, { maxLength: 12 }),
        (pattern, extract, choice, tags) => {
          const spec = { pattern, extract };
          const expected = plain(tags, choice, spec);
          expect(selected(tags, choice, spec)).toEqual(expected);
          const fast = singlePassSelect(tags, compileTagFilter(spec), policerFromSpec(choice));
          if (fast !== undefined) expect({ tag: fast }).toEqual(expected);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("agrees on numbers spelled several ways (ties, NaN, -0, failures)", () => {
    const spelled = fc
      .tuple(
        fc.constantFrom("", "main-a-", "main-b-"),
        fc.constantFrom("1", "01", "1.0", "1e0", "2", "02", "0", "-0", "NaN", "Inf", "+Inf", "x"),
      )
      .map(([p, m]) => p + m);
    fc.assert(
      fc.property(
        fc.constantFrom("-(?P<ts>[^-]*)$", "^(?:main-[a-z]-)?(.*)$"),
        fc.constantFrom("$1", "$ts", ""),
        fc.constantFrom("asc", "desc").map((order) => ({ numerical: { order } })),
        fc.array(spelled, { maxLength: 8 }),
        (pattern, extract, choice, tags) => {
          const spec = { pattern, extract };
          const expected = plain(tags, choice, spec);
          expect(selected(tags, choice, spec)).toEqual(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("settles the common cases itself", () => {
    const numerical = policerFromSpec({ numerical: { order: "asc" } });
    const ts = compileTagFilter({ pattern: "^main-[0-9a-f]+-(?P<ts>[0-9]+)$", extract: "$ts" });
    // A later tag with the winning key wins, as the map replaces it.
    expect(
      singlePassSelect(["main-a-5", "main-b-9", "dev", "main-c-9", "main-d-1"], ts, numerical),
    ).toBe("main-c-9");
    // Two distinct keys of the winning value: Flux's order decides, so the plain path does.
    expect(singlePassSelect(["main-a-9", "main-b-09"], ts, numerical)).toBeUndefined();
    expect(singlePassSelect(["dev"], ts, numerical)).toBeUndefined();
    const desc = policerFromSpec({ alphabetical: { order: "desc" } });
    const rel = compileTagFilter({ pattern: "^RELEASE\\.(?P<ts>.*)Z$", extract: "$ts" });
    expect(
      singlePassSelect(["RELEASE.b-1Z", "RELEASE.a-1Z", "RELEASE.aZ", "RELEASE.a-1Z"], rel, desc),
    ).toBe("RELEASE.aZ");
    expect(singlePassSelect(["main-a-2", "main-b-1", "main-c-1", "main-d-3"], ts, desc)).toBe(
      "main-c-1",
    );
  });
});
