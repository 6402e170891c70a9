/**
 * Go's `encoding/json` where it differs from `JSON.parse` and
 * `JSON.stringify`, for the three readers and writers that must agree with
 * Go byte for byte: the kubelet keyring's docker config (Go sees every
 * member of an object, repeated names included, and matches names to fields
 * case-insensitively), the kubelet's pull records (apimachinery's strict
 * decoder: a repeated key is an error) and kuik's annotations and the
 * kubelet's credential hash (Go's HTML-safe string encoding, whose escapes
 * for backspace and form feed changed in Go 1.22).
 *
 * One parser serves both readers: it reports values to a {@link Builder},
 * which decides what an object is (a member list, a `Map`) and whether a
 * repeated name is an error. Strings follow Go's unquoting: an unpaired
 * `\uD800`-style escape becomes U+FFFD. The text must already be well
 * formed (see `utf8.toWellFormed`), as Go's input is valid UTF-8 or has
 * been replaced.
 */

import { Compare } from "./strings.js";

/** Go's `json.SyntaxError`: the message and the offset it was found at. */
export class JsonSyntaxError extends Error {
  override readonly name = "JsonSyntaxError";
  constructor(
    message: string,
    readonly Offset: number,
  ) {
    super(`${message} at offset ${Offset}`);
  }
}

/**
 * Builds values as the parser reports them. `O` is an object being built,
 * `A` an array being built, `V` a finished value.
 */
export interface Builder<V, O, A> {
  object(): O;
  /** Adds a member; throw `JsonSyntaxError` (with `keyOffset`) to refuse it, e.g. a repeated name. */
  member(object: O, name: string, value: V, keyOffset: number): void;
  endObject(object: O): V;
  array(): A;
  item(array: A, value: V): void;
  endArray(array: A): V;
  string(value: string): V;
  /** A number, as its text (Go keeps `json.Number` text; a builder may convert). */
  number(text: string): V;
  boolean(value: boolean): V;
  null(): V;
}

/** Go's decoder refuses nesting deeper than this. */
const maxDepth = 10000;

/** A run of string characters that need no attention (no quote, backslash or control character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings, so the run stops at them.
const plainRun = /[^"\\\u0000-\u001f]*/y;

/** The JSON number grammar. */
const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * Parses one JSON document (surrounding whitespace allowed) with `builder`,
 * or throws {@link JsonSyntaxError}.
 */
export function Decode<V, O, A>(text: string, builder: Builder<V, O, A>): V {
  const parser = new Parser(text, builder);
  try {
    parser.skipSpace();
    const value = parser.value(0);
    parser.skipSpace();
    if (parser.pos !== text.length) parser.fail("invalid character after top-level value");
    return value;
  } catch (error) {
    if (error instanceof RangeError) throw new JsonSyntaxError("nesting too deep", parser.pos);
    throw error;
  }
}

class Parser<V, O, A> {
  pos = 0;
  constructor(
    private readonly s: string,
    private readonly b: Builder<V, O, A>,
  ) {}

  fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }

  skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  value(depth: number): V {
    if (depth > maxDepth) this.fail("exceeded max depth");
    const c = this.s[this.pos];
    switch (c) {
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case '"':
        return this.b.string(this.string());
      case "t":
        return this.b.boolean(this.literal("true", true));
      case "f":
        return this.b.boolean(this.literal("false", false));
      case "n":
        this.literal("null", null);
        return this.b.null();
      default:
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
        return this.fail(
          c === undefined
            ? "unexpected end of JSON input"
            : `invalid character ${JSON.stringify(c)} looking for beginning of value`,
        );
    }
  }

  literal<T>(word: string, value: T): T {
    if (!this.s.startsWith(word, this.pos)) this.fail("invalid literal");
    this.pos += word.length;
    return value;
  }

  number(): V {
    numberPattern.lastIndex = this.pos;
    const found = numberPattern.exec(this.s);
    if (!found) return this.fail("invalid number");
    this.pos += found[0].length;
    return this.b.number(found[0]);
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
        case "\\":
        case "/":
          out += e;
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

  /** Steps over `,` (true: another element follows) or `close` (false), or fails. */
  separator(close: string, what: string): boolean {
    this.skipSpace();
    const c = this.s[this.pos];
    if (c === ",") {
      this.pos++;
      return true;
    }
    if (c === close) {
      this.pos++;
      return false;
    }
    return this.fail(`expected , or ${close} in ${what}`);
  }

  array(depth: number): V {
    this.pos++;
    const out = this.b.array();
    this.skipSpace();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return this.b.endArray(out);
    }
    do {
      this.skipSpace();
      this.b.item(out, this.value(depth + 1));
    } while (this.separator("]", "array"));
    return this.b.endArray(out);
  }

  object(depth: number): V {
    this.pos++;
    const out = this.b.object();
    this.skipSpace();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return this.b.endObject(out);
    }
    do {
      this.skipSpace();
      if (this.s[this.pos] !== '"') this.fail("expected a string key in object");
      const keyAt = this.pos;
      const key = this.string();
      this.skipSpace();
      if (this.s[this.pos] !== ":") this.fail("expected : after object key");
      this.pos++;
      this.skipSpace();
      this.b.member(out, key, this.value(depth + 1), keyAt);
    } while (this.separator("}", "object"));
    return this.b.endObject(out);
  }
}

