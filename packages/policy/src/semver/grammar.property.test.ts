/**
 * The hand-written constraint scanner against Masterminds' four patterns,
 * compiled by the RE2 port (`@kubeimg/core/regexp`), for each Go call
 * `NewConstraint` makes: same match, same submatches, same successive
 * matches. The patterns are written here exactly as in `constraints.go`
 * (with the operator list spelled out), so this file is the oracle and the
 * shipped code carries no regular expression.
 */
import { compileRegexp } from "@kubeimg/core/regexp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  findConstraintsInGroup,
  findHyphenRanges,
  isAndGroup,
  matchSingleConstraint,
  scanWork,
} from "./grammar.js";

const ops = "=||!=|>|<|>=|=>|<=|=<|~|~>|\\^";
const cv =
  "v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?" +
  "(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?";

const oracle = {
  single: compileRegexp(`^\\s*(${ops})\\s*(${cv})\\s*$`),
  range: compileRegexp(`\\s*(${cv})\\s+-\\s+(${cv})\\s*`),
  inGroup: compileRegexp(`(${ops})\\s*(${cv})`),
  andGroup: compileRegexp(
    `^(\\s*(${ops})\\s*(${cv})\\s*)((?:\\s+|,\\s*)(${ops})\\s*(${cv})\\s*)*$`,
  ),
};

