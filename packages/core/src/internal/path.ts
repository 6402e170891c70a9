/**
 * Go's `path` (slash-separated, the same as `path/filepath` on Unix):
 * `Match`, the shell-style matching of the kubelet keyring's registry globs,
 * Argo CD's ignore-tags and distribution's `FamiliarMatch`: `*` (any run
 * without `/`), `?` (one character), `[...]` / `[^...]` classes with ranges,
 * `\` escapes; a malformed pattern is an error (here: `undefined`), reported
 * even when the text already failed. And `Clean` and `Join`, lexical, with
 * which kuik builds every alternative image, so `/enix/` and `enix` give the
 * same prefix and `..` segments are resolved.
 *
 * `Match` reads JavaScript strings by code point and encodes nothing, so the
 * browser bundle of `@kubeimg/core/reference` carries no UTF-8 encoder. Go
 * walks the bytes, though, and that shows in two places: a literal compares
 * bytes, and a `*` may give up inside a multi-byte character, whose remaining
 * bytes then each read as one invalid rune (U+FFFD) to `?` and classes. So a
 * position in the text is a code unit index and a byte offset into the code
 * point there, and the few bytes needed are worked out from that one code
 * point. A lone surrogate stands for a byte Go could not decode, as everywhere
 * in this folder (`utf8.fromByteStringEscaped` makes such strings from Go's
 * bytes): U+DC80–U+DCFF is the byte 0x80–0xFF.
 */

/** `matchChunk` outcome: the chunk does not match here. */
const NO_MATCH = -1;
/** `matchChunk` outcome: the pattern is malformed. */
const BAD_PATTERN = -2;

// A text position is `index * 4 + offset`: the code unit index of a code
// point and how many of its UTF-8 bytes are already consumed (0–3).

/** UTF-8 continuation bytes of the code point `c`; a lone surrogate is one byte, so none. */
function tail(c: number): number {
  return c < 0x80 || (c >= 0xd800 && c <= 0xdfff) ? 0 : c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
}

/**
 * Byte `k` of the UTF-8 form of the code point at `s[i]`. A lone surrogate is
 * the byte it escapes; one outside U+DC80–U+DCFF escapes none and equals only itself.
 */
function byteAt(s: string, i: number, k: number): number {
  const c = s.codePointAt(i) as number;
  const n = tail(c);
  if (n === 0) return c >= 0xdc80 && c <= 0xdcff ? c - 0xdc00 : c;
  return k === 0 ? ((0xff80 >> n) & 0xff) | (c >> (6 * n)) : 0x80 | ((c >> (6 * (n - k))) & 0x3f);
}

/** The text position one byte after `pos`. */
function nextByte(s: string, pos: number): number {
  const i = pos >> 2;
  const c = s.codePointAt(i) as number;
  return (pos & 3) < tail(c) ? pos + 1 : (i + (c > 0xffff ? 2 : 1)) << 2;
}

/** The code point of the last class endpoint read. */
let endpoint = 0;

/**
 * Reads one possibly escaped class endpoint at `p[i]` (Go's `getEsc`) into
 * {@link endpoint}: the index after it, or -1 when the pattern is malformed there.
 */
function classEndpoint(p: string, i: number, end: number): number {
  if (i >= end || p[i] === "-" || p[i] === "]") return -1;
  if (p[i] === "\\" && ++i >= end) return -1;
  endpoint = p.codePointAt(i) as number;
  i += endpoint > 0xffff ? 2 : 1;
  // An undecodable byte is no endpoint, and a class cannot end the pattern.
  return (endpoint > 0x7f && tail(endpoint) === 0) || i >= end ? -1 : i;
}

/**
 * Matches the star-free chunk `p[start:end]` at the text position `pos` of
 * `s`: the position after the match, {@link NO_MATCH} or {@link BAD_PATTERN}.
 * After a mismatch it keeps reading the chunk, so that a malformed chunk is
 * reported whatever the text.
 */
function matchChunk(p: string, start: number, end: number, s: string, pos: number): number {
  let failed = false;
  let i = start;
  while (i < end) {
    const c = p[i++];
    if (c === "[" || c === "?") {
      if (pos >> 2 >= s.length) failed = true;
      let r = 0;
      if (!failed) {
        // One rune: a whole code point, or one byte left inside one (U+FFFD).
        const k = pos & 3;
        r = s.codePointAt(pos >> 2) as number;
        if (k || (r > 0x7f && tail(r) === 0)) r = 0xfffd;
        if (c === "?" && r === 0x2f) failed = true;
        do pos = nextByte(s, pos);
        while (!k && pos & 3);
      }
      if (c === "?") continue;
      const negated = p[i] === "^" && i < end;
      if (negated) i++;
      let matched = false;
      for (let ranges = 0; ; ranges++) {
        if (p[i] === "]" && i < end && ranges > 0) break;
        i = classEndpoint(p, i, end);
        if (i < 0) return BAD_PATTERN;
        const lo = endpoint;
        if (p[i] === "-") {
          i = classEndpoint(p, i + 1, end);
          if (i < 0) return BAD_PATTERN;
        }
        if (lo <= r && r <= endpoint) matched = true;
      }
      i++;
      if (matched === negated) failed = true;
      continue;
    }
    if (c === "\\" && i++ >= end) return BAD_PATTERN;
    // A literal: its bytes against the text's, one by one.
    const l = p.codePointAt(i - 1) as number;
    for (let k = 0; k <= tail(l) && !failed; k++) {
      if (pos >> 2 >= s.length || byteAt(p, i - 1, k) !== byteAt(s, pos >> 2, pos & 3))
        failed = true;
      pos = nextByte(s, pos);
    }
    if (l > 0xffff) i++;
  }
  return failed ? NO_MATCH : pos;
}

