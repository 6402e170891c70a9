/**
 * A strict TOML 1.0 reader for the two runtime config formats.
 *
 * Which node configs the runtime accepts is decided by its TOML library
 * (go-toml v2.3.0 for containerd, BurntSushi/toml v1.5.0 for
 * containers/image), and both implement TOML 1.0 to the letter, so this
 * reader does too: every value kind, the table-definition rules (no table
 * defined twice, inline tables closed, dotted keys never reopening a
 * `[table]`), int64 range, calendar-checked dates. It keeps what a generic
 * npm TOML library throws away and containerd needs: the table headers in
 * file order (containerd orders `[host."…"]` entries by them) and the line
 * and column of every key and value, so an error can point at the text.
 */

/** Where a key or value starts: 1-based line and column (in characters). */
export interface TomlPosition {
  readonly line: number;
  readonly column: number;
}

export type TomlDateTimeKind = "offset-datetime" | "local-datetime" | "local-date" | "local-time";

export type TomlValue =
  | { readonly kind: "string"; readonly value: string; readonly at: TomlPosition }
  | { readonly kind: "integer"; readonly value: bigint; readonly at: TomlPosition }
  | { readonly kind: "float"; readonly value: number; readonly at: TomlPosition }
  | { readonly kind: "boolean"; readonly value: boolean; readonly at: TomlPosition }
  | {
      readonly kind: "datetime";
      readonly value: string;
      readonly type: TomlDateTimeKind;
      readonly at: TomlPosition;
    }
  | TomlArray
  | TomlTable;

export interface TomlArray {
  readonly kind: "array";
  readonly items: TomlValue[];
  /** Built by `[[header]]` sections rather than written as `[…]`. */
  readonly ofTables: boolean;
  readonly at: TomlPosition;
}

/** How a table came to exist, which decides how it may be extended. */
type TableOrigin = "implicit" | "header" | "dotted" | "inline" | "root";

export interface TomlTable {
  readonly kind: "table";
  /** Keys in file order; a `Map`, so user keys never meet a prototype. */
  readonly entries: Map<string, TomlEntry>;
  readonly at: TomlPosition;
  /** @internal */
  origin: TableOrigin;
}

export interface TomlEntry {
  readonly value: TomlValue;
  /** Where the key (its last part) was written. */
  readonly keyAt: TomlPosition;
}

/** A `[table]` or `[[array]]` header, in file order. */
export interface TomlHeader {
  readonly keys: readonly string[];
  readonly array: boolean;
  readonly at: TomlPosition;
}

export interface TomlDocument {
  readonly root: TomlTable;
  readonly headers: readonly TomlHeader[];
}

/** A syntax or table-definition error, with the position of the offending character. */
export class TomlSyntaxError extends Error {
  override readonly name = "TomlSyntaxError";
  readonly line: number;
  readonly column: number;
  constructor(message: string, at: TomlPosition) {
    super(`line ${at.line}, column ${at.column}: ${message}`);
    this.line = at.line;
    this.column = at.column;
  }
}

/** Whose reading of TOML to follow: containerd's go-toml v2.3.0 or containers/image's BurntSushi/toml v1.5.0. */
export type TomlFlavor = "go-toml" | "burntsushi";

