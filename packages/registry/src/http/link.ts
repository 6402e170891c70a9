/**
 * The `Link: <url>; rel="next"` header of tag-list pagination (RFC 8288).
 * The target is an opaque cursor: it is resolved against the request URL
 * and used as-is, never rebuilt from its `last` parameter.
 */
import { checkArgument } from "../errors/registry-error.js";

/**
 * Returns the absolute URL of the `rel="next"` link, or `undefined` when
 * there is none. Relative targets resolve against `base`.
 */
export function nextLink(header: string | null, base: string): string | undefined {
  checkArgument(
    header === null || typeof header === "string",
    "nextLink",
    header,
    "the header must be a string or null",
  );
  checkArgument(typeof base === "string", "nextLink", base, "the base must be a URL string");
  if (!header) return undefined;
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,]+)*)/g;
  for (const match of header.matchAll(pattern)) {
    const params = match[2] ?? "";
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params)?.[1];
    if (!rel?.toLowerCase().split(/\s+/).includes("next")) continue;
    try {
      return new URL(match[1] ?? "", base).href;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
