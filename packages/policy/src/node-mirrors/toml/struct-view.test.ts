import { describe, expect, it, vi } from "vitest";
import { GoStruct, goTomlLower, StructView } from "./struct-view.js";
import type { TomlEntry, TomlTable } from "./types.js";

/** A table whose entries count how many of them are visited. */
function countingTable(keys: readonly string[]): { table: TomlTable; visits: () => number } {
  let visits = 0;
  class CountingMap extends Map<string, TomlEntry> {
    override *[Symbol.iterator](): MapIterator<[string, TomlEntry]> {
      for (const pair of super.entries()) {
        visits++;
        yield pair;
      }
    }
    override entries(): MapIterator<[string, TomlEntry]> {
      return this[Symbol.iterator]();
    }
  }
  const at = { line: 1, column: 1 };
  const entries = new CountingMap(
    keys.map((key) => [key, { value: { kind: "boolean", value: true, at }, keyAt: at }]),
  );
  return { table: { kind: "table", entries, at, origin: "root" }, visits: () => visits };
}

describe("StructView", () => {
  const fields = Array.from({ length: 20 }, (_, i) => `field-${i}`);
  const struct = new GoStruct("burntsushi", fields);

  it("spells its key path only when a message needs it, once", () => {
    const { table } = countingTable(["field-0", "field-1"]);
    let spelled = 0;
    const view = new StructView(table, () => `host.${JSON.stringify(`n${++spelled}`)}`, struct);
    const f0 = view.field("field-0");
    const f1 = view.field(struct.indexOf("field-1"));
    if (f0 === undefined || f1 === undefined) throw new Error("fields not found");
    expect(view.bool(f0)).toBe(true);
    expect(view.bool(f1)).toBe(true);
    expect(spelled).toBe(0);
    expect(() => view.string(f0)).toThrow('(key host."n1".field-0)');
    expect(() => view.table(f1)).toThrow('(key host."n1".field-1)');
    expect(view.path).toBe('host."n1"');
    expect(spelled).toBe(1);
  });

  it("matches each key to its field in one pass, however many fields are read", () => {
    const keys = [...fields.map((f) => f.toUpperCase()), ...fields, "other-a", "other-b"];
    const { table, visits } = countingTable(keys);
    const view = new StructView(table, "", struct);
    for (const name of fields) {
      expect(view.field(name)?.key).toBe(name);
      expect(view.all(name).map((e) => e.key)).toEqual([name.toUpperCase(), name]);
    }
    expect(view.unknown().map((u) => u.key)).toEqual(["other-a", "other-b"]);
    expect(visits()).toBe(keys.length);
  });

  it.each([
    // BurntSushi folds (strings.EqualFold); go-toml lowers (strings.ToLower).
    { library: "burntsushi", key: "ſkip", fills: true },
    { library: "go-toml", key: "ſkip", fills: false },
    { library: "burntsushi", key: "SKİP", fills: false },
    { library: "go-toml", key: "SKİP", fills: true },
    { library: "burntsushi", key: "s\u212aip", fills: true },
    { library: "go-toml", key: "s\u212aip", fills: true },
    { library: "go-toml", key: "Skip", fills: true },
    { library: "go-toml", key: "skíp", fills: false },
  ] as const)("$library: $key fills skip: $fills", ({ library, key, fills }) => {
    const view = new StructView(countingTable([key]).table, "", new GoStruct(library, ["skip"]));
    expect(view.field("skip") !== undefined).toBe(fills);
  });

  it("writes key paths bare or quoted by character, without a regular expression", () => {
    const view = new StructView(countingTable([]).table, "host", struct);
    const test = vi.spyOn(RegExp.prototype, "test");
    try {
      expect(["skip_verify", "x.y", "", "é"].map((k) => view.keyPath(k))).toEqual([
        "host.skip_verify",
        'host."x.y"',
        'host.""',
        'host."é"',
      ]);
      expect(test).not.toHaveBeenCalled();
    } finally {
      test.mockRestore();
    }
  });

  it("lowers as go-toml does, returning ASCII lower case as it is", () => {
    expect(goTomlLower("skip_verify")).toBe("skip_verify");
    expect(goTomlLower("SKİP_\u212aEY-É")).toBe("skip_key-É");
  });
});
