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

  header(
    _keys: readonly KeyPart[],
    names: readonly string[],
    array: boolean,
    at: TomlPosition,
  ): void {
    this.current = array ? this.defineArrayTable(names, at) : this.defineTable(names, at);
  }

  keyValue(keys: readonly KeyPart[], value: RawValue): void {
    this.assign(this.current, keys, value);
  }

  /** Walks to the parent of the last header key, creating implicit tables. */
  private walkHeader(keys: readonly string[], at: TomlPosition): TomlTable {
    let table = this.root;
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i] as string;
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
    for (let i = 0; i < keys.length - 1; i++) {
      const part = keys[i] as KeyPart;
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
 * One key path, interned: equal paths are one node, so the library's
 * bookkeeping by full key path costs a step per key part, not a copy of
 * the path. A node also remembers the table its path last led to, until
 * an array of tables grows or an entry is replaced on the way.
 */
class KeyPath {
  private readonly children = new Map<string, KeyPath>();
  /** The table this path leads to, while no change on the way has made it stale. */
  table: TomlTable | undefined;
  /** Children whose `table` is set, to forget them when this path's table changes. */
  private readonly remembered = new Set<KeyPath>();

  constructor(
    readonly parent: KeyPath | undefined,
    readonly name: string,
  ) {}

  child(name: string): KeyPath {
    let node = this.children.get(name);
    if (node === undefined) {
      node = new KeyPath(this, name);
      this.children.set(name, node);
    }
    return node;
  }

  remember(table: TomlTable): void {
    this.table = table;
    this.parent?.remembered.add(this);
  }

  /** Forgets this path's table and every remembered table below it. */
  forget(): void {
    const stack: KeyPath[] = [this];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      node.table = undefined;
      for (const child of node.remembered) stack.push(child);
      node.remembered.clear();
    }
  }

  /** The key parts from the root (for messages only). */
  names(): string[] {
    const out: string[] = [];
    for (let node: KeyPath | undefined = this; node?.parent !== undefined; node = node.parent)
      out.push(node.name);
    return out.reverse();
  }
}

const dotted = (path: KeyPath): string => path.names().map(quoteKey).join(".");

/**
 * BurntSushi/toml v1.5.0's table rules, which are looser than TOML 1.0: a
 * table created implicitly (by a dotted key or a longer header) may be
 * "defined" once more by a header or even a plain key (whose value is then
 * dropped), dotted keys may extend a table defined by a header, and a key
 * whose last recorded type is an array may be assigned again. The
 * bookkeeping (implicit keys and recorded types, by full key path) follows
 * the library's parser step by step, so exactly the same files are accepted;
 * where the library walks a key path from the root again, this reads the
 * table the path led to last time, so a dotted key costs one step per part.
 */
export class BurntSushiBuilder implements TableBuilder {
  readonly root = newTable({ line: 1, column: 1 }, "root");
  private readonly top = new KeyPath(undefined, "");
  private context = this.top;
  private currentKey = "";
  private readonly implicits = new Set<KeyPath>();
  private readonly types = new Map<KeyPath, BurntType>();

  constructor() {
    this.top.remember(this.root);
  }

  header(
    keys: readonly KeyPart[],
    _names: readonly string[],
    array: boolean,
    at: TomlPosition,
  ): void {
    let path = this.top;
    for (const k of keys) path = path.child(k.name);
    this.addContext(path, array, at);
    this.setType("", array ? "array-hash" : "hash");
  }

  keyValue(keys: readonly KeyPart[], raw: RawValue): void {
    const outer = this.context;
    this.pair(keys, raw);
    this.context = outer;
    this.currentKey = "";
  }

