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

export interface TomlParseOptions {
  /** Skip a leading U+FEFF (BurntSushi/toml does; go-toml v2 does not). */
  readonly allowBom?: boolean;
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

class Parser {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly headers: TomlHeader[] = [];
  private readonly root: TomlTable;
  private current: TomlTable;

  constructor(private readonly src: string) {
    this.root = { kind: "table", entries: new Map(), at: { line: 1, column: 1 }, origin: "root" };
    this.current = this.root;
  }

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
        this.keyValue(this.current, "dotted");
        this.endOfLine();
      }
    }
    markClosed(this.root, false);
    return { root: this.root, headers: this.headers };
  }

  private header(): void {
    const at = this.here();
    this.pos++;
    const array = this.peek() === "[";
    if (array) this.pos++;
    this.skipWhitespace();
    const keys = this.key().map((k) => k.name);
    this.skipWhitespace();
    if (this.peek() !== "]") this.fail(`expected "]" to close the table header`);
    this.pos++;
    if (array) {
      if (this.peek() !== "]") this.fail(`expected "]]" to close the array-of-tables header`);
      this.pos++;
    }
    this.headers.push({ keys, array, at });
    this.current = array ? this.defineArrayTable(keys, at) : this.defineTable(keys, at);
    this.endOfLine();
  }

  /** Walks to the parent of the last header key, creating implicit tables. */
  private walkHeader(keys: readonly string[], at: TomlPosition): TomlTable {
    let table = this.root;
    for (const key of keys.slice(0, -1)) {
      const entry = table.entries.get(key);
      if (entry === undefined) {
        const created: TomlTable = { kind: "table", entries: new Map(), at, origin: "implicit" };
        table.entries.set(key, { value: created, keyAt: at });
        table = created;
        continue;
      }
      const value = entry.value;
      if (value.kind === "table") {
        if (value.origin === "inline")
          this.fail(`key ${quoteKey(key)} is an inline table, which is closed`, at);
        table = value;
      } else if (value.kind === "array" && value.ofTables) {
        const last = value.items[value.items.length - 1];
        if (last?.kind !== "table") this.fail(`key ${quoteKey(key)} is not a table`, at);
        table = last;
      } else {
        this.fail(`key ${quoteKey(key)} is already defined as a ${kindName(value)}`, at);
      }
    }
    return table;
  }

  private defineTable(keys: readonly string[], at: TomlPosition): TomlTable {
    const parent = this.walkHeader(keys, at);
    const last = keys[keys.length - 1] as string;
    const entry = parent.entries.get(last);
    if (entry === undefined) {
      const created: TomlTable = { kind: "table", entries: new Map(), at, origin: "header" };
      parent.entries.set(last, { value: created, keyAt: at });
      return created;
    }
    const value = entry.value;
    if (value.kind === "table" && value.origin === "implicit") {
      value.origin = "header";
      return value;
    }
    return this.fail(`table ${keys.map(quoteKey).join(".")} is already defined`, at);
  }

  private defineArrayTable(keys: readonly string[], at: TomlPosition): TomlTable {
    const parent = this.walkHeader(keys, at);
    const last = keys[keys.length - 1] as string;
    const entry = parent.entries.get(last);
    const created: TomlTable = { kind: "table", entries: new Map(), at, origin: "header" };
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
    return this.fail(
      `key ${keys.map(quoteKey).join(".")} is already defined as a ${kindName(value)}`,
      at,
    );
  }

  private key(): { name: string; at: TomlPosition }[] {
    const parts: { name: string; at: TomlPosition }[] = [];
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

  /** Parses `key = value` into `table`; dotted keys create tables of `origin`. */
  private keyValue(table: TomlTable, origin: "dotted"): void {
    const keys = this.key();
    this.skipWhitespace();
    if (this.peek() !== "=")
      this.fail(`expected "=" after the key, found ${describeChar(this.peek())}`);
    this.pos++;
    this.skipWhitespace();
    let target = table;
    for (const part of keys.slice(0, -1)) {
      const entry = target.entries.get(part.name);
      if (entry === undefined) {
        const created: TomlTable = { kind: "table", entries: new Map(), at: part.at, origin };
        target.entries.set(part.name, { value: created, keyAt: part.at });
        target = created;
        continue;
      }
      if (entry.value.kind !== "table" || entry.value.origin !== "dotted") {
        this.fail(`key ${quoteKey(part.name)} is already defined and cannot be extended`, part.at);
      }
      target = entry.value;
    }
    const last = keys[keys.length - 1] as { name: string; at: TomlPosition };
    if (target.entries.has(last.name))
      this.fail(`key ${quoteKey(last.name)} is already defined`, last.at);
    const value = this.value();
    target.entries.set(last.name, { value, keyAt: last.at });
  }

  private value(): TomlValue {
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

  private dateTime(at: TomlPosition): TomlValue | undefined {
    const rest = this.src.slice(this.pos, this.pos + 64);
    const full = dateTimePattern.exec(rest);
    if (full !== null) {
      const [text, y, mo, d, sep, h, mi, s, , offset] = full;
      const year = Number(y);
      const month = Number(mo);
      const day = Number(d);
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
        this.fail(`invalid date ${JSON.stringify(text.slice(0, 10))}`, at);
      }
      if (sep !== undefined) {
        this.checkTime(Number(h), Number(mi), Number(s), at);
        if (offset !== undefined && offset.length === 6) {
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
      this.checkTime(Number(time[1]), Number(time[2]), Number(time[3]), at);
      this.pos += time[0].length;
      return { kind: "datetime", value: time[0], type: "local-time", at };
    }
    return undefined;
  }

  private checkTime(hour: number, minute: number, second: number, at: TomlPosition): void {
    if (hour > 23 || minute > 59 || second > 59) this.fail("invalid time of day", at);
  }

  private number(at: TomlPosition): TomlValue {
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

  private array(at: TomlPosition): TomlArray {
    this.pos++;
    const items: TomlValue[] = [];
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
    return { kind: "array", items, ofTables: false, at };
  }

  private inlineTable(at: TomlPosition): TomlTable {
    this.pos++;
    const table: TomlTable = { kind: "table", entries: new Map(), at, origin: "dotted" };
    this.skipWhitespace();
    if (this.peek() === "}") {
      this.pos++;
    } else {
      for (;;) {
        this.keyValue(table, "dotted");
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
    markClosed(table, true);
    return table;
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

/** Closes a finished inline table (and every table inside it) to later extension. */
function markClosed(table: TomlTable, inline: boolean): void {
  if (inline) table.origin = "inline";
  for (const { value } of table.entries.values()) {
    if (value.kind === "table" && inline) markClosed(value, true);
    if (value.kind === "array" && inline) {
      for (const item of value.items) if (item.kind === "table") markClosed(item, true);
    }
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
  let src = text;
  if (options.allowBom === true && src.startsWith("\uFEFF")) src = src.slice(1);
  return new Parser(src).parse();
}
