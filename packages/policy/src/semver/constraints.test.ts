import { describe, expect, it, vi } from "vitest";
import { parseConstraints } from "./constraints.js";
import { isSemverError } from "./errors.js";
import { scanWork } from "./grammar.js";
import { comparators } from "./operators.js";
import { parseVersion } from "./version.js";

/**
 * Patterns compiled and characters handed to the Go regexp engine, which the
 * constraint parser does not use: it scans the grammar by hand.
 */
const regexpWork = vi.hoisted(() => ({ compiled: 0, chars: 0 }));
vi.mock("@kubeimg/core/regexp", async (importOriginal) => {
  const real = await importOriginal<typeof import("@kubeimg/core/regexp")>();
  return {
    ...real,
    compileRegexp: (pattern: string) => {
      regexpWork.compiled++;
      return new Proxy(real.compileRegexp(pattern), {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (typeof args[0] === "string") regexpWork.chars += args[0].length;
            return Reflect.apply(value, target, args);
          };
        },
      });
    },
  };
});

/** All the matching work a parse does: the scanner's steps and any regexp engine's characters. */
function matchingWork(parse: () => void): number {
  scanWork.steps = 0;
  regexpWork.chars = 0;
  parse();
  return scanWork.steps + regexpWork.chars;
}

const check = (constraint: string, version: string) =>
  parseConstraints(constraint).check(parseVersion(version));

describe("the operator table", () => {
  it.each([
    // = and no operator: equality, or ~ with a wildcard
    { c: "1.2.3", v: "1.2.3", want: true },
    { c: "=1.2.3", v: "1.2.4", want: false },
    { c: "1.2.x", v: "1.2.9", want: true },
    // !=, including wildcards
    { c: "!=1.2.3", v: "1.2.4", want: true },
    { c: "!=1.x", v: "1.9.0", want: false },
    { c: "!=1.x", v: "2.0.0", want: true },
    // > and <, with partial versions
    { c: ">1", v: "1.9.9", want: false },
    { c: ">1", v: "2.0.0", want: true },
    { c: ">1.2", v: "1.2.9", want: false },
    { c: ">1.2", v: "1.3.0", want: true },
    { c: "<2", v: "1.9.9", want: true },
    // >=, => and <=, =<
    { c: ">=1.0.0", v: "1.0.0", want: true },
    { c: "=>1.0.0", v: "0.9.0", want: false },
    { c: "<=1.2", v: "1.2.9", want: true },
    { c: "=<1.2", v: "1.3.0", want: false },
    // ~ and ~>
    { c: "~1.2.3", v: "1.2.9", want: true },
    { c: "~1.2.3", v: "1.3.0", want: false },
    { c: "~>1", v: "1.9.0", want: true },
    { c: "~0.0.0", v: "7.0.0", want: true }, // ~0.0.0 matches every release
    // ^
    { c: "^1.2.3", v: "1.9.0", want: true },
    { c: "^1.2.3", v: "2.0.0", want: false },
    { c: "^0.2.3", v: "0.3.0", want: false },
    { c: "^0.0.3", v: "0.0.4", want: false },
    { c: "^*", v: "0.0.0", want: true }, // ^* is ^0.0.0
    { c: "^*", v: "1.0.0", want: false },
    { c: ">*", v: "0.0.1", want: true }, // >* is >0.0.0
    // hyphen ranges, AND by space and comma, OR
    { c: "1.2 - 1.4", v: "1.4.9", want: true },
    { c: "1.2 - 1.4", v: "1.5.0", want: false },
    { c: ">= 1.2, < 2", v: "1.9.0", want: true },
    { c: ">=1.2 <2", v: "2.0.0", want: false },
    { c: "<1 || >=3", v: "3.1.0", want: true },
  ])("$c with $v", ({ c, v, want }) => {
    expect(check(c, v)).toBe(want);
  });
});

