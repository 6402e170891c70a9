/**
 * Serialises a string map exactly as Go's `json.Marshal(map[string]string)`:
 * keys sorted by byte order, HTML-sensitive characters escaped, no spaces.
 * kuik writes the `kuik.enix.io/original-images` annotation this way.
 */

const shortEscapes: Readonly<Record<number, string>> = {
  8: "\\b",
  9: "\\t",
  10: "\\n",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Go's `encoding/json` string encoding (with its default HTML escaping). */
function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const short = shortEscapes[c];
    if (short !== undefined) out += short;
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      out += hex4(c);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s.slice(i, i + 2);
        i++;
      } else out += "\\ufffd";
    } else if (c >= 0xdc00 && c <= 0xdfff) out += "\\ufffd";
    else out += s.charAt(i);
  }
  return `${out}"`;
}

/** Byte-order comparison of UTF-8 strings (code point order, as Go's sort). */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

/**
 * Returns the JSON text Go's `json.Marshal` gives for a `map[string]string`.
 *
 * @example
 * ```ts
 * goMarshalStringMap({ b: "x<y", a: "1" }) // '{"a":"1","b":"x\\u003cy"}'
 * ```
 */
export function goMarshalStringMap(map: Readonly<Record<string, string>>): string {
  const keys = Object.keys(map).sort(compareCodePoints);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJsonString(map[k] ?? "")}`).join(",")}}`;
}
