/**
 * `FamiliarMatch` of distribution/reference, over the one Go `path.Match` of
 * `internal/path.ts`.
 *
 * Pattern syntax (Go `path.Match`): `*` any run of non-`/` characters; `?`
 * one non-`/` character; `[…]` / `[^…]` a class of characters or ranges
 * `lo-hi`; `\c` the character `c`. A malformed pattern (an unclosed or empty
 * class, a trailing `\`) is an error whatever the name, exactly as upstream
 * checks the whole pattern even after a mismatch.
 *
 * @module
 */
import { Match } from "../internal/path.js";
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
 * import { familiarMatch, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * familiarMatch("library/*", parseNormalizedNamed("nginx"));    // false: familiar form is "nginx"
 * familiarMatch("ngin?", parseNormalizedNamed("nginx:1.25"));   // true, through the name
 * familiarMatch("quay.io/*\/*", parseNormalizedNamed("quay.io/a/b")); // true
 * ```
 */
export function familiarMatch(pattern: string, r: Reference): boolean {
  const matched = Match(pattern, familiarString(r));
  if (matched === undefined) throw new ImageReferenceError("BAD_PATTERN", pattern);
  if (matched) return true;
  return "name" in r && Match(pattern, familiarName(r)) === true;
}