/** Compares the scanner with the oracle on `s`; returns the first difference, or undefined. */
function differs(s: string): string | undefined {
  const pairs: [string, unknown, unknown][] = [
    ["singleConstraint", matchSingleConstraint(s), oracle.single.findStringSubmatch(s)],
    ["hyphenRange", findHyphenRanges(s), oracle.range.findAllStringSubmatchIndex(s)],
    ["constraintInGroup", findConstraintsInGroup(s), oracle.inGroup.findAllStringSubmatchIndex(s)],
    ["andGroup", isAndGroup(s), oracle.andGroup.matchString(s)],
  ];
  for (const [name, got, want] of pairs) {
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      return `${name} on ${JSON.stringify(s)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
    }
  }
  return undefined;
}

/** Single characters of the grammar's alphabet and its near misses. */
const char = fc.constantFrom(
  ..."0123456789",
  ..."0123456789",
  "x",
  "X",
  "*",
  "|",
  "v",
  "V",
  ".",
  ".",
  "-",
  "-",
  "+",
  ",",
  "=",
  "!",
  ">",
  "<",
  "~",
  "^",
  " ",
  " ",
  "\t",
  "\n",
  "\f",
  "\r",
  "\v",
  "\u00a0",
  "\u0085",
  "\u2028",
  "a",
  "b",
  "z",
  "A",
  "Z",
  "_",
  "/",
);

/** Tokens: operators, separators, versions, whitespace runs, random text. */
const token = fc.oneof(
  { weight: 6, arbitrary: char },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "=",
      "!=",
      ">",
      "<",
      ">=",
      "=>",
      "<=",
      "=<",
      "~",
      "~>",
      "^",
      "||",
      " - ",
      ", ",
      "  ",
      "\t\n",
      "1.2.3",
      "v1.2",
      "x.X.*",
      "1.*",
      "0.0.0",
      "-rc.1",
      "-alpha-1.b",
      "+build.7",
      "+x.y",
      "1|2",
      "..",
      "-.",
      "+-",
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-composite", maxLength: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 2 }) },
);

const grammarText = fc.array(token, { maxLength: 24 }).map((parts) => parts.join(""));

const ws = fc.constantFrom("", "", " ", "  ", "\t", "\n", "\f", "\r", "\v", " \r\n");
const number = fc.oneof(
  fc.stringMatching(/^[0-9]{1,3}$/),
  fc.constantFrom("x", "X", "*", "|", "1|2", "0"),
);
const idents = fc
  .array(fc.stringMatching(/^[0-9A-Za-z-]{1,4}$/), { minLength: 1, maxLength: 3 })
  .map((a) => a.join("."));
const version = fc
  .tuple(
    fc.constantFrom("", "v"),
    number,
    fc.option(number, { nil: undefined }),
    fc.option(number, { nil: undefined }),
    fc.option(idents, { nil: undefined }),
    fc.option(idents, { nil: undefined }),
  )
  .map(
    ([v, major, minor, patch, pre, meta]) =>
      `${v}${major}${minor === undefined ? "" : `.${minor}`}${patch === undefined ? "" : `.${patch}`}` +
      `${pre === undefined ? "" : `-${pre}`}${meta === undefined ? "" : `+${meta}`}`,
  );
const op = fc.constantFrom("", "=", "!=", ">", "<", ">=", "=>", "<=", "=<", "~", "~>", "^");
const constraint = fc
  .tuple(ws, op, ws, version, ws)
  .map(([a, o, b, v, c]) => `${a}${o}${b}${v}${c}`);
const range = fc
  .tuple(ws, version, ws, ws, version, ws)
  .map(([a, v, b, c, w, d]) => `${a}${v}${b}-${c}${w}${d}`);
const group = fc.array(fc.oneof(constraint, range), { minLength: 1, maxLength: 4 }).chain((items) =>
  fc
    .array(fc.constantFrom(" ", ",", ", ", " ,", "\t", "", "||", " || "), {
      minLength: items.length,
      maxLength: items.length,
    })
    .map((seps) => items.map((item, k) => (k === 0 ? item : `${seps[k]}${item}`)).join("")),
);
/** A near-valid expression with one edit: a character inserted, dropped or replaced. */
const mutated = fc.tuple(group, fc.nat(), fc.nat(2), char).map(([s, at, kind, c]) => {
  const k = s.length === 0 ? 0 : at % (s.length + 1);
  if (kind === 0) return s.slice(0, k) + c + s.slice(k);
  if (kind === 1) return s.slice(0, k) + s.slice(k + 1);
  return s.slice(0, k) + c + s.slice(k + 1);
});

describe("constraint scanner = Masterminds' patterns through the RE2 port", () => {
  it.each([
    "",
    " ",
    "1",
    ">=1.0.0",
    ">= 1.0.0, < 2",
    "1 - 2",
    "1.2.3 - 4.5.6 || ^7",
    "=>1",
    "=<1",
    "~>1.2",
    "1.2.3.4 - 5",
    "1-1-1-1 - 2",
    ">=\v1.0.0",
    ">=\u00a01.0.0",
    "1\n",
    "v1.2.3-rc.1+meta.2",
    "1.2.3-a..b",
    "1.2.3+a.",
    "  1   -   2  ",
    "1 ,2",
    "1,,2",
  ])("%j", (s) => {
    expect(differs(s)).toBeUndefined();
  });

  it("agrees on text biased toward the grammar's alphabet", () => {
    fc.assert(
      fc.property(grammarText, (s) => differs(s) === undefined),
      { numRuns: 20_000 },
    );
  });

  it("agrees on near-valid expressions and their one-character edits", () => {
    fc.assert(
      fc.property(fc.oneof(group, mutated), (s) => differs(s) === undefined),
      { numRuns: 10_000 },
    );
  });
});

describe("constraint scanner work", () => {
  /** Steps of all four scans on `text`. */
  const stepsOn = (text: string) => {
    scanWork.steps = 0;
    matchSingleConstraint(text);
    findHyphenRanges(text);
    findConstraintsInGroup(text);
    isAndGroup(text);
    return scanWork.steps;
  };

  it.each([
    { name: "a long number", make: (n: number) => `${"1".repeat(n)} !` },
    { name: "dash-joined identifiers", make: (n: number) => `${"1-".repeat(n)}1 !` },
    { name: "dot-joined identifiers", make: (n: number) => `1-1${".1".repeat(n)} !` },
    { name: "pre-release and metadata chains", make: (n: number) => `${"1-1+".repeat(n)}1 !` },
    { name: "whitespace", make: (n: number) => `${" ".repeat(n)}!` },
    { name: "spaced versions", make: (n: number) => `${"1 ".repeat(n)}!` },
    { name: "hyphen ranges with a bad end", make: (n: number) => `${"1 - ".repeat(n)}!` },
    { name: "operators", make: (n: number) => `${"=>".repeat(n)}!` },
  ])("is linear on $name", ({ make }) => {
    const small = stepsOn(make(1000));
    expect(small).toBeGreaterThanOrEqual(1000);
    // Eight times the text, at most eight times the steps (and some slack).
    expect(stepsOn(make(8000))).toBeLessThanOrEqual(8 * small * 1.25);
  });
});
