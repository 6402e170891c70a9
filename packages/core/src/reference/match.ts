/**
 * `FamiliarMatch` of distribution/reference. The shell-pattern matcher it
 * relies on is Go's `path.Match`, which lives once in `../internal/path.ts`.
 *
 * Go matches over the UTF-8 bytes of the pattern and the name (`?` and a
 * class take one rune; an invalid byte is a rune of its own), so both are
 * encoded as UTF-8 byte strings before matching. A JavaScript string that
 * holds a lone surrogate, which no Go string can, is encoded as U+FFFD as
 * `TextEncoder` does. A reference's familiar forms are ASCII by grammar;
 * only the pattern can reach the non-ASCII paths.
 *
 * @module
 */
import { Match } from "../internal/path.js";
import { toByteString } from "../internal/utf8.js";
import { ImageReferenceError } from "./errors.js";
import { familiarName, familiarString } from "./normalize.js";
import type { Reference } from "./reference.js";

/**
 * Returns whether the reference matches a shell pattern (Go's
 * `FamiliarMatch`): the pattern is tried on {@link familiarString} and, for a
 * named reference, then on {@link familiarName}. Patterns follow Go's
 * `path.Match` (`*` never crosses `/`). Throws `BAD_PATTERN` (message
 * `syntax error in pattern`) for a malformed pattern.
 *
 * @example
 * ```ts
 * familiarMatch("library/*", parseNormalizedNamed("nginx"));    // false: familiar form is "nginx"
 * familiarMatch("ngin?", parseNormalizedNamed("nginx:1.25"));   // true, through the name
 * familiarMatch("quay.io/*\/*", parseNormalizedNamed("quay.io/a/b")); // true
 * ```
 */
export function familiarMatch(pattern: string, r: Reference): boolean {
  const bytePattern = toByteString(pattern);
  const matched = Match(bytePattern, toByteString(familiarString(r)));
  if (matched === undefined) throw new ImageReferenceError("BAD_PATTERN", pattern);
  if (matched) return true;
  return "name" in r && Match(bytePattern, toByteString(familiarName(r))) === true;
}
