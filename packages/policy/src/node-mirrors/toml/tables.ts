/**
 * The table-definition rules of the two TOML libraries the runtimes use:
 * go-toml v2 (containerd) keeps to TOML 1.0, BurntSushi/toml
 * (containers/image) accepts a few redefinitions TOML 1.0 forbids.
 */
import type { TableBuilder } from "./parser.js";
import { type KeyPart, quoteKey, type RawValue } from "./scanner.js";
import {
  kindName,
  type TableOrigin,
  type TomlArray,
  type TomlPosition,
  TomlSyntaxError,
  type TomlTable,
  type TomlValue,
} from "./types.js";

function fail(message: string, at: TomlPosition): never {
  throw new TomlSyntaxError(message, at);
}

function newTable(at: TomlPosition, origin: TableOrigin): TomlTable {
  return { kind: "table", entries: new Map(), at, origin };
}

/** TOML 1.0's table rules, as go-toml v2 enforces them. */
export class StrictBuilder implements TableBuilder {
  readonly root = newTable({ line: 1, column: 1 }, "root");
  private current = this.root;

  header(keys: readonly KeyPart[], array: boolean, at: TomlPosition): void {
    const names = keys.map((k) => k.name);
    this.current = array ? this.defineArrayTable(names, at) : this.defineTable(names, at);
  }

  keyValue(keys: readonly KeyPart[], value: RawValue): void {
    this.assign(this.current, keys, value);
  }

  /** Walks to the parent of the last header key, creating implicit tables. */
  private walkHeader(keys: readonly string[], at: TomlPosition): TomlTable {
    let table = this.root;
    for (const key of keys.slice(0, -1)) {
      const entry = table.entries.get(key);
      if (entry === undefined) {
        const created = newTable(at, "implicit");
        table.entries.set(key, { value: created, keyAt: at });
        table = created;
        continue;
      }
      const value = entry.value;
      if (value.kind === "table") {
        if (value.origin === "inline")
          fail(`key ${quoteKey(key)} is an inline table, which is closed`, at);
        table = value;
      } else if (value.kind === "array" && value.ofTables) {
        const last = value.items[value.items.length - 1];
        if (last?.kind !== "table") fail(`key ${quoteKey(key)} is not a table`, at);
        table = last;
      } else {
        fail(`key ${quoteKey(key)} is already defined as a ${kindName(value)}`, at);
      }
    }
    return table;
  }

  private defineTable(keys: readonly string[], at: TomlPosition): TomlTable {
    const parent = this.walkHeader(keys, at);
    const last = keys[keys.length - 1] as string;
    const entry = parent.entries.get(last);
    if (entry === undefined) {
      const created = newTable(at, "header");
      parent.entries.set(last, { value: created, keyAt: at });
      return created;
    }
    const value = entry.value;
    if (value.kind === "table" && value.origin === "implicit") {
      value.origin = "header";
      return value;
    }
    return fail(`table ${keys.map(quoteKey).join(".")} is already defined`, at);
  }

  private defineArrayTable(keys: readonly string[], at: TomlPosition): TomlTable {
    const parent = this.walkHeader(keys, at);
    const last = keys[keys.length - 1] as string;
    const entry = parent.entries.get(last);
    const created = newTable(at, "header");
    if (entry === undefined) {
      const array: TomlArray = { kind: "array", items: [created], ofTables: true, at };
      parent.entries.set(last, { value: array, keyAt: at });
      return created;
    }
    const value = entry.value;
    if (value.kind === "array" && value.ofTables) {
      value.items.push(created);
      return created;
    }
    return fail(
      `key ${keys.map(quoteKey).join(".")} is already defined as a ${kindName(value)}`,
      at,
    );
  }

