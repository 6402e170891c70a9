/**
 * Go's `strings` functions whose results differ from JavaScript's nearest
 * built-in: byte-order comparison (Masterminds pre-release identifiers, the
 * kubelet's sorted record fields, `json.Marshal`'s sorted map keys,
 * containerd's platform features), `TrimSpace` (the kubelet's docker config
 * and allowlist checks) and `ToLower` (containerd's platform names, with Go
 * 1.19's Unicode 13 tables).
 */
import { lowerCaseChanges } from "../reference/unicode13-case.js";
import { IsSpace } from "./unicode.js";

/**
 * Returns -1, 0 or 1 as `a` sorts before, with or after `b` in Go's order,
 * which compares UTF-8 bytes (`strings.Compare`, `sort.Strings`).
 *
 * JavaScript compares UTF-16 code units, and the two orders disagree only
 * when a surrogate (half of a code point above U+FFFF) meets a BMP character
 * at or above U+E000: in UTF-8 the supplementary code point sorts last.
 *
 * @example
 * ```ts
 * import { strings } from "@kubeimg/core/internal";
 *
 * strings.Compare("\uFF01", "😀"); // → -1, where "\uFF01" < "😀" is false in JavaScript
 * ```
 */
export function Compare(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Go's `strings.TrimSpace` on a JavaScript string (which, unlike `trim`, keeps U+FEFF). */
export function TrimSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && IsSpace(text.charCodeAt(start))) start++;
  while (end > start && IsSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * Returns Go's `strings.ToLower(s)`: ASCII letters lowered, every other rune
 * mapped on its own through Go 1.19's simple `unicode.ToLower` (Unicode 13
 * tables, no special casing, no context: `İ` becomes plain `i` where
 * JavaScript gives `i̇`, a final `Σ` becomes `σ`). Runes that only newer
 * Unicode versions give a lower case stay as they are; a lone surrogate,
 * which UTF-8 cannot carry, becomes U+FFFD as Go's decoder reads it.
 *
 * @example
 * ```ts
 * import { strings } from "@kubeimg/core/internal";
 *
 * strings.ToLower("İOS"); // → "ios"
 * ```
 */
export function ToLower(s: string): string {
  let ascii = true;
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      ascii = false;
      break;
    }
    if (c >= 0x41 && c <= 0x5a) upper = true;
  }
  if (ascii) return upper ? s.toLowerCase() : s;
  let out = "";
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (r < 0x80) out += r >= 0x41 && r <= 0x5a ? String.fromCharCode(r + 32) : ch;
    else if (r >= 0xd800 && r <= 0xdfff) out += "\ufffd";
    else if (r === 0x130) out += "i";
    else if (lowerCaseChanges(r)) out += ch.toLowerCase();
    else out += ch;
  }
  return out;
}

/** Go's `strings.SplitN(s, sep, n)` for n > 0: at most n pieces, the last keeps the rest. */
export function SplitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (out.length < n - 1) {
    const at = s.indexOf(sep, start);
    if (at < 0) break;
    out.push(s.slice(start, at));
    start = at + sep.length;
  }
  out.push(s.slice(start));
  return out;
}