describe("the per-group pre-release rule (containsPre)", () => {
  it.each([
    // No pre-release in the group: pre-releases never match.
    { c: ">=1.0.0", v: "1.2.0-rc.1", want: false },
    { c: "*", v: "1.0.0-0", want: false },
    // A pre-release anywhere in the group admits pre-releases of any version.
    { c: ">=1.2.3-alpha", v: "1.3.3-1", want: true },
    { c: ">=1.2.3-0 <2", v: "1.5.0-rc.1", want: true },
    { c: "*-0", v: "1.2.3-alpha.1", want: true },
    { c: "^1.x-0", v: "1.4.0-rc.1", want: true },
    // The rule is per group: the other side of || does not help.
    { c: ">=2.0.0-0 || >=1.0.0", v: "1.5.0-rc.1", want: false },
  ])("$c with $v", ({ c, v, want }) => {
    expect(check(c, v)).toBe(want);
  });

  it("admits every pre-release with includePrerelease", () => {
    const c = parseConstraints(">=1.0.0", { includePrerelease: true });
    expect(c.check(parseVersion("1.2.0-rc.1"))).toBe(true);
  });
});

describe("grammar corners (answers recorded from the Go upstream)", () => {
  it.each([
    // A wildcard major makes the constraint 0.0.0: the rest is never parsed.
    { c: "*.|", v: "1.0.0", want: true },
    { c: "x.99999999999999999999999", v: "5.0.0", want: true },
    { c: "x.18446744073709551616", v: "1.0.0", want: true },
    // A wildcard minor drops the patch the same way.
    { c: "1.x.01", v: "1.7.0", want: true },
    { c: "1.x.99999999999999999999999", v: "2.0.0", want: false },
    // ^x.1.2 is ^0.0.0: only 0.0.0.
    { c: "^x.1.2", v: "0.0.0", want: true },
    { c: "^x.1.2", v: "0.0.1", want: false },
    // A pre-release on a wildcard constraint opts the group in.
    { c: "~x.x.1-0", v: "3.0.0-alpha", want: true },
    { c: ">1.2.x-0", v: "1.3.0-rc.1", want: true },
    // != on a wildcard patch compares the pre-releases.
    { c: "!=1.2.x-beta", v: "1.2.5-beta", want: false },
    { c: "!=1.2.x-beta", v: "1.2.5-alpha", want: true },
    // Build metadata: kept on a full version (leading zeros allowed), dropped on a partial one.
    { c: "=1.2.3+01.meta", v: "1.2.3", want: true },
    { c: "1.2+meta", v: "1.2.5", want: true },
    // Form feed and carriage return are whitespace (Go's \s).
    { c: ">=\f1.0.0,\r<2", v: "1.5.0", want: true },
    { c: ">=v1.2.3 <v2", v: "v1.9.0", want: true },
    // A space before a comma still separates; both constraints must hold.
    { c: "1.0.0 ,2.0.0", v: "1.0.0", want: false },
    { c: ">=18446744073709551615.0.0", v: "18446744073709551615.1.0", want: true },
  ])("$c with $v", ({ c, v, want }) => {
    expect(check(c, v)).toBe(want);
  });

  it.each([
    { c: ">=\v1.0.0" }, // vertical tab is not Go's \s
    { c: ">=\u00a01.0.0" }, // nor is a no-break space
    { c: "1.2.|" }, // a | in a part that is parsed
    { c: "1 -2" }, // a hyphen range needs spaces on both sides
    { c: ">=18446744073709551616" }, // above uint64
  ])("$c is not a constraint", ({ c }) => {
    expect(() => parseConstraints(c)).toThrow(
      expect.objectContaining({ code: "CONSTRAINT_INVALID" }),
    );
  });
});