  private assign(table: TomlTable, keys: readonly KeyPart[], raw: RawValue): void {
    let target = table;
    for (const part of keys.slice(0, -1)) {
      const entry = target.entries.get(part.name);
      if (entry === undefined) {
        const created = newTable(part.at, "dotted");
        target.entries.set(part.name, { value: created, keyAt: part.at });
        target = created;
        continue;
      }
      if (entry.value.kind !== "table" || entry.value.origin !== "dotted") {
        fail(`key ${quoteKey(part.name)} is already defined and cannot be extended`, part.at);
      }
      target = entry.value;
    }
    const last = keys[keys.length - 1] as KeyPart;
    if (target.entries.has(last.name))
      fail(`key ${quoteKey(last.name)} is already defined`, last.at);
    target.entries.set(last.name, { value: this.convert(raw), keyAt: last.at });
  }

  private convert(raw: RawValue): TomlValue {
    if (raw.kind === "raw-array") {
      return {
        kind: "array",
        items: raw.items.map((item) => this.convert(item)),
        ofTables: false,
        at: raw.at,
      };
    }
    if (raw.kind === "raw-inline") {
      const table = newTable(raw.at, "dotted");
      for (const pair of raw.pairs) this.assign(table, pair.keys, pair.value);
      closeInline(table);
      return table;
    }
    return raw;
  }
}

/** Closes a finished inline table (and every table inside it) to later extension. */
function closeInline(table: TomlTable): void {
  table.origin = "inline";
  for (const { value } of table.entries.values()) {
    if (value.kind === "table") closeInline(value);
    if (value.kind === "array") {
      for (const item of value.items) if (item.kind === "table") closeInline(item);
    }
  }
}

type BurntType = "hash" | "array-hash" | "array" | "primitive";

/**
 * BurntSushi/toml v1.5.0's table rules, which are looser than TOML 1.0: a
 * table created implicitly (by a dotted key or a longer header) may be
 * "defined" once more by a header or even a plain key (whose value is then
 * dropped), dotted keys may extend a table defined by a header, and a key
 * whose last recorded type is an array may be assigned again. The
 * bookkeeping (implicit keys and recorded types, by full key path) follows
 * the library's parser step by step, so exactly the same files are accepted.
 */
export class BurntSushiBuilder implements TableBuilder {
  readonly root = newTable({ line: 1, column: 1 }, "root");
  private context: string[] = [];
  private currentKey = "";
  private readonly implicits = new Set<string>();
  private readonly types = new Map<string, BurntType>();

  private static id(key: readonly string[]): string {
    return JSON.stringify(key);
  }

  header(keys: readonly KeyPart[], array: boolean, at: TomlPosition): void {
    this.addContext(
      keys.map((k) => k.name),
      array,
      at,
    );
    this.setType("", array ? "array-hash" : "hash");
  }

  keyValue(keys: readonly KeyPart[], raw: RawValue): void {
    const outer = this.context;
    this.pair(keys, raw);
    this.context = outer;
    this.currentKey = "";
  }

  private pair(keys: readonly KeyPart[], raw: RawValue): void {
    const last = keys[keys.length - 1] as KeyPart;
    this.currentKey = last.name;
    for (const part of keys.slice(0, -1)) {
      const key = [...this.context, part.name];
      this.implicits.add(BurntSushiBuilder.id(key));
      this.addContext(key, false, part.at);
    }
    const [value, type] = this.value(raw, false);
    this.setValue(this.currentKey, value, last.at);
    this.setType(this.currentKey, type);
  }

  private value(raw: RawValue, parentIsArray: boolean): [TomlValue, BurntType] {
    if (raw.kind === "raw-array") {
      this.setType(this.currentKey, "array");
      const items = raw.items.map((item) => this.value(item, true)[0]);
      return [{ kind: "array", items, ofTables: false, at: raw.at }, "array"];
    }
    if (raw.kind === "raw-inline") return [this.inlineTable(raw, parentIsArray), "hash"];
    return [raw, "primitive"];
  }

