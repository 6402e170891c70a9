/**
 * Go's `strconv`: `Quote`, which is what `fmt`'s `%q` prints for a string
 * (Masterminds' error messages quote the constraint and version text this
 * way, so a message built here reads exactly like the one Flux logs), and
 * `ParseFloat(s, 64)`, which Flux's numerical policy applies to every tag,
 * and `Atoi`, with which containerd reads platform variant numbers.
 */

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** The escapes `strconv.Quote` uses for control characters that have one. */
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
};

/** True when `s` holds only printable ASCII other than `"` and `\`: `Quote` then only adds quotes. */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

/**
 * Returns `s` as Go's `strconv.Quote` writes it: in double quotes, with `"`
 * and `\` escaped, printable characters as they are, and the rest as `\n`,
 * `\x1f`, `\u00a0` or `\U0001f600`-style escapes (lower-case hex). A lone
 * surrogate, which UTF-8 cannot carry, is written as U+FFFD, the character
 * Go's decoders put in its place.
 *
 * @example
 * ```ts
 * import { strconv } from "@kubeimg/core/internal";
 *
 * strconv.Quote('a"b'); // → "\"a\\\"b\""
 * strconv.Quote("x\ty"); // → "\"x\\ty\""
 * strconv.Quote("\u00a0"); // → "\"\\u00a0\""
 * ```
 */
export function Quote(s: string): string {
  if (isPlainAscii(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (r === 0x22 || r === 0x5c) out += `\\${ch}`;
    // ASCII is decided here; only other characters need the Unicode classes.
    else if (r >= 0x20 && r < 0x7f) out += ch;
    else if (r < 0x80) out += SHORT_ESCAPES[r] ?? `\\x${hex(r, 2)}`;
    else if (r >= 0xd800 && r <= 0xdfff) out += "\ufffd";
    else if (PRINTABLE.test(ch)) out += ch;
    else if (r < 0x10000) out += `\\u${hex(r, 4)}`;
    else out += `\\U${hex(r, 8)}`;
  }
  return `${out}"`;
}

/*
 * ParseFloat's grammar.
 *
 * It accepts more than JavaScript's `Number()` and less in places:
 *
 * ```
 * float   = [ sign ] ( decimal / hex / special )
 * decimal = ( digits [ "." [ digits ] ] / "." digits ) [ ( "e" / "E" ) [ sign ] digits ]
 * hex     = "0" ( "x" / "X" ) ( hexdigits [ "." [ hexdigits ] ] / "." hexdigits )
 *           ( "p" / "P" ) [ sign ] digits          ; the exponent is required
 * special = "inf" / "infinity" / "nan"             ; any case; no sign on nan
 * ```
 *
 * `_` may separate digits (also after a `0x` prefix), as in Go literals.
 * Decimal numbers are always base 10 (`010` is ten); `0b`, `0o` and hex
 * without an exponent are rejected, as are spaces and values that round to
 * ±infinity (`1e400`). Results that underflow become 0 without error.
 */

/** The outcome of a parse: the value, or undefined when Go returns an error. */
type ParsedFloat = number | undefined;

function lower(c: number): number {
  return c | 0x20;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexLetter(c: number): boolean {
  const l = lower(c);
  return l >= 0x61 && l <= 0x66;
}

/** Length of the common prefix of `s` (from `at`) and the lower-case `word`, ignoring case. */
function prefixIgnoreCase(s: string, at: number, word: string): number {
  let n = 0;
  while (n < word.length && at + n < s.length) {
    const c = s.charCodeAt(at + n);
    const l = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
    if (l !== word.charCodeAt(n)) break;
    n++;
  }
  return n;
}

/** Mirrors Go's `special`: ±inf, ±infinity and nan, as the whole input. */
function special(s: string): ParsedFloat | null {
  let i = 0;
  let sign = 1;
  const c = s.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) {
    if (c === 0x2d) sign = -1;
    i = 1;
  } else if (lower(c) === 0x6e) {
    // "nan", never signed.
    return s.length === 3 && prefixIgnoreCase(s, 0, "nan") === 3 ? Number.NaN : null;
  } else if (lower(c) !== 0x69) {
    return null;
  }
  const n = prefixIgnoreCase(s, i, "infinity");
  if ((n === 3 || n === 8) && i + n === s.length) return sign * Number.POSITIVE_INFINITY;
  return null;
}

/** Mirrors Go's `underscoreOK`: `_` only between digits (a base prefix counts as a digit). */
function underscoreOK(s: string): boolean {
  let saw = 0x5e; // "^": beginning of number
  let i = 0;
  if (s.length >= 1 && (s.charCodeAt(0) === 0x2d || s.charCodeAt(0) === 0x2b)) i = 1;
  let hex = false;
  if (s.length - i >= 2 && s.charCodeAt(i) === 0x30) {
    const p = lower(s.charCodeAt(i + 1));
    if (p === 0x62 || p === 0x6f || p === 0x78) {
      i += 2;
      saw = 0x30;
      hex = p === 0x78;
    }
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c) || (hex && isHexLetter(c))) {
      saw = 0x30;
      continue;
    }
    if (c === 0x5f) {
      if (saw !== 0x30) return false;
      saw = 0x5f;
      continue;
    }
    if (saw === 0x5f) return false;
    saw = 0x21;
  }
  return saw !== 0x5f;
}

/**
 * Returns `m × 2^e` correctly rounded to a double (ties to even), or ±infinity
 * beyond the largest double. Used for hexadecimal floats.
 */