describe("parseConstraints errors", () => {
  it.each([
    { c: "", message: 'improper constraint: ""' },
    { c: "*-*", message: 'improper constraint: "*-*"' },
    { c: ">>1.0.0", message: 'improper constraint: ">>1.0.0"' },
    { c: "1.0 \t|| x!", message: 'improper constraint: " x!"' },
    { c: "1|2", message: "constraint parser error" },
    { c: "1.2.3-01", message: "constraint parser error" },
  ])("$c", ({ c, message }) => {
    try {
      parseConstraints(c);
      expect.unreachable();
    } catch (error) {
      expect(isSemverError(error) && error.code).toBe("CONSTRAINT_INVALID");
      expect((error as Error).message).toBe(message);
    }
  });

  it("parses a crafted constraint in linear time", () => {
    // Counted in steps, not time, so that a busy machine cannot fail this.
    // v3.4.0 has no length limit (v3.5.0 refuses these before matching), so
    // the matching itself is what is measured.
    const workAt = (n: number) =>
      matchingWork(() =>
        expect(() => parseConstraints(`${"1 ".repeat(n)}   ,   !`, { semver: "v3.4.0" })).toThrow(
          expect.objectContaining({ code: "CONSTRAINT_INVALID" }),
        ),
      );
    const small = workAt(2000);
    expect(small).toBeGreaterThanOrEqual(4000);
    // Eight times the text, at most eight times the work (and some slack); matching each suffix again would be 64 times.
    expect(workAt(16_000)).toBeLessThanOrEqual(8 * small * 1.25);
  });

  it.each([
    // Each start inside a long number or identifier run, or a whitespace run, sees the same run.
    { name: "a long number", unit: "1", tail: " ! " },
    { name: "dash-joined identifiers", unit: "1-", tail: "1 !" },
    { name: "dot-joined identifiers", unit: ".1", tail: " !", head: "1-1" },
    { name: "whitespace", unit: " ", tail: "!" },
    { name: "pre-release and metadata chains", unit: "1-1+", tail: "1 ! " },
  ])("searches $name in linear steps", ({ unit, tail, head }) => {
    const workAt = (n: number) =>
      matchingWork(() =>
        expect(() =>
          parseConstraints(`${head ?? ""}${unit.repeat(n)}${tail}`, { semver: "v3.4.0" }),
        ).toThrow(expect.objectContaining({ code: "CONSTRAINT_INVALID" })),
      );
    const small = workAt(1000);
    expect(small).toBeGreaterThanOrEqual(1000);
    expect(workAt(8000)).toBeLessThanOrEqual(8 * small * 1.25);
  });

  it("parses without compiling a regular expression", async () => {
    // A fresh process would pay for compiling patterns on its first parse.
    vi.resetModules();
    const fresh = await import("./constraints.js");
    regexpWork.compiled = 0;
    fresh.parseConstraints(">= 1.2.3, < 2 || 3.x - 4 || ~5");
    expect(() => fresh.parseConstraints("1 !")).toThrow();
    expect(regexpWork.compiled).toBe(0);
  });
});

describe("Constraints", () => {
  it("explains a miss with Masterminds' Validate messages", () => {
    const c = parseConstraints(">=2.0, <3 || ~1.5");
    expect(c.validate(parseVersion("1.6.0"))).toEqual({
      ok: false,
      reasons: [
        '"1.6.0" is less than "2.0"',
        '"1.6.0" does not have same major and minor version as "1.5"',
      ],
    });
    expect(c.validate(parseVersion("2.1.0"))).toEqual({ ok: true, reasons: [] });
    expect(c.validate(parseVersion("2.1.0-rc.1")).reasons).toEqual([
      '"2.1.0-rc.1" is a prerelease version and the constraint is only looking for release versions',
    ]);
  });

  it("prints as Masterminds' String()", () => {
    expect(parseConstraints(">= 1.2, < 2 || ~3").toString()).toBe(">=1.2 <2 || ~3");
    expect(parseConstraints("1 - 2").toString()).toBe(">=1 <=2");
  });
});

describe("comparators", () => {
  it.each([
    { constraint: "~1.2", version: "1.3.0", want: "MAJOR_MINOR_DIFFERS" },
    { constraint: "~1.2", version: "1.2.9", want: undefined },
  ])("$constraint against $version", ({ constraint, version, want }) => {
    const [c] = parseConstraints(constraint).groups[0] ?? [];
    if (c === undefined) throw new Error(`no constraint in ${constraint}`);
    expect(comparators[c.operator](parseVersion(version), c, false)).toBe(want);
  });
});
