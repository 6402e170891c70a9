/**
 * Small pieces of Go's string semantics that the kubelet's behaviour depends
 * on (byte-order comparison lives in `../go/compare-strings.ts`): whitespace as
 * `unicode.IsSpace` sees it (`strings.TrimSpace`), UTF-8 decoding that replaces
 * each invalid byte with U+FFFD (`encoding/json`), and the string escaping of
 * `encoding/json` with HTML escaping on (`json.Marshal`, `json.Encoder`).
 *
 * Internal to the pull-credentials concept; not exported from the subpath.
 */

/** True for the characters Go's `unicode.IsSpace` reports (the set `strings.TrimSpace` trims). */
export function isGoSpace(code: number): boolean {
  if (code <= 0xff) {
    return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0x85 || code === 0xa0;
  }
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** True when `s` starts or ends with a character Go's `strings.TrimSpace` would remove. */
export function hasGoSurroundingSpace(s: string): boolean {
  if (s.length === 0) return false;
  return isGoSpace(s.charCodeAt(0)) || isGoSpace(s.charCodeAt(s.length - 1));
}

/**
 * Decodes UTF-8 bytes as Go's `utf8.DecodeRune` walks them: every byte that
 * does not start a valid, shortest-form, non-surrogate sequence becomes one
 * U+FFFD. (The WHATWG decoder behind `TextDecoder` folds a truncated sequence
 * into a single U+FFFD instead, which would change what a record says.)
 */
export function decodeUtf8LikeGo(bytes: Uint8Array): string {
  // Valid UTF-8 (the usual case) decodes the same everywhere; only invalid bytes need Go's rule.
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return decodeInvalidUtf8LikeGo(bytes);
  }
}

function decodeInvalidUtf8LikeGo(bytes: Uint8Array): string {
  let out = "";
  let chunk: number[] = [];
  const flush = () => {
    out += String.fromCharCode(...chunk);
    chunk = [];
  };
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i] as number;
    if (b0 < 0x80) {
      chunk.push(b0);
      i++;
    } else {
      const [cp, size] = decodeMultiByte(bytes, i, b0);
      if (cp > 0xffff) {
        const v = cp - 0x10000;
        chunk.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
      } else {
        chunk.push(cp);
      }
      i += size;
    }
    if (chunk.length >= 4096) flush();
  }
  flush();
  return out;
}

function decodeMultiByte(bytes: Uint8Array, i: number, b0: number): [number, number] {
  const bad: [number, number] = [0xfffd, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi ? b & 0x3f : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? bad : [((b0 & 0x1f) << 6) | c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    // E0 needs A0..BF (no overlongs); ED needs 80..9F (no surrogates).
    const c1 = cont(1, b0 === 0xe0 ? 0xa0 : 0x80, b0 === 0xed ? 0x9f : 0xbf);
    if (c1 < 0) return bad;
    const c2 = cont(2);
    return c2 < 0 ? bad : [((b0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    // F0 needs 90..BF (no overlongs); F4 needs 80..8F (nothing above U+10FFFF).
    const c1 = cont(1, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf);
    if (c1 < 0) return bad;
    const c2 = cont(2);
    if (c2 < 0) return bad;
    const c3 = cont(3);
    return c3 < 0 ? bad : [((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return bad;
}

/**
 * Replaces lone surrogates by U+FFFD: a JavaScript string may hold them, a Go
 * string converted from it (via UTF-8) cannot.
 */
export function toWellFormed(s: string): string {
  let out = "";
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = s.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    out += `${s.slice(start, i)}\ufffd`;
    start = i + 1;
  }
  return start === 0 ? s : out + s.slice(start);
}

const hex = "0123456789abcdef";

/**
 * Quotes a string exactly as Go's `encoding/json` does with HTML escaping on
 * (the default of both `json.Marshal` and `json.NewEncoder`): `"` and `\`
 * backslash-escaped; `\n`, `\r`, `\t` short forms; every other control
 * character (backspace and form feed included, as the Go 1.19 the vectors
 * were produced with writes them; Go 1.22 and later write `\b` and `\f`),
 * `<`, `>`, `&`, U+2028, U+2029 as `\u00XX` / `\u20XX`; a lone surrogate
 * (invalid UTF-8 on the Go side) as `\ufffd`. The keyring's credential hash
 * (`@kubeimg/core/keyring`) escapes the same way, so both hash alike.
 */
export function quoteGoJson(s: string): string {
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
