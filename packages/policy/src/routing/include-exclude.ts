/**
 * kuik's include/exclude regex filter (`internal/filter/include_exclude.go`):
 * each pattern P is compiled as Go RE2 `^(P)$`, so it must match the whole
 * string; a string passes when some include matches and no exclude does; an
 * exclude-only filter includes `.*`; a filter with no patterns at all matches
 * nothing.
 */
import { compileRegexp, type GoRegexp } from "@kubeimg/core/regexp";

/** How many distinct strings each filter remembers its answer for. */
const memoCapacity = 1024;

/** A compiled include/exclude filter. */
export interface IncludeExcludeFilter {
  /** The include patterns as written (after kuik's `.*` defaulting). */
  readonly include: readonly string[];
  /** The exclude patterns as written. */
  readonly exclude: readonly string[];
  /** True when some include pattern and no exclude pattern matches all of `s`. */
  match(s: string): boolean;
}

function anchored(pattern: string): GoRegexp {
  return compileRegexp(`^(${pattern})$`);
}

/**
 * Returns the compiled filter. Mirrors `CompileIncludeExcludeFilter`; throws
 * the `RegexpError` of the first pattern Go's `regexp.Compile` would refuse.
 * Answers are memoised per string (bounded), since the same image is routed
 * for every replica of a rollout.
 *
 * @example
 * ```ts
 * const f = compileIncludeExcludeFilter(["docker\\.io/.+"], [".*:latest"]);
 * f.match("docker.io/library/nginx:1.25") // true
 * ```
 */
export function compileIncludeExcludeFilter(
  include: readonly string[],
  exclude: readonly string[],
): IncludeExcludeFilter {
  const includePatterns = include.length === 0 && exclude.length > 0 ? [".*"] : [...include];
  const includeRegexps = includePatterns.map(anchored);
  const excludeRegexps = exclude.map(anchored);
  const memo = new Map<string, boolean>();
  const evaluate = (s: string): boolean =>
    includeRegexps.some((r) => r.matchString(s)) && !excludeRegexps.some((r) => r.matchString(s));
  return Object.freeze({
    include: Object.freeze(includePatterns),
    exclude: Object.freeze([...exclude]),
    match(s: string): boolean {
      const known = memo.get(s);
      if (known !== undefined) return known;
      const answer = evaluate(s);
      if (memo.size >= memoCapacity) memo.clear();
      memo.set(s, answer);
      return answer;
    },
  });
}
