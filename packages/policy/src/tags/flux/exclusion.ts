/**
 * The tags an `ImageRepository` scan keeps: Flux drops every tag matching
 * one of `spec.exclusionList`'s patterns before it stores the list the
 * policies select from.
 */
import { RegexpError } from "@kubeimg/core/regexp";
import { TagPolicyError } from "./errors.js";
import { sharedRegexp } from "./filter.js";

/** Flux's `GetExclusionList` default: cosign's signature tags. */
const DEFAULT_EXCLUSION_LIST: readonly string[] = ["^.*\\.sig$"];

/**
 * Returns `tags` without those an `ImageRepository` with this
 * `spec.exclusionList` excludes, in their order. As Flux's
 * `GetExclusionList`, an absent or empty list means the default
 * `["^.*\\.sig$"]`.
 *
 * @throws {TagPolicyError} `INVALID_IMAGE_REPOSITORY` for a pattern that is
 *   not a Go regular expression, with Flux's message
 *   (`failed to compile regex <pattern>: …`) and the field in `issues`.
 *
 * @example
 * ```ts
 * import { excludeTags } from "@kubeimg/policy/tags";
 *
 * excludeTags(["1.0.0", "sha256-3f2a.sig"], undefined); // ["1.0.0"]
 * excludeTags(["1.0.0", "1.1.0-rc.1"], ["-rc\\."]); // ["1.0.0"]
 * ```
 */
export function excludeTags(
  tags: readonly string[],
  exclusionList: readonly string[] | undefined,
): string[] {
  const patterns =
    exclusionList === undefined || exclusionList.length === 0
      ? DEFAULT_EXCLUSION_LIST
      : exclusionList;
  const compiled = patterns.map((pattern, i) => {
    if (typeof pattern !== "string") {
      throw new TagPolicyError(
        "INVALID_IMAGE_REPOSITORY",
        `spec.exclusionList[${i}] must be a string, got ${typeof pattern}`,
        { issues: [{ path: `spec.exclusionList[${i}]`, value: pattern, message: "not a string" }] },
      );
    }
    try {
      return sharedRegexp(pattern);
    } catch (error) {
      if (!(error instanceof RegexpError)) throw error;
      const message = `failed to compile regex ${pattern}: ${error.message}`;
      throw new TagPolicyError("INVALID_IMAGE_REPOSITORY", message, {
        input: pattern,
        issues: [{ path: `spec.exclusionList[${i}]`, value: pattern, message: error.message }],
        cause: error,
      });
    }
  });
  const kept: string[] = [];
  for (const tag of tags) {
    let excluded = false;
    for (const re of compiled) {
      if (re.matchString(tag)) {
        excluded = true;
        break;
      }
    }
    if (!excluded) kept.push(tag);
  }
  return kept;
}
