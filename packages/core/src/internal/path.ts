/**
 * Go's `path` (slash-separated, the same as `path/filepath` on Unix):
 * `Match`, the shell-style matching the kubelet keyring applies to registry
 * globs, over byte strings: `*` (any run without `/`), `?` (one character),
 * `[...]` / `[^...]` classes with ranges, `\` escapes; a malformed pattern
 * is an error (here: `undefined`), reported even when the text already
 * failed. And `Clean` and `Join`, lexical, with which kuik builds every
 * alternative image, so `/enix/` and `enix` give the same prefix and `..`
 * segments are resolved.
 */
import { DecodeRuneInString } from "./utf8.js";

const separator = "/";

function scanChunk(pattern: string): { star: boolean; chunk: string; rest: string } {
  let p = pattern;
  let star = false;
  while (p.startsWith("*")) {
    p = p.slice(1);
    star = true;
  }
  let inRange = false;
  let i = 0;
  scan: for (; i < p.length; i++) {
    switch (p[i]) {
      case "\\":
        if (i + 1 < p.length) i++;
        break;
      case "[":
        inRange = true;
        break;
      case "]":
        inRange = false;
        break;
      case "*":
        if (!inRange) break scan;
        break;
    }
  }
  return { star, chunk: p.slice(0, i), rest: p.slice(i) };
}

/** One class endpoint (Go's `getEsc`); `undefined` for a bad pattern. */
function getEsc(chunk: string): { rune: number; rest: string } | undefined {
  let c = chunk;
  if (c === "" || c[0] === "-" || c[0] === "]") return undefined;
  if (c[0] === "\\") {
    c = c.slice(1);
    if (c === "") return undefined;
  }
  const { rune, width } = DecodeRuneInString(c, 0);
  if (rune === 0xfffd && width === 1) return undefined;
  const rest = c.slice(width);
  if (rest === "") return undefined;
  return { rune, rest };
}

type ChunkResult = { ok: true; rest: string } | { ok: false; bad: boolean };

function matchChunk(chunkIn: string, text: string): ChunkResult {
  let chunk = chunkIn;
  let s = text;
  let failed = false;
  while (chunk.length > 0) {
    if (!failed && s.length === 0) failed = true;
    const c = chunk[0];
    if (c === "[") {
      let r = 0;
      if (!failed) {
        const d = DecodeRuneInString(s, 0);
        r = d.rune;
        s = s.slice(d.width);
      }
      chunk = chunk.slice(1);
      let negated = false;
      if (chunk[0] === "^") {
        negated = true;
        chunk = chunk.slice(1);
      }
      let match = false;
      let ranges = 0;
      for (;;) {
        if (chunk[0] === "]" && ranges > 0) {
          chunk = chunk.slice(1);
          break;
        }
        const lo = getEsc(chunk);
        if (!lo) return { ok: false, bad: true };
        chunk = lo.rest;
        let hi = lo.rune;
        if (chunk[0] === "-") {
          const h = getEsc(chunk.slice(1));
          if (!h) return { ok: false, bad: true };
          chunk = h.rest;
          hi = h.rune;
        }
        if (lo.rune <= r && r <= hi) match = true;
        ranges++;
      }
      if (match === negated) failed = true;
    } else if (c === "?") {
      if (!failed) {
        if (s[0] === separator) failed = true;
        s = s.slice(DecodeRuneInString(s, 0).width);
      }
      chunk = chunk.slice(1);
    } else {
      if (c === "\\") {
        chunk = chunk.slice(1);
        if (chunk === "") return { ok: false, bad: true };
      }
      if (!failed) {
        if (chunk[0] !== s[0]) failed = true;
        s = s.slice(1);
      }
      chunk = chunk.slice(1);
    }
  }
  return failed ? { ok: false, bad: false } : { ok: true, rest: s };
}

/**
 * Reports whether `name` matches the shell pattern `pattern` (both byte
 * strings), or `undefined` when the pattern is malformed. Mirrors Go's
 * `filepath.Match`.
 */
export function Match(patternIn: string, nameIn: string): boolean | undefined {
  let pattern = patternIn;
  let name = nameIn;
  outer: while (pattern.length > 0) {
    const { star, chunk, rest } = scanChunk(pattern);
    pattern = rest;
    if (star && chunk === "") return !name.includes(separator);
    const here = matchChunk(chunk, name);
    if (here.ok && (here.rest.length === 0 || pattern.length > 0)) {
      name = here.rest;
      continue;
    }
    if (!here.ok && here.bad) return undefined;
    if (star) {
      for (let i = 0; i < name.length && name[i] !== separator; i++) {
        const skipped = matchChunk(chunk, name.slice(i + 1));
        if (skipped.ok) {
          if (pattern.length === 0 && skipped.rest.length > 0) continue;
          name = skipped.rest;
          continue outer;
        }
        if (skipped.bad) return undefined;
      }
    }
    while (pattern.length > 0) {
      const next = scanChunk(pattern);
      pattern = next.rest;
      const check = matchChunk(next.chunk, "");
      if (!check.ok && check.bad) return undefined;
    }
    return false;
  }
  return name.length === 0;
}

/**
 * Returns the shortest path equivalent to `p` by lexical processing, as
 * Go's `path.Clean`.
 *
 * @example
 * ```ts
 * Clean("a//b/./c/.."); // "a/b"
 * ```
 */
export function Clean(p: string): string {
  if (p === "") return ".";
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

/**
 * Joins the non-empty elements with `/` and cleans the result; all empty
 * gives `""`, as Go's `path.Join`.
 *
 * @example
 * ```ts
 * Join("harbor.example.com", "/mirror/", "library/nginx:1.25");
 * // "harbor.example.com/mirror/library/nginx:1.25"
 * ```
 */
export function Join(...elements: readonly string[]): string {
  const kept = elements.filter((e) => e !== "");
  if (kept.length === 0) return "";
  const joined = kept.join("/");
  // Fast path: already clean (no empty, `.` or `..` segment, no trailing slash).
  if (!/(^|\/)\.{1,2}(\/|$)|\/\/|\/$/.test(joined)) return joined;
  return Clean(joined);
}
