/**
 * A JSON reader as strict as the decoder the kubelet reads its records with
 * (apimachinery's strict serializer over `sigs.k8s.io/json`): RFC 8259 syntax
 * only, one top-level value, and a repeated key in any object is an error
 * (`JSON.parse` silently keeps the last one). Objects come back as `Map`s so
 * that keys such as `__proto__` stay plain data.
 *
 * Strings follow Go's unquoting: an unpaired `\uD800`-style escape becomes
 * U+FFFD.
 */

/** A parsed JSON value; objects keep their keys in a `Map`. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A parsed JSON object. */
export type JsonObject = Map<string, JsonValue>;

/** Thrown for any syntax error or repeated key; carries the offset. */
export class StrictJsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = "StrictJsonSyntaxError";
  }
}

/** Parses `text` strictly; throws `StrictJsonSyntaxError` on anything Go's strict decoder refuses. */
export function parseStrictJson(text: string): JsonValue {
  const parser = new Parser(text);
  try {
    parser.skipSpace();
    const value = parser.value(0);
    parser.skipSpace();
    if (parser.pos !== text.length) parser.fail("unexpected data after top-level value");
    return value;
  } catch (error) {
    if (error instanceof RangeError)
      throw new StrictJsonSyntaxError("nesting too deep", parser.pos);
    throw error;
  }
}

/** A run of string characters that need no attention (no quote, backslash or control character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings, so the run stops at them.
const plainRun = /[^"\\\u0000-\u001f]*/y;

/** Go's decoder refuses nesting deeper than this. */
const maxDepth = 10000;

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(message: string): never {
    throw new StrictJsonSyntaxError(message, this.pos);
  }

  skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  value(depth: number): JsonValue {
    if (depth > maxDepth) this.fail("exceeded max depth");
    const c = this.s[this.pos];
    switch (c) {
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      default:
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
        return this.fail(
          c === undefined
            ? "unexpected end of JSON input"
            : `invalid character ${JSON.stringify(c)}`,
        );
    }
  }

  literal<T>(word: string, value: T): T {
    if (!this.s.startsWith(word, this.pos)) this.fail("invalid literal");
    this.pos += word.length;
    return value;
  }

  number(): number {
    const m = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    m.lastIndex = this.pos;
    const found = m.exec(this.s);
    if (!found) this.fail("invalid number");
    this.pos += found[0].length;
    return Number(found[0]);
  }

  string(): string {
    const s = this.s;
    this.pos++; // opening quote
    plainRun.lastIndex = this.pos;
    plainRun.test(s);
    if (s.charCodeAt(plainRun.lastIndex) === 0x22) {
      // No escapes: the common case.
      const out = s.slice(this.pos, plainRun.lastIndex);
      this.pos = plainRun.lastIndex + 1;
      return out;
    }
    let out = "";
    let start = this.pos;
    while (true) {
      if (this.pos >= s.length) this.fail("unexpected end of JSON input in string");
      const c = s.charCodeAt(this.pos);
      if (c === 0x22) {
        out += s.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail("invalid control character in string");
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += s.slice(start, this.pos);
      const e = s[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const unit = this.hex4(this.pos);
          this.pos += 4;
          if (unit >= 0xd800 && unit <= 0xdbff && s.startsWith("\\u", this.pos)) {
            const low = this.hex4OrNegative(this.pos + 2);
            if (low >= 0xdc00 && low <= 0xdfff) {
              out += String.fromCharCode(unit, low);
              this.pos += 6;
              break;
            }
          }
          out += unit >= 0xd800 && unit <= 0xdfff ? "\ufffd" : String.fromCharCode(unit);
          break;
        }
        default:
          this.pos -= 1;
          this.fail("invalid escape in string");
      }
      start = this.pos;
    }
  }

  hex4(at: number): number {
    const v = this.hex4OrNegative(at);
    if (v < 0) {
      this.pos = at;
      this.fail("invalid \\u escape");
    }
    return v;
  }

  hex4OrNegative(at: number): number {
    const h = this.s.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(h) ? Number.parseInt(h, 16) : -1;
  }

  array(depth: number): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipSpace();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return out;
    }
    while (true) {
      this.skipSpace();
      out.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.s[this.pos];
      this.pos++;
      if (c === "]") return out;
      if (c !== ",") {
        this.pos--;
        this.fail("expected , or ] in array");
      }
    }
  }

  object(depth: number): JsonObject {
    this.pos++;
    const out: JsonObject = new Map();
    this.skipSpace();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return out;
    }
    while (true) {
      this.skipSpace();
      if (this.s[this.pos] !== '"') this.fail("expected a string key in object");
      const keyAt = this.pos;
      const key = this.string();
      if (out.has(key)) {
        this.pos = keyAt;
        this.fail(`duplicate field ${JSON.stringify(key)}`);
      }
      this.skipSpace();
      if (this.s[this.pos] !== ":") this.fail("expected : after object key");
      this.pos++;
      this.skipSpace();
      out.set(key, this.value(depth + 1));
      this.skipSpace();
      const c = this.s[this.pos];
      this.pos++;
      if (c === "}") return out;
      if (c !== ",") {
        this.pos--;
        this.fail("expected , or } in object");
      }
    }
  }
}
