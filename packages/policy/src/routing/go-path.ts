/**
 * Go's `path.Clean` and `path.Join` (slash-separated, lexical). kuik builds
 * every alternative with `path.Join`, so `/enix/` and `enix` give the same
 * prefix and `..` segments are resolved.
 */

/**
 * Returns the shortest path equivalent to `p` by lexical processing.
 * Mirrors `path.Clean` in Go's standard library.
 *
 * @example
 * ```ts
 * goPathClean("a//b/./c/..") // "a/b"
 * ```
 */
export function goPathClean(p: string): string {
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
 * gives `""`. Mirrors `path.Join` in Go's standard library.
 *
 * @example
 * ```ts
 * goPathJoin("harbor.example.com", "/mirror/", "library/nginx:1.25")
 * // "harbor.example.com/mirror/library/nginx:1.25"
 * ```
 */
export function goPathJoin(...elements: readonly string[]): string {
  const kept = elements.filter((e) => e !== "");
  if (kept.length === 0) return "";
  return goPathClean(kept.join("/"));
}
