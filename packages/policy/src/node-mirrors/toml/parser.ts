/**
 * The document level of the TOML reader: key/value lines, `[table]` and
 * `[[array]]` headers in file order, dotted and quoted keys, arrays and
 * inline tables, handed to a {@link TableBuilder} that applies one TOML
 * library's table-definition rules (`toml-tables.ts`).
 */
import {
  describeChar,
  isBareKeyCode,
  type KeyPart,
  type RawValue,
  TomlScanner,
} from "./scanner.js";
import {
  MAX_TOML_DEPTH,
  TomlDepthError,
  type TomlDocument,
  type TomlFlavor,
  type TomlHeader,
  type TomlPosition,
  type TomlTable,
} from "./types.js";

/** Turns the parser's expressions into tables, by one library's definition rules. */
export interface TableBuilder {
  /** `names` are the `keys`' names, spelled out once for both sides. */
  header(
    keys: readonly KeyPart[],
    names: readonly string[],
    array: boolean,
    at: TomlPosition,
  ): void;
  keyValue(keys: readonly KeyPart[], value: RawValue): void;
  readonly root: TomlTable;
}

/** Reads a whole document into a builder's tables. */
export class TomlParser extends TomlScanner {
  private readonly headers: TomlHeader[] = [];
  private skipping = false;
  /** Key parts of the current `[table]` header: where its key/value lines start nesting. */
  private sectionDepth = 0;
  /** Nesting of what is being read now; never above {@link MAX_TOML_DEPTH}. */
  private depth = 0;

  constructor(
    src: string,
    private readonly builder: TableBuilder,
    flavor: TomlFlavor,
    private readonly skipsTable: ((keys: readonly string[]) => boolean) | undefined,
    copyStrings: boolean,
  ) {
    super(src, flavor, copyStrings);
  }

  parse(): TomlDocument {
    while (!this.eof()) {
      this.skipWhitespace();
      if (this.eof()) break;
      const c = this.code();
      if (c === 0x23) {
        this.comment();
        this.endOfLine();
      } else if (this.newline()) {
        // blank line
      } else if (c === 0x5b) {
        this.header();
      } else {
        this.depth = this.sectionDepth;
        const keys = this.keyAndEquals();
        const value = this.value();
        if (!this.skipping) this.builder.keyValue(keys, value);
        this.endOfLine();
      }
    }
    return { root: this.builder.root, headers: this.headers };
  }

  private header(): void {
    const at = this.here();
    this.pos++;
    const array = this.code() === 0x5b;
    if (array) this.pos++;
    this.skipWhitespace();
    this.depth = 0;
    const keys = this.key();
    this.sectionDepth = keys.length;
    this.skipWhitespace();
    if (this.code() !== 0x5d) this.fail(`expected "]" to close the table header`);
    this.pos++;
    if (array) {
      if (this.code() !== 0x5d) this.fail(`expected "]]" to close the array-of-tables header`);
      this.pos++;
    }
    const names: string[] = [];
    for (const k of keys) names.push(k.name);
    this.headers.push({ keys: names, array, at });
    this.builder.header(keys, names, array, at);
    this.skipping = this.skipsTable?.(names) ?? false;
    this.endOfLine();
  }

  /** Reads a (dotted) key; each part nests one level deeper. */
  private key(): KeyPart[] {
    const parts: KeyPart[] = [];
    for (;;) {
      this.skipWhitespace();
      const at = this.here();
      this.enter(at);
      const c = this.code();
      let name: string;
      if (c === 0x22) {
        if (this.tripleQuote(c)) this.fail("a key cannot be a multi-line string");
        name = this.basicString();
      } else if (c === 0x27) {
        if (this.tripleQuote(c)) this.fail("a key cannot be a multi-line string");
        name = this.literalString();
      } else {
        const start = this.pos;
        const src = this.src;
        let end = start;
        while (isBareKeyCode(src.charCodeAt(end))) end++;
        this.pos = end;
        if (end === start) this.fail(`expected a key, found ${describeChar(this.peek())}`);
        name = src.slice(start, end);
      }
      parts.push({ name, at });
      this.skipWhitespace();
      if (this.code() !== 0x2e) return parts;
      this.pos++;
    }
  }

  private enter(at: TomlPosition): void {
    if (++this.depth > MAX_TOML_DEPTH) throw new TomlDepthError(MAX_TOML_DEPTH, at);
  }

  private keyAndEquals(): KeyPart[] {
    const keys = this.key();
    this.skipWhitespace();
    if (this.code() !== 0x3d)
      this.fail(`expected "=" after the key, found ${describeChar(this.peek())}`);
    this.pos++;
    this.skipWhitespace();
    return keys;
  }

  private value(): RawValue {
    const at = this.here();
    const c = this.code();
    if (c === 0x22) {
      const value = this.tripleQuote(c) ? this.multilineString('"') : this.basicString();
      return { kind: "string", value, at };
    }
    if (c === 0x27) {
      const value = this.tripleQuote(c) ? this.multilineString("'") : this.literalString();
      return { kind: "string", value, at };
    }
    if (c === 0x5b) return this.array(at);
    if (c === 0x7b) return this.inlineTable(at);
    if (c === 0x74 && this.src.startsWith("true", this.pos) && this.terminatesAt(4)) {
      this.pos += 4;
      return { kind: "boolean", value: true, at };
    }
    if (c === 0x66 && this.src.startsWith("false", this.pos) && this.terminatesAt(5)) {
      this.pos += 5;
      return { kind: "boolean", value: false, at };
    }
    const dt = this.dateTime(at);
    if (dt !== undefined) return dt;
    return this.number(at);
  }

  private arraySpace(): void {
    for (;;) {
      this.skipWhitespace();
      this.comment();
      if (!this.newline()) return;
    }
  }

  private array(at: TomlPosition): RawValue {
    this.enter(at);
    this.pos++;
    const items: RawValue[] = [];
    for (;;) {
      this.arraySpace();
      if (this.code() === 0x5d) {
        this.pos++;
        break;
      }
      if (this.eof()) this.fail("unterminated array");
      items.push(this.value());
      this.arraySpace();
      if (this.code() === 0x2c) {
        this.pos++;
        continue;
      }
      if (this.code() === 0x5d) {
        this.pos++;
        break;
      }
      this.fail(`expected "," or "]" in an array, found ${describeChar(this.peek())}`);
    }
    this.depth--;
    return { kind: "raw-array", items, at };
  }

  /** An inline table nests by its keys' parts: `{a = {b = 1}}` is as deep as `a.b = 1`. */
  private inlineTable(at: TomlPosition): RawValue {
    const outer = this.depth;
    this.pos++;
    const pairs: { keys: KeyPart[]; value: RawValue }[] = [];
    this.skipWhitespace();
    if (this.code() === 0x7d) {
      this.pos++;
    } else {
      for (;;) {
        const keys = this.keyAndEquals();
        pairs.push({ keys, value: this.value() });
        this.depth = outer;
        this.skipWhitespace();
        if (this.code() === 0x2c) {
          this.pos++;
          this.skipWhitespace();
          if (this.code() === 0x7d) this.fail("trailing comma in an inline table");
          continue;
        }
        if (this.code() === 0x7d) {
          this.pos++;
          break;
        }
        this.fail(`expected "," or "}" in an inline table, found ${describeChar(this.peek())}`);
      }
    }
    return { kind: "raw-inline", pairs, at };
  }
}
