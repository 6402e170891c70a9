/**
 * The shared, lazily compiled patterns against the plain way (compile
 * `^(P)$` at once and run it): the plain-subset recogniser never calls a
 * pattern valid that Go refuses, and a shared pattern answers exactly as
 * the compiled regexp does, over the regexp and tagpolicy vectors' patterns
 * and random syntax.
 */
import { readFileSync } from "node:fs";
import { compileRegexp, type GoRegexp } from "@kubeimg/core/regexp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anchoredPattern, knownValid } from "./anchored-pattern.js";

function vectorPatterns(suite: string): string[] {
  const url = new URL(`../../../../conformance/${suite}/vectors.jsonl`, import.meta.url);
  const out = new Set<string>();
  for (const line of readFileSync(url, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const v = JSON.parse(line) as { pattern?: unknown; filterTags?: { pattern?: unknown } };
    const p = v.pattern ?? v.filterTags?.pattern;
    if (typeof p === "string") out.add(p);
  }
  return [...out];
}

const vectorPatternList = [...vectorPatterns("regexp"), ...vectorPatterns("tagpolicy")];
const routingPatterns = [
  ".*",
  ".+",
  "docker\\.io/.+",
  "(docker|quay)\\.io/.+",
  "[a-z.]+/library/.+",
  "docker\\.io/library/(nginx|redis):.+",
  "x|docker\\.io/library/redis:7",
  "^main-[a-f0-9]+-(?P<ts>[0-9]+)",
  "/library/.+",
];
/** Random syntax: mostly metacharacters, so both valid and invalid patterns come up. */
const syntax = fc.stringMatching(/^[ab.\\()[\]|*+?^$dws{}2,:-]{0,12}$/);
const inputs = fc.stringMatching(/^[ab.\n/:0-9-]{0,10}$/);

function plain(pattern: string): GoRegexp | Error {
  try {
    return compileRegexp(`^(${pattern})$`);
  } catch (e) {
    return e as Error;
  }
}

describe("knownValid", () => {
  it.each([
    ["docker\\.io/library/(nginx|redis):.+", true],
    ["[a-z0-9]+\\d*", true],
    ["a**", false],
    ["a{2}", false],
    ["(?i)a", false],
    ["[z-a]", false],
    ["(a", false],
    ["a)", false],
    ["\\q", false],
    ["caf\u00e9", false],
  ])("%s -> %s", (pattern, want) => {
    expect(knownValid(pattern)).toBe(want);
  });

  it("never calls a pattern valid that Go refuses", () => {
    for (const p of [...vectorPatternList, ...routingPatterns]) {
      if (knownValid(p)) expect(plain(p)).not.toBeInstanceOf(Error);
    }
    fc.assert(
      fc.property(syntax, (p) => {
        if (knownValid(p)) expect(plain(p)).not.toBeInstanceOf(Error);
      }),
      { numRuns: 3000 },
    );
  });

  it("knows most of the vectors' valid patterns without compiling them", () => {
    const valid = vectorPatternList.filter((p) => !(plain(p) instanceof Error));
    expect(valid.filter(knownValid).length).toBeGreaterThan(valid.length / 4);
  });
});

describe("anchoredPattern", () => {
  const check = (pattern: string, s: string) => {
    const want = plain(pattern);
    const got = anchoredPattern(pattern);
    if (want instanceof Error) {
      expect(got.error?.message).toBe(want.message);
      return;
    }
    expect(got.error).toBeUndefined();
    expect(got.match(s)).toBe(want.matchString(s));
  };

  it("answers as the compiled regexp does, on the vectors' patterns", () => {
    fc.assert(
      fc.property(fc.constantFrom(...vectorPatternList, ...routingPatterns), inputs, check),
      { numRuns: 3000 },
    );
  });

  it("answers as the compiled regexp does, on random syntax", () => {
    fc.assert(fc.property(syntax, inputs, check), { numRuns: 3000 });
  });

  it("does not trust a literal prefix when the pattern closes kuik's group early", () => {
    // ^(a)|(b)$ matches "xb": the prefix "a" must not refuse it.
    expect(anchoredPattern("a)|(b").match("xb")).toBe(true);
    expect(anchoredPattern("ab)|(c").prefix).toBe("");
  });

  it("matches a whole reference against a registry pattern", () => {
    const p = anchoredPattern("quay\\.io/.+");
    expect(p.error).toBeUndefined();
    expect(p.match("quay.io/team/app:1")).toBe(true);
    expect(p.match("docker.io/quay.io/app:1")).toBe(false);
  });

  it("is shared by text", () => {
    expect(anchoredPattern("quay\\.io/.+")).toBe(anchoredPattern("quay\\.io/.+"));
  });
});
