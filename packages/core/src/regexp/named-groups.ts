/**
 * Locates the names of named groups in a Go pattern without compiling it.
 *
 * Go accepts several groups with the same name (`SubexpIndex` then returns the
 * leftmost), but re2js rejects a repeated name. To compile such a pattern we
 * give every repeat a fresh name and map the names back afterwards; this
 * scanner finds where those names sit. It follows the Go parser only as far
 * as needed to tell a group opener from literal text: escapes (`\x`, `\Q…\E`)
 * and character classes (including `]` first in a class and `[:name:]`).
 */
import { skipQuotedText } from "./quoted-text.js";

/** Where one `(?P<name>` or `(?<name>` name sits in the pattern. */
export interface NamedGroupSite {
  readonly name: string;
  /** Index of the first character of the name. */
  readonly start: number;
}

/** Returns the sites of every named group, in pattern order. */
export function findNamedGroups(pattern: string): NamedGroupSite[] {
  const sites: NamedGroupSite[] = [];
  const n = pattern.length;
  let i = 0;
  while (i < n) {
    const c = pattern[i];
    if (c === "\\") {
      if (pattern[i + 1] === "Q") {
        i = skipQuotedText(pattern, i);
      } else {
        i += 2;
      }
    } else if (c === "[") {
      i = skipClass(pattern, i);
    } else if (c === "(" && pattern[i + 1] === "?") {
      const nameStart = pattern.startsWith("P<", i + 2)
        ? i + 4
        : pattern[i + 2] === "<" && pattern[i + 3] !== "=" && pattern[i + 3] !== "!"
          ? i + 3
          : -1;
      if (nameStart < 0) {
        i += 2;
        continue;
      }
      const close = pattern.indexOf(">", nameStart);
      if (close < 0) break;
      sites.push({ name: pattern.slice(nameStart, close), start: nameStart });
      i = close + 1;
    } else {
      i++;
    }
  }
  return sites;
}

/** Returns the index just past the character class that opens at `open`. */
function skipClass(pattern: string, open: number): number {
  const n = pattern.length;
  let i = open + 1;
  if (pattern[i] === "^") i++;
  // A `]` right after `[` or `[^` is a literal.
  if (pattern[i] === "]") i++;
  while (i < n) {
    const c = pattern[i];
    if (c === "]") return i + 1;
    if (c === "\\") {
      i += 2;
    } else if (c === "[" && pattern[i + 1] === ":") {
      const end = pattern.indexOf(":]", i + 2);
      i = end < 0 ? i + 1 : end + 2;
    } else {
      i++;
    }
  }
  return n;
}

/**
 * Returns the pattern with every repeated group name replaced by a fresh
 * unique name, and the map from fresh name back to the original one.
 */
export function renameDuplicateGroups(pattern: string): {
  pattern: string;
  originals: Map<string, string>;
} {
  const validCaptureName = /^[A-Za-z0-9_]+$/;
  const sites = findNamedGroups(pattern);
  const taken = new Set(sites.map((s) => s.name));
  const seen = new Set<string>();
  const originals = new Map<string, string>();
  let out = "";
  let copied = 0;
  let counter = 0;
  for (const site of sites) {
    // An invalid name is left alone so that re2js reports it as Go would.
    if (!validCaptureName.test(site.name) || !seen.has(site.name)) {
      seen.add(site.name);
      continue;
    }
    let fresh: string;
    do {
      fresh = `${site.name}_dup${++counter}`;
    } while (taken.has(fresh));
    taken.add(fresh);
    originals.set(fresh, site.name);
    out += pattern.slice(copied, site.start) + fresh;
    copied = site.start + site.name.length;
  }
  return { pattern: out + pattern.slice(copied), originals };
}