/** The end of the star-free chunk starting at `p[i]` (a `*` outside a class ends it). */
function chunkEnd(p: string, i: number): number {
  let inClass = false;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "*" && !inClass) return i;
  }
  return p.length;
}

/**
 * Reports whether `name` matches the shell pattern `pattern`, or `undefined`
 * when the pattern is malformed (Go's `path.ErrBadPattern`). Mirrors Go's
 * `path.Match` (and `filepath.Match` on Unix).
 *
 * @example
 * ```ts
 * import { path } from "@kubeimg/core/internal";
 *
 * path.Match("a*\/b", "abc/b"); // → true
 * path.Match("a?b", "a☺b"); // → true: `?` is one character
 * path.Match("[", "a"); // → undefined: malformed
 * ```
 */
export function Match(pattern: string, name: string): boolean | undefined {
  // Go reports a malformed pattern whatever the name, and whether a chunk is
  // malformed does not depend on the name: check them all first.
  for (let p = 0; p < pattern.length; ) {
    while (pattern[p] === "*") p++;
    const start = p;
    p = chunkEnd(pattern, p);
    if (matchChunk(pattern, start, p, "", 0) === BAD_PATTERN) return undefined;
  }
  let p = 0;
  let pos = 0;
  const end = name.length << 2;
  next: while (p < pattern.length) {
    let star = false;
    while (pattern[p] === "*") {
      p++;
      star = true;
    }
    const start = p;
    p = chunkEnd(pattern, p);
    // A trailing star takes the rest of the name unless it holds a '/'.
    if (star && start === p) return name.indexOf("/", pos >> 2) < 0;
    // A star may take one more byte at a time, never a '/'.
    for (let at = pos; ; at = nextByte(name, at)) {
      const t = matchChunk(pattern, start, p, name, at);
      if (t >= 0 && (t === end || p < pattern.length)) {
        pos = t;
        continue next;
      }
      if (!star || at >= end || byteAt(name, at >> 2, at & 3) === 0x2f) return false;
    }
  }
  return pos === end;
}

/**
 * Returns the shortest path equivalent to `p` by lexical processing, as
 * Go's `path.Clean`.
 *
 * @example
 * ```ts
 * import { path } from "@kubeimg/core/internal";
 *
 * path.Clean("a//b/./c/.."); // → "a/b"
 * ```
 */
export function Clean(p: string): string {
  if (p === "") return ".";
  if (isClean(p)) return p;
  const rooted = p.charCodeAt(0) === 47;
  const out: string[] = [];
  for (const segment of p.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(segment);
  }
  const body = out.join("/");
  if (rooted) return `/${body}`;
  return body === "" ? "." : body;
}

/** Whether `Clean` would return `p` itself: no empty, `.` or `..` segment, no trailing `/` but the root's. */
function isClean(p: string): boolean {
  const n = p.length;
  let start = 0;
  if (p.charCodeAt(0) === 47) {
    if (n === 1) return true;
    start = 1;
  }
  for (let i = start; i <= n; i++) {
    if (i < n && p.charCodeAt(i) !== 47) continue;
    const length = i - start;
    if (length === 0) return false;
    if (
      p.charCodeAt(start) === 46 &&
      (length === 1 || (length === 2 && p.charCodeAt(start + 1) === 46))
    )
      return false;
    start = i + 1;
  }
  return true;
}

/**
 * Joins the non-empty elements with `/` and cleans the result; all empty
 * gives `""`, as Go's `path.Join`.
 *
 * @example
 * ```ts
 * import { path } from "@kubeimg/core/internal";
 *
 * path.Join("harbor.example.com", "/mirror/", "library/nginx:1.25");
 * // → "harbor.example.com/mirror/library/nginx:1.25"
 * ```
 */
export function Join(...elements: readonly string[]): string {
  let joined = "";
  for (const e of elements) {
    if (e !== "") joined = joined === "" ? e : `${joined}/${e}`;
  }
  return joined === "" ? "" : Clean(joined);
}