  private inlineTable(
    raw: Extract<RawValue, { kind: "raw-inline" }>,
    parentIsArray: boolean,
  ): TomlTable {
    const top = newTable(raw.at, "inline");
    const outerContext = this.context;
    const outerKey = this.currentKey;
    this.context = [...this.context, this.currentKey];
    const prevContext = this.context;
    this.currentKey = "";
    this.implicits.add(BurntSushiBuilder.id(this.context));
    this.addContext(this.context, parentIsArray, raw.at);
    for (const pair of raw.pairs) {
      this.pair(pair.keys, pair.value);
      const parents = pair.keys.slice(0, -1);
      let hash = top;
      for (const part of parents) {
        let h: TomlValue | undefined = hash.entries.get(part.name)?.value;
        if (h === undefined) {
          h = newTable(part.at, "inline");
          hash.entries.set(part.name, { value: h, keyAt: part.at });
        }
        if (h.kind !== "table") fail(`${JSON.stringify(this.context)} is not a table`, part.at);
        hash = h;
      }
      const last = pair.keys[pair.keys.length - 1] as KeyPart;
      const stored = this.lookup([...this.context, ...parents.map((p) => p.name), last.name]);
      hash.entries.set(last.name, { value: stored ?? top, keyAt: last.at });
      this.context = prevContext;
    }
    this.context = outerContext;
    this.currentKey = outerKey;
    return top;
  }

  /** The value now stored at a full key path (following arrays of tables to their last table). */
  private lookup(path: readonly string[]): TomlValue | undefined {
    let node: TomlValue = this.root;
    for (const k of path) {
      let table: TomlTable | undefined;
      if (node.kind === "table") table = node;
      else if (node.kind === "array" && node.ofTables) {
        const last: TomlValue | undefined = node.items[node.items.length - 1];
        if (last?.kind === "table") table = last;
      }
      const next: TomlValue | undefined = table?.entries.get(k)?.value;
      if (next === undefined) return undefined;
      node = next;
    }
    return node;
  }

  private addContext(key: readonly string[], array: boolean, at: TomlPosition): void {
    let hash = this.root;
    const keyContext: string[] = [];
    for (const k of key.slice(0, -1)) {
      keyContext.push(k);
      if (!hash.entries.has(k)) {
        this.implicits.add(BurntSushiBuilder.id(keyContext));
        hash.entries.set(k, { value: newTable(at, "implicit"), keyAt: at });
      }
      const node = hash.entries.get(k)?.value as TomlValue;
      if (node.kind === "array" && node.ofTables)
        hash = node.items[node.items.length - 1] as TomlTable;
      else if (node.kind === "table") hash = node;
      else fail(`key ${keyContext.map(quoteKey).join(".")} was already created as a value`, at);
    }
    this.context = keyContext;
    const last = key[key.length - 1] as string;
    if (array) {
      let node = hash.entries.get(last)?.value;
      if (node === undefined) {
        node = { kind: "array", items: [], ofTables: true, at };
        hash.entries.set(last, { value: node, keyAt: at });
      }
      if (node.kind === "array" && node.ofTables) node.items.push(newTable(at, "header"));
      else
        fail(
          `key ${key.map(quoteKey).join(".")} was already created and cannot be used as an array`,
          at,
        );
    } else {
      this.setValue(last, newTable(at, "header"), at);
    }
    this.context = [...keyContext, last];
  }

  private setValue(key: string, value: TomlValue, at: TomlPosition): void {
    let hash = this.root;
    const keyContext: string[] = [];
    for (const k of this.context) {
      keyContext.push(k);
      const node = hash.entries.get(k)?.value;
      if (node?.kind === "array" && node.ofTables)
        hash = node.items[node.items.length - 1] as TomlTable;
      else if (node?.kind === "table") hash = node;
      else fail(`key ${keyContext.map(quoteKey).join(".")} is already defined`, at);
    }
    keyContext.push(key);
    const id = BurntSushiBuilder.id(keyContext);
    if (hash.entries.has(key)) {
      if (this.types.get(id) === "array") {
        this.implicits.delete(id);
        hash.entries.set(key, { value, keyAt: at });
        return;
      }
      if (this.implicits.has(id)) {
        this.implicits.delete(id);
        return;
      }
      fail(`key ${keyContext.map(quoteKey).join(".")} is already defined`, at);
    }
    hash.entries.set(key, { value, keyAt: at });
  }

  private setType(key: string, type: BurntType): void {
    const keyContext = key === "" ? [...this.context] : [...this.context, key];
    this.types.set(BurntSushiBuilder.id(keyContext.length === 0 ? [""] : keyContext), type);
  }
}
