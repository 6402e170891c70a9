import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLiteralFrame } from "./literal-frame.js";
import { mustCompile, reference as pike } from "./program.test-support.js";

/** The Pike VM's answer (Go's semantics), the plain twin of the frame matcher. */
function reference(pattern: string, input: string): number[] | null {
  return pike(mustCompile(pattern), input);
}

function frame(pattern: string, input: string): number[] | null {
  const m = compileLiteralFrame(pattern);
  if (m === undefined) throw new Error(`${pattern} is not a literal frame`);
  const cap = new Int32Array(4);
  return m.exec(input, cap, 4) ? [...cap] : null;
}

describe("compileLiteralFrame", () => {
  it.each([
    ["^RELEASE\\.(?P<ts>.*)Z$", true],
    ["^a(.+)b$", true],
    ["^(.*)$", true],
    ["^v(?<n>.*)\\-x$", true],
    ["^a(.*)b", false],
    ["a(.*)b$", false],
    ["^a(.*)(b)$", false],
    ["^(?i)a(.*)b$", false],
    ["^a(.*?)b$", false],
    ["^a(?:.*)b$", false],
    ["^a\\d(.*)b$", false],
  ])("%s: %s", (pattern, recognised) => {
    expect(compileLiteralFrame(pattern) !== undefined).toBe(recognised);
  });

  it("answers exactly as Go's engine on generated frames and inputs", () => {
    const literal = fc
      .array(fc.constantFrom("a", "b", "Z", "\\.", "-", "\\$", "_", "\\\\", "/"), { maxLength: 3 })
      .map((xs) => xs.join(""));
    const pattern = fc
      .tuple(
        literal,
        fc.constantFrom("(", "(?P<ts>", "(?<x>"),
        fc.constantFrom(".*", ".+"),
        literal,
      )
      .map(([p, open, any, s]) => `^${p}${open}${any})${s}$`);
    const input = fc
      .array(fc.constantFrom("a", "b", "Z", ".", "-", "$", "_", "\\", "/", "\n", "é", "😀"), {
        maxLength: 9,
      })
      .map((xs) => xs.join(""));
    fc.assert(
      fc.property(pattern, input, (p, s) => {
        expect(frame(p, s), `${p} on ${JSON.stringify(s)}`).toEqual(reference(p, s));
      }),
      { numRuns: 4000 },
    );
  });

  it("answers as Go's engine on tags built from the frame's own literals", () => {
    const p = "^RELEASE\\.(?P<ts>.*)Z$";
    const tag = fc
      .array(fc.constantFrom("RELEASE", ".", "Z", "2024-01-01T00-00-00", "\n", "x"), {
        maxLength: 5,
      })
      .map((xs) => xs.join(""));
    fc.assert(
      fc.property(tag, (s) => {
        expect(frame(p, s)).toEqual(reference(p, s));
      }),
      { numRuns: 2000 },
    );
  });
});
