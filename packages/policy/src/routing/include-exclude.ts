/**
 * kuik's include/exclude regex filter (`internal/filter/include_exclude.go`):
 * each pattern P is compiled as Go RE2 `^(P)$`, so it must match the whole
 * string; a string passes when some include matches and no exclude does; an
 * exclude-only filter includes `.*`; a filter with no patterns at all matches
 * nothing. Patterns come from the shared table of `anchored-pattern.ts`, so a
 * filter costs almost nothing until a string reaches one of its patterns.
 */
import { type AnchoredPattern, anchoredPattern } from "./anchored-pattern.js";

/** A compiled include/exclude filter. */
export interface IncludeExcludeFilter {
  /** The include patterns as written (after kuik's `.*` defaulting). */
  readonly include: readonly string[];
  /** The exclude patterns as written. */
  readonly exclude: readonly string[];
  /** For each include pattern, literal text a match must start with ("" when none is certain). */
  readonly includePrefixes: readonly string[];
  /** True when some include pattern and no exclude pattern matches all of `s`. */
  match(s: string): boolean;
}

/**
 * Returns the compiled filter. Mirrors `CompileIncludeExcludeFilter`; throws
 * the `RegexpError` of the first pattern Go's `regexp.Compile` would refuse.
 * Each pattern's literal prefix is checked first, so most strings are
 * refused without running the regex.
 */
export function compileIncludeExcludeFilter(
  include: readonly string[],
  exclude: readonly string[],
): IncludeExcludeFilter {
  const includePatterns = include.length === 0 && exclude.length > 0 ? [".*"] : [...include];
  const includes = includePatterns.map(anchoredPattern);
  const excludes = exclude.map(anchoredPattern);
  for (const p of includes) if (p.error) throw p.error;
  for (const p of excludes) if (p.error) throw p.error;
  const some = (list: readonly AnchoredPattern[], s: string): boolean => {
    for (const p of list) if (p.match(s)) return true;
    return false;
  };
  return Object.freeze({
    include: Object.freeze(includePatterns),
    exclude: Object.freeze([...exclude]),
    includePrefixes: Object.freeze(includes.map((p) => p.prefix)),
    match: (s: string): boolean => some(includes, s) && !some(excludes, s),
  });
}
