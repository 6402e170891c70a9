import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { sanitizeLines, sanitizeText } from "./sanitize.js";
import { unsafeCharacters } from "./unsafe-chars.test-support.js";
import { writeResult } from "./write.js";

describe("sanitizeText", () => {
  it.each([
    { input: "1.2.0", want: "1.2.0" },
    { input: "a\u001b[2Jb\nc", want: "a?[2Jb?c" },
    { input: "\u001b]0;title\u0007", want: "?]0;title?" },
    { input: "x\u009b31mred", want: "x?31mred" },
    { input: "\u202eevil", want: "?evil" },
    { input: "über 日本 ✓", want: "über 日本 ✓" },
  ])("$input", ({ input, want }) => {
    expect(sanitizeText(input)).toBe(want);
  });

  it("leaves no unsafe character and keeps the length", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const out = sanitizeText(s);
        expect(unsafeCharacters(out)).toEqual([]);
        expect(out.length).toBe(s.length);
      }),
    );
  });

  it("sanitizeLines keeps line breaks only", () => {
    expect(sanitizeLines("a\u001b\nb\r")).toBe("a?\nb?");
  });
});

describe("writeResult", () => {
  const captured = () => {
    const parts: string[] = [];
    const io = {
      stdout: { write: (t: string) => void parts.push(t) },
      stderr: { write: () => {} },
      env: {},
      cwd: "/",
      fetch: globalThis.fetch,
    };
    return { io, text: () => parts.join("") };
  };
  const plain = (t: string) => t;
  const colors = {
    enabled: false,
    bold: plain,
    dim: plain,
    red: plain,
    green: plain,
    yellow: plain,
    cyan: plain,
  };

  it("JSON and YAML carry every string unchanged, with no raw control character", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: "binary" }), fc.string({ unit: "binary" })),
        (data) => {
          const json = captured();
          writeResult(json.io, "json", data, () => "", colors);
          expect(unsafeCharacters(json.text(), { newlines: true })).toEqual([]);
          expect(JSON.parse(json.text())).toEqual(data);
          const yaml = captured();
          writeResult(yaml.io, "yaml", data, () => "", colors);
          // A tab is inert on a terminal; the YAML writer may keep one raw.
          expect(
            unsafeCharacters(yaml.text(), { newlines: true }).filter((c) => c !== "\t"),
          ).toEqual([]);
          expect(parseYaml(yaml.text()) ?? {}).toEqual(data);
        },
      ),
      { numRuns: 300 },
    );
  });
});