/** A parsed JSON value that keeps what Go sees: every member of an object, in order, repeats included. */
export type Value =
  | { readonly kind: "object"; readonly members: readonly (readonly [string, Value])[] }
  | { readonly kind: "array"; readonly items: readonly Value[] }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "number"; readonly text: string }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "null" };

type Members = (readonly [string, Value])[];

const nullValue: Value = { kind: "null" };

/** Builds {@link Value}s: members kept in order, repeated names allowed (as `encoding/json` reads them). */
export const members: Builder<Value, Members, Value[]> = {
  object: () => [],
  member: (object, name, value) => {
    object.push([name, value]);
  },
  endObject: (object) => ({ kind: "object", members: object }),
  array: () => [],
  item: (array, value) => {
    array.push(value);
  },
  endArray: (items) => ({ kind: "array", items }),
  string: (value) => ({ kind: "string", value }),
  number: (text) => ({ kind: "number", text }),
  boolean: (value) => ({ kind: "boolean", value }),
  null: () => nullValue,
};

/** A plain JSON value whose objects are `Map`s, so keys such as `__proto__` stay data. */
export type StrictValue = null | boolean | number | string | StrictValue[] | StrictObject;
/** An object of a {@link StrictValue}. */
export type StrictObject = Map<string, StrictValue>;

/**
 * Builds {@link StrictValue}s as apimachinery's strict decoder (over
 * `sigs.k8s.io/json`) reads: a repeated key in any object is an error, which
 * `JSON.parse` would silently resolve to the last one.
 */
export const strict: Builder<StrictValue, StrictObject, StrictValue[]> = {
  object: () => new Map(),
  member: (object, name, value, keyOffset) => {
    if (object.has(name))
      throw new JsonSyntaxError(`duplicate field ${JSON.stringify(name)}`, keyOffset);
    object.set(name, value);
  },
  endObject: (object) => object,
  array: () => [],
  item: (array, value) => {
    array.push(value);
  },
  endArray: (array) => array,
  string: (value) => value,
  number: (text) => Number(text),
  boolean: (value) => value,
  null: () => null,
};

export { FoldName } from "./json-fold.js";

/**
 * Which Go wrote the JSON: Go 1.22 and later write backspace and form feed
 * as `\b` and `\f`; earlier releases write `\u0008` and `\u000c`.
 */
export type GoVersion = "go1.19" | "go1.22";

const hex = "0123456789abcdef";

/**
 * Quotes a string exactly as Go's `encoding/json` does with HTML escaping on
 * (the default of `json.Marshal` and `json.NewEncoder`): `"` and `\`
 * backslash-escaped; `\n`, `\r`, `\t` short forms, and `\b`, `\f` too from
 * Go 1.22 on; every other control character, `<`, `>`, `&`, U+2028 and
 * U+2029 as `\u00XX` / `\u20XX`. A lone surrogate stands for a byte Go could
 * not decode as UTF-8, and is written `\ufffd` as Go writes such a byte.
 *
 * @example
 * ```ts
 * import { json } from "@kubeimg/core/internal";
 *
 * json.Quote("a<b\f", "go1.19"); // → "\"a\\u003cb\\u000c\""
 * json.Quote("a<b\f", "go1.22"); // → "\"a\\u003cb\\f\""
 * ```
 */
export function Quote(s: string, go: GoVersion): string {
  const shortBf = go !== "go1.19";
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22:
          esc = '\\"';
          break;
        case 0x5c:
          esc = "\\\\";
          break;
        case 0x0a:
          esc = "\\n";
          break;
        case 0x0d:
          esc = "\\r";
          break;
        case 0x09:
          esc = "\\t";
          break;
        case 0x08:
          esc = shortBf ? "\\b" : "\\u0008";
          break;
        case 0x0c:
          esc = shortBf ? "\\f" : "\\u000c";
          break;
        default:
          esc = `\\u00${hex[c >> 4]}${hex[c & 0xf]}`;
      }
    } else if (c === 0x2028 || c === 0x2029) {
      esc = c === 0x2028 ? "\\u2028" : "\\u2029";
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = "\\ufffd";
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return `${out + s.slice(start)}"`;
}

/**
 * Returns the JSON text `json.Marshal` gives for a `map[string]string`: keys
 * sorted by byte order, no spaces, strings as {@link Quote} writes them.
 *
 * @example
 * ```ts
 * import { json } from "@kubeimg/core/internal";
 *
 * json.MarshalStringMap({ b: "x<y", a: "1" }, "go1.22"); // → "{\"a\":\"1\",\"b\":\"x\\u003cy\"}"
 * ```
 */
export function MarshalStringMap(map: Readonly<Record<string, string>>, go: GoVersion): string {
  const keys = Object.keys(map).sort(Compare);
  return `{${keys.map((k) => `${Quote(k, go)}:${Quote(map[k] ?? "", go)}`).join(",")}}`;
}
