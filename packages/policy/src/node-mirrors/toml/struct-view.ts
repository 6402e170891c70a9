/**
 * How the two Go TOML libraries map a parsed document onto the runtimes'
 * config structs: which key fills which field (exact name first, then
 * go-toml's lower-cased or BurntSushi's case-folded match), which TOML value kinds a
 * Go field type accepts, and which keys are left over (ignored by the
 * runtime, reported by kubeimg as warnings).
 */
import { json } from "@kubeimg/core/internal";
import type { TomlEntry, TomlPosition, TomlTable, TomlValue } from "./parse.js";
import { kindName } from "./parse.js";
import { isBareKeyCode } from "./scanner.js";

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

/** Which library decodes the struct: how a key that misses every field name exactly is folded. */
export type GoStructLibrary = "go-toml" | "burntsushi";

/**
 * The lower-casing go-toml v2 retries a missed key with (`strings.ToLower`):
 * of the non-ASCII letters only U+0130 (İ) and U+212A (Kelvin sign) lower
 * onto ASCII, so the rest may stay as written. Returns `key` itself when
 * nothing changes.
 */
export function goTomlLower(key: string): string {
  let i = 0;
  for (; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c === 0x130 || c === 0x212a) break;
  }
  if (i === key.length) return key;
  let out = key.slice(0, i);
  for (; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(c + 0x20);
    else if (c === 0x130) out += "i";
    else if (c === 0x212a) out += "k";
    else out += key[i];
  }
  return out;
}

/**
 * A Go struct's TOML field names, with the maps both libraries match keys
 * against, built once per struct: the exact name first, then go-toml's
 * lower-cased name or BurntSushi's `strings.EqualFold` (Go's simple case
 * folding, as `json.FoldName` keys it).
 */
export class GoStruct {
  private readonly exact = new Map<string, number>();
  private readonly folded = new Map<string, number>();
  private readonly fold: (name: string) => string;
  constructor(
    readonly library: GoStructLibrary,
    readonly fields: readonly string[],
  ) {
    this.fold = library === "go-toml" ? goTomlLower : json.FoldName;
    fields.forEach((name, i) => {
      this.exact.set(name, i);
      // go-toml's cache holds each name as written and lower-cased; BurntSushi
      // takes the first field that folds equal.
      if (library === "go-toml" && !this.folded.has(name)) this.folded.set(name, i);
      const key = this.fold(name);
      if (!this.folded.has(key)) this.folded.set(key, i);
    });
  }

  /** The index of the field a key fills, or -1. */
  fieldOf(key: string): number {
    return this.exact.get(key) ?? this.folded.get(this.fold(key)) ?? -1;
  }

  indexOf(name: string): number {
    const i = this.exact.get(name);
    if (i === undefined) throw new Error(`${name} is not a field of this struct`);
    return i;
  }
}

/** A key and its entry, as a field receives it. */
export interface StructEntry {
  readonly key: string;
  readonly entry: TomlEntry;
}

const none: readonly StructEntry[] = [];

/**
 * A table read as a Go struct: each key is matched to its field once, in
 * one pass over the table; `field` and `all` then read what each field
 * received, and `unknown` lists what no field took. Several tables decode
 * into one struct in turn, as when two spellings of a map key (`host`,
 * `HOST`) name the same entry.
 */
export class StructView {
  private readonly byField: (StructEntry[] | undefined)[];
  private readonly rest: StructEntry[] = [];
  private pathText: string | (() => string);
  /**
   * `path` is the struct's key path for messages, or a function giving it
   * when a message first needs it (most views never do).
   */
  constructor(
    tables: TomlTable | readonly TomlTable[],
    path: string | (() => string),
    private readonly struct: GoStruct,
  ) {
    this.pathText = path;
    this.byField = new Array(struct.fields.length);
    if ("kind" in tables) this.take(tables);
    else for (const table of tables) this.take(table);
  }

  /** Matches one table's keys to the fields. */
  private take(table: TomlTable): void {
    for (const [key, entry] of table.entries) {
      const i = this.struct.fieldOf(key);
      if (i < 0) {
        this.rest.push({ key, entry });
        continue;
      }
      const list = this.byField[i];
      if (list === undefined) this.byField[i] = [{ key, entry }];
      else list.push({ key, entry });
    }
  }

  /**
   * The entry a Go field receives (the last matching key, as decoding order
   * makes it); the field by its name or its number in the struct.
   */
  field(name: string | number): StructEntry | undefined {
    const list = this.byField[typeof name === "number" ? name : this.struct.indexOf(name)];
    return list === undefined ? undefined : list[list.length - 1];
  }

  /** Every key a Go field receives, in file order. */
  all(name: string | number): readonly StructEntry[] {
    return this.byField[typeof name === "number" ? name : this.struct.indexOf(name)] ?? none;
  }

  /** The struct's key path (`""` at the top level). */
  get path(): string {
    if (typeof this.pathText !== "string") this.pathText = this.pathText();
    return this.pathText;
  }

  /** The string a field received; the key's path is spelled only for a mismatch. */
  string({ key, entry }: StructEntry): string {
    const value = entry.value;
    return value.kind === "string" ? value.value : expectString(value, this.keyPath(key));
  }

  bool({ key, entry }: StructEntry): boolean {
    const value = entry.value;
    return value.kind === "boolean" ? value.value : expectBool(value, this.keyPath(key));
  }

  table({ key, entry }: StructEntry): TomlTable {
    const value = entry.value;
    return value.kind === "table" ? value : expectTable(value, this.keyPath(key));
  }

  stringArray({ key, entry }: StructEntry): string[] {
    const value = entry.value;
    if (value.kind === "array") {
      const out: string[] = [];
      for (const item of value.items) {
        if (item.kind !== "string") return expectStringArray(value, this.keyPath(key));
        out.push(item.value);
      }
      return out;
    }
    return expectStringArray(value, this.keyPath(key));
  }

  keyPath(key: string): string {
    let bare = key !== "";
    for (let i = 0; bare && i < key.length; i++) bare = isBareKeyCode(key.charCodeAt(i));
    const part = bare ? key : JSON.stringify(key);
    return this.path === "" ? part : `${this.path}.${part}`;
  }

  /** Keys no field takes, with where they were written. */
  unknown(): { key: string; path: string; at: TomlPosition }[] {
    return this.rest.map(({ key, entry }) => ({ key, path: this.keyPath(key), at: entry.keyAt }));
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
