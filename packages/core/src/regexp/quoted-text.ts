/**
 * RE2's `\Q…\E` quoting, for the pattern walkers that look for syntax
 * (named groups, class brackets) and must not find it inside quoted text.
 */

/**
 * Returns the index just after the `\Q…\E` run whose `\Q` starts at
 * `backslash`: after its `\E`, or the end of the pattern when the run is
 * never closed (RE2 then quotes the rest).
 *
 * @example
 * ```ts
 * skipQuotedText("a\\Q(?P<x>\\Eb", 1); // 11, the index of "b"
 * ```
 */
export function skipQuotedText(pattern: string, backslash: number): number {
  const end = pattern.indexOf("\\E", backslash + 2);
  return end < 0 ? pattern.length : end + 2;
}
