import { describe, expect, it, vi } from "vitest";
import {
  MAX_TOML_DEPTH,
  parseToml,
  TomlDepthError,
  type TomlFlavor,
  TomlSyntaxError,
} from "./parse.js";

function accepts(text: string, flavor: TomlFlavor): boolean {
  try {
    parseToml(text, { flavor });
    return true;
  } catch (error) {
    if (error instanceof TomlSyntaxError) return false;
    throw error;
  }
}

// Each row was checked against go-toml v2.3.0 and BurntSushi/toml v1.5.0.
const cases: [string, boolean, boolean][] = [
  // text, go-toml accepts, BurntSushi accepts
  ["a = 1\na = 2", false, false],
  ['a = "\\e"', true, false],
  ['a = "\\x41"', false, false],
  ["a.b = 1\na = 2", false, true],
  ["a.b = 1\n[a]", false, true],
  ["a.b = 1\na.c = 1\na = 3", false, false],
  ["[t]\nb = 1\nx = [1, 2]\nx = 3", false, true],
  ["x = {a = 1}\n[x]\nb = 2", false, false],
  ["x = {a = 1}\nx.b = 2", false, true],
  ["[a.b.c]\nz = 9\n[a]\nb.c.t = 1", false, true],
  ["a = {b = 1,}", false, false],
  ["a = {\nb = 1}", false, false],
  ["a = 07:32", false, false],
  ["a = 1979-05-27T07:32:00+24:00", false, true],
  ["a = 1979-05-27T07:32:00.1234567891Z", true, false],
  ["a = 1979-05-27T07:32:60Z", false, false],
  ["a = 1979-02-29", false, false],
  ["a = 2000-02-29", true, true],
  ["\uFEFFa = 1", false, true],
  ["# \u007f", false, false],
  ["a = 9223372036854775807", true, true],
  ["a = 9223372036854775808", false, false],
  ["a = 0_1", false, false],
  ["a = 1_e2", false, false],
  ["a = 1e1000", false, false],
  ["a = 4e-400", true, true],
  ["a = -0x1", false, false],
  ['a = """x""""', true, true],
  ['a = """x""""""', false, false],
  ["[[a]]\n[a.b]\n[[a]]\n[a.b]", true, true],
  ["a = []\n[[a]]", false, false],
];