  /** Sets one key/value pair below the context; returns the value as the library holds it. */
  private pair(keys: readonly KeyPart[], raw: RawValue): TomlValue {
    const last = keys[keys.length - 1] as KeyPart;
    this.currentKey = last.name;
    for (let i = 0; i < keys.length - 1; i++) {
      const part = keys[i] as KeyPart;
      const key = this.context.child(part.name);
      this.implicits.add(key);
      this.addContext(key, false, part.at);
    }
    const [value, type] = this.value(raw, false);
    this.setValue(this.currentKey, value, last.at);
    this.setType(this.currentKey, type);
    return value;
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
    this.context = this.context.child(this.currentKey);
    const prevContext = this.context;
    this.currentKey = "";
    this.implicits.add(this.context);
    this.addContext(this.context, parentIsArray, raw.at);
    for (const pair of raw.pairs) {
      const value = this.pair(pair.keys, pair.value);
      const parents = pair.keys.slice(0, -1);
      let hash = top;
      for (const part of parents) {
        let h: TomlValue | undefined = hash.entries.get(part.name)?.value;
        if (h === undefined) {
          h = newTable(part.at, "inline");
          hash.entries.set(part.name, { value: h, keyAt: part.at });
        }
        if (h.kind !== "table")
          fail(`${JSON.stringify(this.context.names())} is not a table`, part.at);
        hash = h;
      }
      const last = pair.keys[pair.keys.length - 1] as KeyPart;
      // The library stores the value it just read (not what the key holds in
      // the document, which an implicit table may have kept).
      hash.entries.set(last.name, { value, keyAt: last.at });
      this.context = prevContext;
    }
    this.context = outerContext;
    this.currentKey = outerKey;
    return top;
  }

  /**
   * The table `path` leads to, walking on from the nearest path whose table
   * is remembered. `create`: missing tables on the way are created
   * implicitly (the library's `addContext`); otherwise a missing one fails
   * (its `setValue`).
   */
  private tableAt(path: KeyPath, create: boolean, at: TomlPosition): TomlTable {
    const pending: KeyPath[] = [];
    let node = path;
    while (node.table === undefined) {
      pending.push(node);
      node = node.parent as KeyPath;
    }
    let hash = node.table;
    for (let i = pending.length - 1; i >= 0; i--) {
      const step = pending[i] as KeyPath;
      let entry = hash.entries.get(step.name)?.value;
      if (entry === undefined && create) {
        this.implicits.add(step);
        entry = newTable(at, "implicit");
        hash.entries.set(step.name, { value: entry, keyAt: at });
      }
      if (entry?.kind === "array" && entry.ofTables)
        hash = entry.items[entry.items.length - 1] as TomlTable;
      else if (entry?.kind === "table") hash = entry;
      else if (create) fail(`key ${dotted(step)} was already created as a value`, at);
      else fail(`key ${dotted(step)} is already defined`, at);
      step.remember(hash);
    }
    return hash;
  }

  private addContext(key: KeyPath, array: boolean, at: TomlPosition): void {
    const parent = key.parent as KeyPath;
    const hash = this.tableAt(parent, true, at);
    this.context = parent;
    const last = key.name;
    if (array) {
      let node = hash.entries.get(last)?.value;
      if (node === undefined) {
        node = { kind: "array", items: [], ofTables: true, at };
        hash.entries.set(last, { value: node, keyAt: at });
      }
      if (node.kind === "array" && node.ofTables) {
        node.items.push(newTable(at, "header"));
        key.forget();
      } else fail(`key ${dotted(key)} was already created and cannot be used as an array`, at);
    } else {
      this.setValue(last, newTable(at, "header"), at);
    }
    this.context = key;
  }

  private setValue(key: string, value: TomlValue, at: TomlPosition): void {
    const hash = this.tableAt(this.context, false, at);
    const path = this.context.child(key);
    if (hash.entries.has(key)) {
      if (this.types.get(path) === "array") {
        this.implicits.delete(path);
        hash.entries.set(key, { value, keyAt: at });
        path.forget();
        return;
      }
      if (this.implicits.has(path)) {
        this.implicits.delete(path);
        return;
      }
      fail(`key ${dotted(path)} is already defined`, at);
    }
    hash.entries.set(key, { value, keyAt: at });
  }

  private setType(key: string, type: BurntType): void {
    const path = key === "" ? this.context : this.context.child(key);
    // The library keys the root's own type by the path [""].
    this.types.set(path === this.top ? this.top.child("") : path, type);
  }
}
