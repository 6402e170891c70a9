/**
 * A JSON reader that keeps what Go's `encoding/json` can see and
 * `JSON.parse` hides: every member of an object in document order, repeated
 * names included. String escapes follow Go: an unpaired surrogate escape
 * becomes U+FFFD.
 */

/** A parsed JSON value; objects keep all their members, in order. */
export type GoJsonValue =
  | { readonly kind: "object"; readonly members: readonly (readonly [string, GoJsonValue])[] }
  | { readonly kind: "array"; readonly items: readonly GoJsonValue[] }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "number"; readonly text: string }
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "null" };

/** Thrown for text that is not JSON; the message says where. */
export class GoJsonSyntaxError extends Error {}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Parses one JSON document (surrounding whitespace allowed), or throws `GoJsonSyntaxError`. */
export function parseGoJson(text: string): GoJsonValue {
  const s = text.replace(loneSurrogate, "\uFFFD");
  let i = 0;
  const fail = (what: string): never => {
    throw new GoJsonSyntaxError(`${what} at offset ${i}`);
  };
  const skipSpace = () => {
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else return;
    }
  };
  const hex4 = (at: number): number | undefined => {
    const h = s.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(h) ? Number.parseInt(h, 16) : undefined;
  };
  const readString = (): string => {
    i++; // opening quote
    let out = "";
    for (;;) {
      if (i >= s.length) fail("unterminated string");
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return out;
      }
      if (c < 0x20) fail("control character in string");
      if (c !== 0x5c) {
        out += s[i];
        i++;
        continue;
      }
      const e = s[i + 1];
      i += 2;
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
          const unit = hex4(i);
          if (unit === undefined) fail("invalid \\u escape");
          i += 4;
          const u = unit as number;
          if (u >= 0xd800 && u <= 0xdfff) {
            const next = s.slice(i, i + 2) === "\\u" ? hex4(i + 2) : undefined;
            if (u <= 0xdbff && next !== undefined && next >= 0xdc00 && next <= 0xdfff) {
              out += String.fromCharCode(u, next);
              i += 6;
            } else {
              out += "\uFFFD";
            }
          } else {
            out += String.fromCharCode(u);
          }
          break;
        }
        default:
          fail("invalid escape");
      }
    }
  };
  const readValue = (depth: number): GoJsonValue => {
    if (depth > 10000) fail("exceeded max depth");
    skipSpace();
    const c = s[i];
    if (c === "{") {
      i++;
      const members: (readonly [string, GoJsonValue])[] = [];
      skipSpace();
      if (s[i] === "}") {
        i++;
        return { kind: "object", members };
      }
      for (;;) {
        skipSpace();
        if (s[i] !== '"') fail("expected object key");
        const key = readString();
        skipSpace();
        if (s[i] !== ":") fail("expected ':'");
        i++;
        members.push([key, readValue(depth + 1)]);
        skipSpace();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "}") {
          i++;
          return { kind: "object", members };
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const items: GoJsonValue[] = [];
      skipSpace();
      if (s[i] === "]") {
        i++;
        return { kind: "array", items };
      }
      for (;;) {
        items.push(readValue(depth + 1));
        skipSpace();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "]") {
          i++;
          return { kind: "array", items };
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return { kind: "string", value: readString() };
    for (const [word, value] of [
      ["true", { kind: "boolean", value: true }],
      ["false", { kind: "boolean", value: false }],
      ["null", { kind: "null" }],
    ] as const) {
      if (s.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    const number = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(s.slice(i));
    if (number) {
      i += number[0].length;
      return { kind: "number", text: number[0] };
    }
    return fail("invalid character");
  };
  const value = readValue(0);
  skipSpace();
  if (i !== s.length) fail("invalid character after top-level value");
  return value;
}

/**
 * Folds a member name the way `encoding/json` matches names to struct
 * fields: ASCII case-insensitively, with U+017F (ſ) folding to `S` and
 * U+212A (Kelvin sign) to `K`, as Go's simple case folding does. Other
 * non-ASCII characters never fold onto ASCII, so they are kept as they are.
 */
export function foldFieldName(name: string): string {
  let out = "";
  for (const ch of name) {
    if (ch >= "a" && ch <= "z") out += ch.toUpperCase();
    else if (ch === "\u017f") out += "S";
    else if (ch === "\u212a") out += "K";
    else out += ch;
  }
  return out;
}