describe("parseToml", () => {
  it.each(cases)("%j: go-toml %s, BurntSushi %s", (text, goToml, burnt) => {
    expect(accepts(text, "go-toml")).toBe(goToml);
    expect(accepts(text, "burntsushi")).toBe(burnt);
  });

  it("lists table headers in file order, as containerd orders hosts", () => {
    const doc = parseToml('[host."b"]\n[host."a".header]\n[[x]]\n[host."b".header]\n');
    expect(doc.headers.map((h) => [h.keys, h.array])).toEqual([
      [["host", "b"], false],
      [["host", "a", "header"], false],
      [["x"], true],
      [["host", "b", "header"], false],
    ]);
  });

  it("reports the line and column of the offending character", () => {
    try {
      parseToml('server = "a"\n  ca = [1,, 2]\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TomlSyntaxError);
      expect((error as TomlSyntaxError).line).toBe(2);
      expect((error as TomlSyntaxError).column).toBe(11);
    }
  });

  it("decodes escapes, multi-line strings and numbers", () => {
    const doc = parseToml(
      'a = "\\u00e9\\t"\nb = """\\\n   x\\\n  y"""\nc = 0x_1\n'.replace("0x_1", "0xff"),
    );
    const get = (k: string) => doc.root.entries.get(k)?.value;
    expect(get("a")).toMatchObject({ kind: "string", value: "é\t" });
    expect(get("b")).toMatchObject({ kind: "string", value: "xy" });
    expect(get("c")).toMatchObject({ kind: "integer", value: 255n });
  });
});

/** Documents nested `depth` levels deep, one per way of nesting. */
const nestings: Record<string, (depth: number) => string> = {
  arrays: (n) => `a = ${"[".repeat(n - 1)}${"]".repeat(n - 1)}\n`,
  "inline tables": (n) => `${"a={".repeat(n - 1)}b=1${"}".repeat(n - 1)}\n`,
  "dotted key": (n) => `${Array(n).fill("a").join(".")} = 1\n`,
  header: (n) => `[${Array(n).fill("a").join(".")}]\nb = 1\n`.replace("b = 1", "").trimEnd(),
  "header, then dotted key and inline table": (n) =>
    `[${Array(n - 3)
      .fill("a")
      .join(".")}]\nb.c = {d = 1}\n`,
};

describe("parseToml per character", () => {
  it("reads bare keys and basic strings without a regular expression per character", () => {
    const key = "k".repeat(200);
    const text = `${key} = "${"v".repeat(200)}\\t${"w".repeat(50)}"\n[t.${key}]\n${key} = 'x'\n`;
    const test = vi.spyOn(RegExp.prototype, "test");
    const exec = vi.spyOn(RegExp.prototype, "exec");
    try {
      const doc = parseToml(text);
      const first = doc.root.entries.get(key)?.value;
      expect(first?.kind === "string" && first.value).toBe(`${"v".repeat(200)}\t${"w".repeat(50)}`);
      expect(test.mock.calls.length + exec.mock.calls.length).toBeLessThan(10);
    } finally {
      test.mockRestore();
      exec.mockRestore();
    }
  });
});

describe("parseToml nesting bound", () => {
  const flavors: TomlFlavor[] = ["go-toml", "burntsushi"];
  for (const [name, make] of Object.entries(nestings)) {
    for (const flavor of flavors) {
      it(`${name} (${flavor}): ${MAX_TOML_DEPTH} levels parse, one more is a TomlDepthError`, () => {
        expect(() => parseToml(make(MAX_TOML_DEPTH), { flavor })).not.toThrow();
        expect(() => parseToml(make(MAX_TOML_DEPTH + 1), { flavor })).toThrow(TomlDepthError);
      });
    }
  }

  it.each(flavors)("20,000 levels answer a TomlDepthError, not a stack overflow (%s)", (flavor) => {
    for (const make of Object.values(nestings)) {
      let error: unknown;
      try {
        parseToml(make(20_000), { flavor });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TomlDepthError);
      expect((error as TomlDepthError).limit).toBe(MAX_TOML_DEPTH);
      expect((error as TomlDepthError).line).toBe(1);
    }
  });
});

describe("BurntSushi table rules", () => {
  it("stores an inline table's dotted keys as the library does (no table holds itself)", () => {
    const doc = parseToml("y = [{a.b = 1}]\n", { flavor: "burntsushi" });
    const y = doc.root.entries.get("y")?.value;
    const first = y?.kind === "array" ? y.items[0] : undefined;
    const a = first?.kind === "table" ? first.entries.get("a")?.value : undefined;
    expect(a?.kind === "table" ? a.entries.get("b")?.value : undefined).toMatchObject({
      kind: "integer",
      value: 1n,
    });
    // BurntSushi/toml v1.5.0: `c.c` holds an array, so `c.c.a` has no table to go in.
    expect(accepts("a = [{c.c = [], c.c.a = 1}]", "burntsushi")).toBe(false);
  });

  /**
   * Steps the builder takes, counted as the Map operations it makes and the
   * characters it serializes: the library's bookkeeping is by full key path,
   * which must not cost a copy of the path per part.
   */
  function work(text: string): number {
    let steps = 0;
    const count = <T extends object, K extends keyof T>(target: T, name: K) => {
      const original = target[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(target, name as never).mockImplementation(function (
        this: unknown,
        ...args: unknown[]
      ) {
        steps++;
        return original.apply(this, args);
      } as never);
    };
    const spies = [
      count(Map.prototype, "get"),
      count(Map.prototype, "has"),
      count(Set.prototype, "has"),
    ];
    const stringify = JSON.stringify;
    const json = vi
      .spyOn(JSON, "stringify")
      .mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
        const out = stringify(...args);
        steps += out?.length ?? 0;
        return out;
      });
    try {
      parseToml(text, { flavor: "burntsushi" });
    } finally {
      for (const spy of [...spies, json]) spy.mockRestore();
    }
    return steps;
  }

  it("costs work linear in the key parts, however long each dotted key", () => {
    // About 20 KB each: many short dotted keys, or a few of the longest the reader takes.
    const keys = (parts: number, count: number) =>
      Array.from(
        { length: count },
        (_, i) =>
          `${Array(parts - 1)
            .fill("a")
            .join(".")}.k${i} = 1`,
      ).join("\n");
    const short = keys(10, 1_000);
    const long = keys(MAX_TOML_DEPTH, 10);
    const perByte = (text: string) => work(text) / text.length;
    expect(perByte(short)).toBeLessThan(20);
    expect(perByte(long)).toBeLessThan(20);
  });
});
