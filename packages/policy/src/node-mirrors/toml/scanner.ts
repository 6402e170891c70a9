/**
 * The token level of the TOML reader: where the reader is (line and column
 * for every error), whitespace, newlines and comments, and the scalar values
 * with their exact TOML 1.0 rules (strings and their escapes, integers in
 * int64 range, floats, calendar-checked dates and times). The document
 * structure (keys, headers, arrays, inline tables) is `toml-parser.ts`'s.
 */
import {
  type TomlArray,
  type TomlDateTimeKind,
  type TomlFlavor,
  type TomlPosition,
  TomlSyntaxError,
  type TomlTable,
  type TomlValue,
} from "./types.js";

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The run of a basic string's characters that need no attention: tab and printable, but `"` and `\\`. */
const plainBasic = /[\t !#-[\]-~\u0080-\uffff]*/y;

/** What may follow `true` or `false`: whitespace, a newline, `,`, `]`, `}` or a comment. */
const TERMINATORS = new Set([0x20, 0x09, 0x0d, 0x0a, 0x2c, 0x5d, 0x7d, 0x23]);

/** `A-Za-z0-9_-`, by character code. */
export function isBareKeyCode(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2d
  );
}

export function isControl(code: number): boolean {
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

export interface KeyPart {
  readonly name: string;
  readonly at: TomlPosition;
}

/** A value as written, before a builder turns inline tables and arrays into tables. */
export type RawValue =
  | Exclude<TomlValue, TomlArray | TomlTable>
  | { readonly kind: "raw-array"; readonly items: RawValue[]; readonly at: TomlPosition }
  | {
      readonly kind: "raw-inline";
      readonly pairs: { keys: KeyPart[]; value: RawValue }[];
      readonly at: TomlPosition;
    };

/** Reads the tokens of `src`; {@link TomlParser} reads the document from them. */
export abstract class TomlScanner {
  protected pos = 0;
  protected line = 1;
  protected lineStart = 0;

  /**
   * `copyStrings`: string values and keys in their own storage rather than
   * views into `src` (see {@link detached}).
   */
  constructor(
    protected readonly src: string,
    protected readonly flavor: TomlFlavor,
    private readonly copyStrings: boolean,
  ) {}

  /** A string read from `src`, copied when the reader keeps its strings apart from the text. */
  private own(text: string): string {
    return this.copyStrings ? detached(text) : text;
  }

  protected here(): TomlPosition {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  protected fail(message: string, at: TomlPosition = this.here()): never {
    throw new TomlSyntaxError(message, at);
  }

  /** The character code `offset` ahead, `NaN` past the end: compared without making a string. */
  protected code(offset = 0): number {
    return this.src.charCodeAt(this.pos + offset);
  }

  protected peek(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }

  protected eof(): boolean {
    return this.pos >= this.src.length;
  }

  protected skipWhitespace(): void {
    const src = this.src;
    let pos = this.pos;
    for (;;) {
      const c = src.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x09) break;
      pos++;
    }
    this.pos = pos;
  }

  /** Consumes a newline (LF or CRLF) if one is next. */
  protected newline(): boolean {
    if (this.code() === 0x0a) {
      this.pos++;
      this.line++;
      this.lineStart = this.pos;
      return true;
    }
    if (this.code() === 0x0d && this.code(1) === 0x0a) {
      this.pos += 2;
      this.line++;
      this.lineStart = this.pos;
      return true;
    }
    return false;
  }

  protected comment(): void {
    if (this.code() !== 0x23) return;
    this.pos++;
    while (!this.eof()) {
      const code = this.code();
      if (code === 0x0a || (code === 0x0d && this.code(1) === 0x0a)) return;
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a comment`);
      this.pos++;
    }
  }

  /** After a key/value pair or header: whitespace, a comment, then a newline or the end. */
  protected endOfLine(): void {
    this.skipWhitespace();
    this.comment();
    if (this.eof()) return;
    if (!this.newline()) this.fail(`expected a newline, found ${describeChar(this.peek())}`);
  }

  protected terminatesAt(offset: number): boolean {
    const c = this.code(offset);
    return Number.isNaN(c) || TERMINATORS.has(c);
  }

  /** Whether the quote `c` at the reader opens a multi-line string (three in a row). */
  protected tripleQuote(c: number): boolean {
    return this.code(1) === c && this.code(2) === c;
  }

  protected dateTime(at: TomlPosition): RawValue | undefined {
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

  protected checkTime(
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

  protected number(at: TomlPosition): RawValue {
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
  protected escape(): string {
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

  protected basicString(): string {
    this.pos++;
    // The usual string, without escapes or control characters, in one match.
    plainBasic.lastIndex = this.pos;
    plainBasic.test(this.src);
    const end = plainBasic.lastIndex;
    if (this.src.charCodeAt(end) === 0x22) {
      const text = this.src.slice(this.pos, end);
      this.pos = end + 1;
      return this.own(text);
    }
    let out = "";
    let from = this.pos;
    for (;;) {
      if (this.eof()) this.fail("unterminated string");
      const code = this.src.charCodeAt(this.pos);
      if (code === 0x22) {
        out += this.src.slice(from, this.pos);
        this.pos++;
        return this.own(out);
      }
      if (code === 0x5c) {
        out += this.src.slice(from, this.pos);
        out += this.escape();
        from = this.pos;
        continue;
      }
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a string`);
      this.pos++;
    }
  }

  protected literalString(): string {
    this.pos++;
    const start = this.pos;
    for (;;) {
      if (this.eof()) this.fail("unterminated string");
      const c = this.peek();
      if (c === "'") {
        const out = this.own(this.src.slice(start, this.pos));
        this.pos++;
        return out;
      }
      const code = c.charCodeAt(0);
      if (isControl(code)) this.fail(`control character U+${hex4(code)} in a string`);
      this.pos++;
    }
  }

  /** The closing run of a multi-line string: 3 to 5 quotes, the extra ones are content. */
  protected closingQuotes(quote: string): number {
    let n = 0;
    while (this.peek(n) === quote) n++;
    return n;
  }

  /**
   * A multi-line string after its opening `"""` or `'''`: the same closing
   * and newline rules for both; only a basic string (`"`) reads escapes and
   * line-ending backslashes.
   */
  protected multilineString(quote: '"' | "'"): string {
    this.pos += 3;
    this.newline();
    let out = "";
    for (;;) {
      if (this.eof()) this.fail("unterminated multi-line string");
      const c = this.peek();
      if (c === quote) {
        const n = this.closingQuotes(quote);
        if (n >= 3) {
          if (n > 5) this.fail("too many quotes at the end of a multi-line string");
          out += quote.repeat(n - 3);
          this.pos += n;
          return out;
        }
        out += quote.repeat(n);
        this.pos += n;
        continue;
      }
      if (quote === '"' && c === "\\") {
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
}

/**
 * `text` in its own storage. A slice of the file is V8's view into the
 * whole file's text, keeping it alive as long as the value (a prefix, a
 * location), and reading through such a view is slower; joining pieces of
 * it builds one new string. Short slices are always copies. The copy costs
 * more than the slice, so it is made only for strings kept and matched
 * long after the file is read.
 */
function detached(text: string): string {
  return text.length < 13 ? text : [text.slice(0, 1), text.slice(1)].join("");
}

export function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, "0");
}

export function describeChar(c: string): string {
  if (c === "") return "the end of the file";
  if (c === "\n" || c === "\r") return "a newline";
  return JSON.stringify(c);
}

export function quoteKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