function scaleBinary(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const bits = m.toString(2).length;
  const top = bits - 1 + e; // the value lies in [2^top, 2^(top+1))
  if (top > 1024) return Number.POSITIVE_INFINITY;
  // Bits of precision available at this magnitude: 53, fewer for subnormals.
  const precision = top >= -1022 ? 53 : top + 1075;
  let mantissa = m;
  let exponent = e;
  const shift = bits - Math.max(precision, 0);
  if (shift > 0) {
    const big = BigInt(shift);
    let q = mantissa >> big;
    const rem = mantissa & ((1n << big) - 1n);
    const half = 1n << (big - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    mantissa = q;
    exponent += shift;
  }
  let x = Number(mantissa);
  // The result is exact at every step: scale in chunks so no power of two underflows.
  while (exponent < -1000) {
    x *= 2 ** -1000;
    exponent += 1000;
  }
  while (exponent > 1000) {
    x *= 2 ** 1000;
    exponent -= 1000;
  }
  return x * 2 ** exponent;
}

/**
 * Returns `s` parsed as Go's `strconv.ParseFloat(s, 64)`, or undefined where
 * Go returns an error (syntax, or a value out of range).
 *
 * @example
 * ```ts
 * import { strconv } from "@kubeimg/core/internal";
 *
 * strconv.ParseFloat("1_000"); // → 1000
 * strconv.ParseFloat("0x1p4"); // → 16
 * strconv.ParseFloat("0x10"); // → undefined: a hex float needs a p exponent
 * strconv.ParseFloat("1e400"); // → undefined: out of range
 * ```
 */
export function ParseFloat(s: string): number | undefined {
  const n = s.length;
  // Fast path: up to 15 ASCII digits are an exact integer.
  if (n > 0 && n <= 15) {
    let v = 0;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i) - 0x30;
      if (c < 0 || c > 9) break;
      v = v * 10 + c;
    }
    if (i === n) return v;
  }
  if (n === 0) return undefined;
  const sp = special(s);
  if (sp !== null) return sp;
  return readFloat(s);
}

/** Mirrors Go's `readFloat` + conversion, for the whole of `s`. */
function readFloat(s: string): ParsedFloat {
  const n = s.length;
  let i = 0;
  let negative = false;
  const c0 = s.charCodeAt(0);
  if (c0 === 0x2b || c0 === 0x2d) {
    negative = c0 === 0x2d;
    i = 1;
  }
  let hex = false;
  if (i + 2 < n && s.charCodeAt(i) === 0x30 && lower(s.charCodeAt(i + 1)) === 0x78) {
    hex = true;
    i += 2;
  }
  let underscores = false;
  let sawDot = false;
  let sawDigits = false;
  let mantissa = ""; // digits without `_` and `.`
  let fractionDigits = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5f) {
      underscores = true;
      continue;
    }
    if (c === 0x2e) {
      if (sawDot) break;
      sawDot = true;
      continue;
    }
    if (isDigit(c) || (hex && isHexLetter(c))) {
      sawDigits = true;
      mantissa += s[i];
      if (sawDot) fractionDigits++;
      continue;
    }
    break;
  }
  if (!sawDigits) return undefined;
  let exponent = 0;
  let exponentText = "";
  const expChar = hex ? 0x70 : 0x65; // "p" or "e"
  if (i < n && lower(s.charCodeAt(i)) === expChar) {
    i++;
    if (i >= n) return undefined;
    let esign = 1;
    if (s.charCodeAt(i) === 0x2b) i++;
    else if (s.charCodeAt(i) === 0x2d) {
      i++;
      esign = -1;
    }
    if (i >= n || !isDigit(s.charCodeAt(i))) return undefined;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x5f) {
        underscores = true;
        continue;
      }
      if (!isDigit(c)) break;
      exponentText += s[i];
      // Go stops accumulating at 10000; any larger exponent saturates the same way.
      if (exponent < 10000) exponent = exponent * 10 + (c - 0x30);
    }
    exponent *= esign;
  } else if (hex) {
    return undefined;
  }
  if (i !== n) return undefined;
  if (underscores && !underscoreOK(s)) return undefined;
  let value: number;
  if (hex) {
    value = scaleBinary(BigInt(`0x${mantissa}`), exponent - 4 * fractionDigits);
  } else {
    const point = mantissa.length - fractionDigits;
    const digits = `${mantissa.slice(0, point)}.${mantissa.slice(point)}`;
    value = Number(exponentText === "" ? digits : `${digits}e${exponent}`);
  }
  if (!Number.isFinite(value)) return undefined;
  return negative ? -value : value;
}

/** The largest value `strconv.Atoi` accepts on a 64-bit platform. */
const MAX_INT64 = 9223372036854775807n;

/**
 * Returns Go's `strconv.Atoi(s)` on a 64-bit platform as a `bigint` (every
 * int64 exactly), or `undefined` where Atoi fails: an optional sign, then
 * decimal digits only (no underscores, no spaces), within int64.
 *
 * @example
 * ```ts
 * import { strconv } from "@kubeimg/core/internal";
 *
 * strconv.Atoi("+3"); // → 3n
 * strconv.Atoi("9223372036854775808"); // → undefined: out of range
 * ```
 */
export function Atoi(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const value = BigInt(s.startsWith("+") ? s.slice(1) : s);
  if (value > MAX_INT64 || value < -MAX_INT64 - 1n) return undefined;
  return value;
}

/**
 * Go's `strconv.ParseBool`: `1`, `t`, `T`, `TRUE`, `true`, `True` are true;
 * `0`, `f`, `F`, `FALSE`, `false`, `False` are false; anything else is
 * `undefined` (Go's `invalid syntax`).
 */
export function ParseBool(s: string): boolean | undefined {
  switch (s) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true;
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
      return false;
    default:
      return undefined;
  }
}
