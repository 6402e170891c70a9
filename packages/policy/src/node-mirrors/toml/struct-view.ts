/**
 * How the two Go TOML libraries map a parsed document onto the runtimes'
 * config structs: which key fills which field (exact name first, then a
 * case-insensitive match, as both libraries do), which TOML value kinds a
 * Go field type accepts, and which keys are left over (ignored by the
 * runtime, reported by kubeimg as warnings).
 */
import { json } from "@kubeimg/core/internal";
import type { TomlEntry, TomlPosition, TomlTable, TomlValue } from "./parse.js";
import { kindName } from "./parse.js";

/** A value that does not fit its Go field: the TOML library's decode error. */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  constructor(
    message: string,
    readonly key: string,
    readonly at: TomlPosition,
  ) {
    super(message);
  }
}

/**
 * Whether a key fills the Go field `name`: exactly, or under Go's simple case
 * folding (ASCII, plus the two non-ASCII letters that fold onto it), which
 * both TOML libraries match field names with as `encoding/json` does.
 */
function fills(key: string, name: string): boolean {
  return key === name || json.FoldName(key) === json.FoldName(name);
}

/** A table read as a Go struct: `field` takes each field once, `rest` lists what no field took. */
export class StructView {
  private readonly used = new Set<string>();
  constructor(
    readonly table: TomlTable,
    readonly path: string,
  ) {}

  /** The entry a Go field named `name` receives (the last matching key, as decoding order makes it). */
  field(name: string): { key: string; entry: TomlEntry } | undefined {
    let found: { key: string; entry: TomlEntry } | undefined;
    for (const [key, entry] of this.table.entries) {
      if (fills(key, name)) {
        found = { key, entry };
        this.used.add(key);
      }
    }
    return found;
  }

  /** Every key a Go field named `name` receives, in file order (without marking them used). */
  all(name: string): { key: string; entry: TomlEntry }[] {
    const out: { key: string; entry: TomlEntry }[] = [];
    for (const [key, entry] of this.table.entries) {
      if (fills(key, name)) out.push({ key, entry });
    }
    return out;
  }

  keyPath(key: string): string {
    const part = /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
    return this.path === "" ? part : `${this.path}.${part}`;
  }

  /** Keys no field took, with where they were written. */
  unknown(): { key: string; path: string; at: TomlPosition }[] {
    const out: { key: string; path: string; at: TomlPosition }[] = [];
    for (const [key, entry] of this.table.entries) {
      if (!this.used.has(key)) out.push({ key, path: this.keyPath(key), at: entry.keyAt });
    }
    return out;
  }
}

function mismatch(value: TomlValue, want: string, key: string): DecodeError {
  return new DecodeError(
    `toml: cannot decode TOML ${kindName(value)} into a Go ${want} (key ${key})`,
    key,
    value.at,
  );
}

export function expectString(value: TomlValue, key: string): string {
  if (value.kind !== "string") throw mismatch(value, "string", key);
  return value.value;
}

export function expectBool(value: TomlValue, key: string): boolean {
  if (value.kind !== "boolean") throw mismatch(value, "bool", key);
  return value.value;
}

export function expectTable(value: TomlValue, key: string): TomlTable {
  if (value.kind !== "table") throw mismatch(value, "struct or map", key);
  return value;
}

/** A Go `[]T` field: a TOML array (of any origin). */
export function expectArray(value: TomlValue, key: string): TomlValue[] {
  if (value.kind !== "array") throw mismatch(value, "slice", key);
  return value.items;
}

export function expectStringArray(value: TomlValue, key: string): string[] {
  return expectArray(value, key).map((item, i) => expectString(item, `${key}[${i}]`));
}