export interface TomlParseOptions {
  /** Default `go-toml`. */
  readonly flavor?: TomlFlavor;
  /**
   * go-toml only: whether a table header leads outside the Go struct being
   * decoded into. go-toml then skips the key/value lines up to the next
   * header entirely: they are neither decoded nor checked for duplicates
   * (its definition tracker never sees them), so this reader drops them too.
   */
  readonly skipsTable?: (keys: readonly string[]) => boolean;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

const isBareKeyChar = (c: string): boolean => /^[A-Za-z0-9_-]$/.test(c);

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09) || code === 0x7f;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:([Tt ])(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}:\d{2})?)?/;
const localTimePattern = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?/;
const hexPattern = /^0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*/;
const octPattern = /^0o[0-7](?:_?[0-7])*/;
const binPattern = /^0b[01](?:_?[01])*/;
const floatPattern =
  /^[+-]?(?:0|[1-9](?:_?[0-9])*)(?:(?:\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[eE][+-]?[0-9](?:_?[0-9])*)/;
const intPattern = /^[+-]?(?:0|[1-9](?:_?[0-9])*)/;
const specialFloatPattern = /^[+-]?(?:inf|nan)/;

interface KeyPart {
  readonly name: string;
  readonly at: TomlPosition;
}

/** A value as written, before a builder turns inline tables and arrays into tables. */
type RawValue =
  | Exclude<TomlValue, TomlArray | TomlTable>
  | { readonly kind: "raw-array"; readonly items: RawValue[]; readonly at: TomlPosition }
  | {
      readonly kind: "raw-inline";
      readonly pairs: { keys: KeyPart[]; value: RawValue }[];
      readonly at: TomlPosition;
    };

/** Turns the parser's expressions into tables, by one library's definition rules. */
interface TableBuilder {
  header(keys: readonly KeyPart[], array: boolean, at: TomlPosition): void;
  keyValue(keys: readonly KeyPart[], value: RawValue): void;
  readonly root: TomlTable;
}

class Parser {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly headers: TomlHeader[] = [];
  private skipping = false;

  constructor(
    private readonly src: string,
    private readonly builder: TableBuilder,
    private readonly flavor: TomlFlavor,
    private readonly skipsTable: ((keys: readonly string[]) => boolean) | undefined,
  ) {}

  private here(): TomlPosition {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  private fail(message: string, at: TomlPosition = this.here()): never {
    throw new TomlSyntaxError(message, at);
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }

  private eof(): boolean {
    return this.pos >= this.src.length;
  }

  private skipWhitespace(): void {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }

  /** Consumes a newline (LF or CRLF) if one is next. */
  private newline(): boolean {
    if (this.peek() === "\n") {
      this.pos++;
      this.line++;
      this.lineStart = this.pos;
      return true;
    }
    if (this.peek() === "\r" && this.peek(1) === "\n") {
      this.pos += 2;
      this.line++;
      this.lineStart = this.pos;
      return true;
    }
    return false;
  }

  private comment(): void {
    if (this.peek() !== "#") return;
    this.pos++;
    while (!this.eof()) {
      const c = this.peek();
      if (c === "\n" || (c === "\r" && this.peek(1) === "\n")) return;
      const code = c.charCodeAt(0);
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a comment`);
      this.pos++;
    }
  }

  /** After a key/value pair or header: whitespace, a comment, then a newline or the end. */
  private endOfLine(): void {
    this.skipWhitespace();
    this.comment();
    if (this.eof()) return;
    if (!this.newline()) this.fail(`expected a newline, found ${describeChar(this.peek())}`);
  }

  parse(): TomlDocument {
    while (!this.eof()) {
      this.skipWhitespace();
      if (this.eof()) break;
      const c = this.peek();
      if (c === "#") {
        this.comment();
        this.endOfLine();
      } else if (this.newline()) {
        // blank line
      } else if (c === "[") {
        this.header();
      } else {
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
    const array = this.peek() === "[";
    if (array) this.pos++;
    this.skipWhitespace();
    const keys = this.key();
    this.skipWhitespace();
    if (this.peek() !== "]") this.fail(`expected "]" to close the table header`);
    this.pos++;
    if (array) {
      if (this.peek() !== "]") this.fail(`expected "]]" to close the array-of-tables header`);
      this.pos++;
    }
    this.headers.push({ keys: keys.map((k) => k.name), array, at });
    this.builder.header(keys, array, at);
    this.skipping = this.skipsTable?.(keys.map((k) => k.name)) ?? false;
    this.endOfLine();
  }

  private key(): KeyPart[] {
    const parts: KeyPart[] = [];
    for (;;) {
      this.skipWhitespace();
      const at = this.here();
      const c = this.peek();
      let name: string;
      if (c === '"') {
        if (this.src.startsWith('"""', this.pos)) this.fail("a key cannot be a multi-line string");
        name = this.basicString();
      } else if (c === "'") {
        if (this.src.startsWith("'''", this.pos)) this.fail("a key cannot be a multi-line string");
        name = this.literalString();
      } else {
        const start = this.pos;
        while (isBareKeyChar(this.peek())) this.pos++;
        if (this.pos === start) this.fail(`expected a key, found ${describeChar(c)}`);
        name = this.src.slice(start, this.pos);
      }
      parts.push({ name, at });
      this.skipWhitespace();
      if (this.peek() !== ".") return parts;
      this.pos++;
    }
  }

  private keyAndEquals(): KeyPart[] {
    const keys = this.key();
    this.skipWhitespace();
    if (this.peek() !== "=")
      this.fail(`expected "=" after the key, found ${describeChar(this.peek())}`);
    this.pos++;
    this.skipWhitespace();
    return keys;
  }

  private value(): RawValue {
    const at = this.here();
    const c = this.peek();
    if (c === '"') {
      const value = this.src.startsWith('"""', this.pos)
        ? this.multilineBasicString()
        : this.basicString();
      return { kind: "string", value, at };
    }
    if (c === "'") {
      const value = this.src.startsWith("'''", this.pos)
        ? this.multilineLiteralString()
        : this.literalString();
      return { kind: "string", value, at };
    }
    if (c === "[") return this.array(at);
    if (c === "{") return this.inlineTable(at);
    const rest = this.src.slice(this.pos, this.pos + 64);
    if (rest.startsWith("true") && this.terminatesAt(4)) {
      this.pos += 4;
      return { kind: "boolean", value: true, at };
    }
    if (rest.startsWith("false") && this.terminatesAt(5)) {
      this.pos += 5;
      return { kind: "boolean", value: false, at };
    }
    const dt = this.dateTime(at);
    if (dt !== undefined) return dt;
    return this.number(at);
  }

  private terminatesAt(offset: number): boolean {
    const c = this.peek(offset);
    return c === "" || " \t\r\n,]}#".includes(c);
  }

  private dateTime(at: TomlPosition): RawValue | undefined {
    const rest = this.src.slice(this.pos, this.pos + 64);
    const full = dateTimePattern.exec(rest);
    const burnt = this.flavor === "burntsushi";
    if (full !== null) {
      const [text, y, mo, d, sep, h, mi, s, fraction, offset] = full;
      const year = Number(y);
      const month = Number(mo);
      const day = Number(d);
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
        this.fail(`invalid date ${JSON.stringify(text.slice(0, 10))}`, at);
      }
      if (sep !== undefined) {
        this.checkTime(Number(h), Number(mi), Number(s), fraction, at);
        if (!burnt && offset !== undefined && offset.length === 6) {
          const oh = Number(offset.slice(1, 3));
          const om = Number(offset.slice(4, 6));
          if (oh > 23 || om > 59) this.fail(`invalid time offset ${JSON.stringify(offset)}`, at);
        }
      }
      this.pos += text.length;
      const type: TomlDateTimeKind =
        sep === undefined
          ? "local-date"
          : offset === undefined
            ? "local-datetime"
            : "offset-datetime";
      return { kind: "datetime", value: text, type, at };
    }
    const time = localTimePattern.exec(rest);
    if (time !== null) {
      this.checkTime(Number(time[1]), Number(time[2]), Number(time[3]), time[4], at);
      this.pos += time[0].length;
      return { kind: "datetime", value: time[0], type: "local-time", at };
    }
    return undefined;
  }

  private checkTime(
    hour: number,
    minute: number,
    second: number,
    fraction: string | undefined,
    at: TomlPosition,
  ): void {
    if (hour > 23 || minute > 59 || second > 59) this.fail("invalid time of day", at);
    // Go's time.Parse (BurntSushi) reads at most nine fractional digits.
    if (this.flavor === "burntsushi" && fraction !== undefined && fraction.length > 10) {
      this.fail("more than nine fractional digits of a second", at);
    }
  }

  private number(at: TomlPosition): RawValue {
    const rest = this.src.slice(this.pos, this.pos + 4096);
    for (const [pattern, radix] of [
      [hexPattern, 16],
      [octPattern, 8],
      [binPattern, 2],
    ] as const) {
      const m = pattern.exec(rest);
      if (m !== null) {
        this.pos += m[0].length;
        const digits = m[0].slice(2).replaceAll("_", "");
        const prefix = radix === 16 ? "0x" : radix === 8 ? "0o" : "0b";
        const value = BigInt(prefix + digits);
        if (value > INT64_MAX) this.fail(`integer ${m[0]} is out of the int64 range`, at);
        return { kind: "integer", value, at };
      }
    }
    const special = specialFloatPattern.exec(rest);
    if (special !== null) {
      this.pos += special[0].length;
      const body = special[0].replace(/^[+-]/, "");
      const negative = special[0].startsWith("-");
      const value = body === "nan" ? Number.NaN : negative ? -Infinity : Infinity;
      return { kind: "float", value, at };
    }
    const float = floatPattern.exec(rest);
    if (float !== null) {
      this.pos += float[0].length;
      const value = Number(float[0].replaceAll("_", ""));
      if (!Number.isFinite(value)) this.fail(`float ${float[0]} is out of range`, at);
      return { kind: "float", value, at };
    }
    const int = intPattern.exec(rest);
    if (int !== null) {
      this.pos += int[0].length;
      const value = BigInt(int[0].replaceAll("_", ""));
      if (value > INT64_MAX || value < INT64_MIN)
        this.fail(`integer ${int[0]} is out of the int64 range`, at);
      return { kind: "integer", value, at };
    }
    return this.fail(`expected a value, found ${describeChar(this.peek())}`, at);
  }

  /** Skips whitespace, newlines and comments inside an array. */
  private arraySpace(): void {
    for (;;) {
      this.skipWhitespace();
      this.comment();
      if (!this.newline()) return;
    }
  }

  private array(at: TomlPosition): RawValue {
    this.pos++;
    const items: RawValue[] = [];
    for (;;) {
      this.arraySpace();
      if (this.peek() === "]") {
        this.pos++;
        break;
      }
      if (this.eof()) this.fail("unterminated array");
      items.push(this.value());
      this.arraySpace();
      if (this.peek() === ",") {
        this.pos++;
        continue;
      }
      if (this.peek() === "]") {
        this.pos++;
        break;
      }
      this.fail(`expected "," or "]" in an array, found ${describeChar(this.peek())}`);
    }
    return { kind: "raw-array", items, at };
  }

  private inlineTable(at: TomlPosition): RawValue {
    this.pos++;
    const pairs: { keys: KeyPart[]; value: RawValue }[] = [];
    this.skipWhitespace();
    if (this.peek() === "}") {
      this.pos++;
    } else {
      for (;;) {
        const keys = this.keyAndEquals();
        pairs.push({ keys, value: this.value() });
        this.skipWhitespace();
        if (this.peek() === ",") {
          this.pos++;
          this.skipWhitespace();
          if (this.peek() === "}") this.fail("trailing comma in an inline table");
          continue;
        }
        if (this.peek() === "}") {
          this.pos++;
          break;
        }
        this.fail(`expected "," or "}" in an inline table, found ${describeChar(this.peek())}`);
      }
    }
    return { kind: "raw-inline", pairs, at };
  }

  private escape(): string {
    const at = this.here();
    this.pos++;
    const c = this.peek();
    this.pos++;
    switch (c) {
      case "b":
        return "\b";
      case "t":
        return "\t";
      case "n":
        return "\n";
      case "f":
        return "\f";
      case "r":
        return "\r";
      case '"':
        return '"';
      case "\\":
        return "\\";
      case "e":
        // go-toml v2.3.0 already reads TOML 1.1's escape for ESC.
        if (this.flavor === "go-toml") return "\u001b";
        return this.fail(`invalid escape sequence \\${c}`, at);
      case "u":
      case "U": {
        const length = c === "u" ? 4 : 8;
        const digits = this.src.slice(this.pos, this.pos + length);
        if (!new RegExp(`^[0-9A-Fa-f]{${length}}$`).test(digits)) {
          this.fail(`invalid \\${c} escape`, at);
        }
        this.pos += length;
        const code = Number.parseInt(digits, 16);
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          this.fail(`\\${c}${digits} is not a Unicode scalar value`, at);
        }
        return String.fromCodePoint(code);
      }
      default:
        return this.fail(`invalid escape sequence \\${c}`, at);
    }
  }

  private basicString(): string {
    this.pos++;
    let out = "";
    for (;;) {
      if (this.eof()) this.fail("unterminated string");
      const c = this.peek();
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === "\\") {
        out += this.escape();
        continue;
      }
      const code = c.charCodeAt(0);
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a string`);
      out += c;
      this.pos++;
    }
  }

  private literalString(): string {
    this.pos++;
    const start = this.pos;
    for (;;) {
      if (this.eof()) this.fail("unterminated string");
      const c = this.peek();
      if (c === "'") {
        const out = this.src.slice(start, this.pos);
        this.pos++;
        return out;
      }
      const code = c.charCodeAt(0);
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a string`);
      this.pos++;
    }
  }

  /** The closing run of a multi-line string: 3 to 5 quotes, the extra ones are content. */
  private closingQuotes(quote: string): number {
    let n = 0;
    while (this.peek(n) === quote) n++;
    return n;
  }

  private multilineBasicString(): string {
    this.pos += 3;
    this.newline();
    let out = "";
    for (;;) {
      if (this.eof()) this.fail("unterminated multi-line string");
      const c = this.peek();
      if (c === '"') {
        const n = this.closingQuotes('"');
        if (n >= 3) {
          if (n > 5) this.fail("too many quotes at the end of a multi-line string");
          out += '"'.repeat(n - 3);
          this.pos += n;
          return out;
        }
        out += '"'.repeat(n);
        this.pos += n;
        continue;
      }
      if (c === "\\") {
        // A backslash ending a line swallows the newline and following whitespace.
        let i = this.pos + 1;
        while (this.src[i] === " " || this.src[i] === "\t") i++;
        if (this.src[i] === "\n" || (this.src[i] === "\r" && this.src[i + 1] === "\n")) {
          this.pos = i;
          for (;;) {
            this.skipWhitespace();
            if (!this.newline()) break;
          }
          continue;
        }
        out += this.escape();
        continue;
      }
      if (this.newline()) {
        out += "\n";
        continue;
      }
      const code = c.charCodeAt(0);
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a string`);
      out += c;
      this.pos++;
    }
  }

  private multilineLiteralString(): string {
    this.pos += 3;
    this.newline();
    let out = "";
    for (;;) {
      if (this.eof()) this.fail("unterminated multi-line string");
      const c = this.peek();
      if (c === "'") {
        const n = this.closingQuotes("'");
        if (n >= 3) {
          if (n > 5) this.fail("too many quotes at the end of a multi-line string");
          out += "'".repeat(n - 3);
          this.pos += n;
          return out;
        }
        out += "'".repeat(n);
        this.pos += n;
        continue;
      }
      if (this.newline()) {
        out += "\n";
        continue;
      }
      const code = c.charCodeAt(0);
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a string`);
      out += c;
      this.pos++;
    }
  }
}

function fail(message: string, at: TomlPosition): never {
  throw new TomlSyntaxError(message, at);
}

function newTable(at: TomlPosition, origin: TableOrigin): TomlTable {
  return { kind: "table", entries: new Map(), at, origin };
}

/** TOML 1.0's table rules, as go-toml v2 enforces them. */
class StrictBuilder implements TableBuilder {
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
class BurntSushiBuilder implements TableBuilder {
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

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, "0");
}

function describeChar(c: string): string {
  if (c === "") return "the end of the file";
  if (c === "\n" || c === "\r") return "a newline";
  return JSON.stringify(c);
}

function quoteKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** What Go calls a TOML value's type in messages: `string`, `integer`, `table`… */
export function kindName(value: TomlValue): string {
  if (value.kind === "array" && value.ofTables) return "array of tables";
  if (value.kind === "datetime") return value.type;
  return value.kind;
}

/**
 * Parses TOML 1.0 text. Throws {@link TomlSyntaxError} (with line and
 * column) on anything TOML 1.0 rejects.
 */
export function parseToml(text: string, options: TomlParseOptions = {}): TomlDocument {
  const flavor = options.flavor ?? "go-toml";
  let src = text;
  // BurntSushi skips a UTF-8 byte-order mark; go-toml does not.
  if (flavor === "burntsushi" && src.startsWith("\uFEFF")) src = src.slice(1);
  const builder = flavor === "burntsushi" ? new BurntSushiBuilder() : new StrictBuilder();
  const skipsTable = flavor === "go-toml" ? options.skipsTable : undefined;
  return new Parser(src, builder, flavor, skipsTable).parse();
}
