import { describe, expect, it } from "vitest";
import { compileRegexp } from "./compile.js";
import { isRegexpError, RegexpError } from "./errors.js";
import { compileMatchDfa } from "./match-dfa.js";
import { compilePike } from "./pikevm.js";
import { mustCompile } from "./program.test-support.js";

function compileError(pattern: string): RegexpError {
  try {
    compileRegexp(pattern);
  } catch (error) {
    if (isRegexpError(error)) return error;
    throw error;
  }
  throw new Error(`${pattern} compiled`);
}

describe("compileRegexp rejects what Go rejects, with Go's message", () => {
  it.each([
    { pattern: "^test-(.*", message: "error parsing regexp: missing closing ): `^test-(.*`" },
    { pattern: "[=", message: "error parsing regexp: missing closing ]: `[=`" },
    { pattern: "\\1", message: "error parsing regexp: invalid escape sequence: `\\1`" },
    {
      pattern: "(?=a)",
      message: "error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    },
    { pattern: "(?<=a)b", message: "error parsing regexp: invalid named capture: `(?<=a)b`" },
    { pattern: "a++", message: "error parsing regexp: invalid nested repetition operator: `++`" },
    { pattern: "a{1001}", message: "error parsing regexp: invalid repeat count: `{1001}`" },
    { pattern: "\\Z", message: "error parsing regexp: invalid escape sequence: `\\Z`" },
    // Go reads the name `[:]:]` here (a `:]` follows the `[:`).
    { pattern: "[[:]:]]", message: "error parsing regexp: invalid character class range: `[:]:]`" },
    { pattern: "[[:]x(", message: "error parsing regexp: missing closing ): `[[:]x(`" },
    { pattern: "\\x[[:]]", message: "error parsing regexp: invalid escape sequence: `\\x[[`" },
    // Go prints the fragment even when it is empty.
    {
      pattern: "a\\",
      message: "error parsing regexp: trailing backslash at end of expression: ``",
    },
    // Go reads a group name only when something follows the `<`.
    {
      pattern: "a(?P<",
      message: "error parsing regexp: invalid or unsupported Perl syntax: `(?P`",
    },
    { pattern: "(?<", message: "error parsing regexp: invalid or unsupported Perl syntax: `(?<`" },
    {
      pattern: `${"(".repeat(1001)}${")".repeat(1001)}`,
      message: `error parsing regexp: expression nests too deeply: \`${"(".repeat(1001)}${")".repeat(1001)}\``,
    },
    // A lone surrogate is text no Go string can hold.
    { pattern: "a\uD800b", message: "error parsing regexp: invalid UTF-8: `\uD800b`" },
  ])("$pattern", ({ pattern, message }) => {
    const error = compileError(pattern);
    expect(error.code).toBe("COMPILE_ERROR");
    expect(error.pattern).toBe(pattern);
    expect(error.message).toBe(message);
    expect(error).toBeInstanceOf(RegexpError);
  });

  it("keeps the original names in messages about renamed duplicate groups", () => {
    const error = compileError("(?P<v>a)(?P<v>b)(");
    expect(error.message).toBe("error parsing regexp: missing closing ): `(?P<v>a)(?P<v>b)(`");
  });

  it("recognises a RegexpError from another copy of the package by brand and name", () => {
    const foreign = Object.assign(new Error("x"), { name: "RegexpError", code: "COMPILE_ERROR" });
    expect(isRegexpError(foreign)).toBe(false); // a look-alike without the brand
    Object.defineProperty(foreign, Symbol.for("@kubeimg/core.KubeimgError"), { value: true });
    expect(isRegexpError(foreign)).toBe(true);
    expect(isRegexpError(new Error("x"))).toBe(false);
  });
});

describe("compileRegexp accepts Go syntax JavaScript lacks", () => {
  it.each([
    { pattern: "(?P<n>a)", input: "a", want: true },
    { pattern: "(?<n>a)", input: "a", want: true },
    { pattern: "(?i)K", input: "\u212A", want: true },
    { pattern: "[[:alpha:]]+\\z", input: "ab", want: true },
    { pattern: "\\pL", input: "é", want: true },
    { pattern: "\\Qa.b\\E", input: "axb", want: false },
    { pattern: "a{,3}", input: "a{,3}", want: true },
    // `[[:]]` is the class of `[` and `:`, then a literal `]` (no POSIX class).
    { pattern: "[[:]]", input: ":]", want: true },
    { pattern: "[[:]]", input: "[", want: false },
    { pattern: "^[^[:]]$", input: "a]", want: true },
    { pattern: "^[\\d-[:]+$", input: "9-[:", want: true }, // no range after `\d`
    { pattern: "\\d", input: "١", want: false }, // \d is ASCII only
    { pattern: "^a$", input: "a\n", want: false }, // $ is end of text without (?m)
  ])("$pattern on $input", ({ pattern, input, want }) => {
    expect(compileRegexp(pattern).matchString(input)).toBe(want);
  });
});

describe("GoRegexp", () => {
  it("numbers named and unnamed groups together and allows repeated names", () => {
    const re = compileRegexp("(?P<v>a)(b)(?P<v>c)(?<w>d)");
    expect(re.numSubexp).toBe(4);
    expect(re.subexpNames()).toEqual(["", "v", "", "v", "w"]);
    expect(re.subexpIndex("v")).toBe(1);
    expect(re.subexpIndex("w")).toBe(4);
    expect(re.subexpIndex("")).toBe(-1);
  });

  it("returns string indexes and -1 for groups that did not take part", () => {
    const re = compileRegexp("(x)?(é+)(b)");
    expect(re.findStringSubmatchIndex("aéébc")).toEqual([1, 4, -1, -1, 1, 3, 3, 4]);
    expect(re.findStringSubmatchIndex("zzz")).toBeNull();
  });

  it("captures only the groups asked for", () => {
    const re = compileRegexp("(a)(b)(c)");
    expect(re.findStringSubmatchIndex("abc", { groups: 1 })).toEqual([0, 3, 0, 1, -1, -1, -1, -1]);
    expect(re.findStringSubmatchIndex("abc", { groups: 0 })).toEqual([
      0, 3, -1, -1, -1, -1, -1, -1,
    ]);
    expect(re.findStringSubmatchIndex("xyz", { groups: 1 })).toBeNull();
  });

  it("finds submatch text and all matches as Go does", () => {
    const re = compileRegexp("(a)(x)?");
    expect(re.findStringSubmatch("ba")).toEqual(["a", "a", ""]);
    expect(re.findStringSubmatch("b")).toBeNull();
    expect(re.findAllStringSubmatchIndex("aba")).toEqual([
      [0, 1, 0, 1, -1, -1],
      [2, 3, 2, 3, -1, -1],
    ]);
    expect(re.findAllStringSubmatchIndex("aba", 1)).toHaveLength(1);
    expect(re.findAllStringSubmatchIndex("aba", 0)).toBeNull();
    // An empty match right after a previous match is skipped, as in Go.
    expect(compileRegexp("a*").findAllStringSubmatchIndex("baaac")).toEqual([
      [0, 0],
      [1, 4],
      [5, 5],
    ]);
  });

  it("runs in linear time on a catastrophic pattern (ReDoS)", () => {
    const re = compileRegexp("^(a+)+$");
    const input = `${"a".repeat(1_000_000)}!`;
    expect(re.matchString(input)).toBe(false);
    expect(re.findStringSubmatchIndex(input)).toBeNull();
    // A match over a long input goes through the linear NFA, captures included.
    expect(compileRegexp("(a+)+").findStringSubmatchIndex(input)?.slice(0, 4)).toEqual([
      0, 1_000_000, 0, 1_000_000,
    ]);
  });

  it.each(["^(a+)+$", "(a+)+$", "(a|aa)*b"])(
    "does work linear in the input on the catastrophic %s, counted in engine steps",
    (pattern) => {
      // The engines compileRegexp gives a long input: the match-only DFA for
      // matchString, the Pike VM for submatches. Steps, not time, so that a
      // busy machine cannot fail this.
      const c = mustCompile(pattern);
      const stepsAt = (n: number) => {
        const input = `${"a".repeat(n)}!`;
        const dfa = compileMatchDfa(c.prog, c.cond);
        expect(dfa?.test(input)).toBe(false);
        const vm = compilePike(c.prog, c.cond, c.prefix);
        const cap = new Int32Array(c.ncap);
        expect(vm.exec(input, 0, cap, c.ncap)).toBe(false);
        expect(vm.steps()).toBeLessThanOrEqual((n + 2) * c.prog.inst.length);
        return { dfa: dfa?.steps() ?? 0, pike: vm.steps() };
      };
      const small = stepsAt(2_000);
      const large = stepsAt(16_000);
      // Eight times the input, eight times the work (plus the fixed cost of
      // building the DFA's states once); a quadratic engine would do 64 times.
      expect(large.dfa).toBeLessThanOrEqual(8 * small.dfa * 1.25);
      expect(large.pike).toBeLessThanOrEqual(8 * small.pike * 1.25);
    },
  );
});
