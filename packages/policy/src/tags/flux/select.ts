/**
 * Tag selection exactly as Flux's `ImagePolicyReconciler.applyPolicy` runs it
 * (image-reflector-controller v1.2.0):
 *
 * 1. build the policer from `spec.policy` (`INVALID_POLICY`);
 * 2. an empty tag list is `NO_TAGS`, checked before the pattern compiles;
 * 3. with `filterTags`: compile the pattern (`INVALID_PATTERN`), map each
 *    matching tag to its key (a later tag wins a shared key), rank the keys,
 *    map the winner back to its tag;
 * 4. rank (`ALL_TAGS_FILTERED`, `NO_MATCHING_VERSION`, `INVALID_NUMBER`).
 *
 * Go ranks the keys in map iteration order, which is random; where that
 * order matters (ties between keys) Flux may return any of several tags, and
 * we return one of them: the keys are ranked in the order their first tag
 * appears.
 *
 * Alphabetical and numerical selections with a filter take a single pass
 * (`single-pass.ts`) that finds the same tag without the map; anything it
 * cannot settle falls back to the steps above.
 */
import { TagPolicyError } from "./errors.js";
import { compileTagFilter, type TagFilter } from "./filter.js";
import { type Policer, policerFromSpec } from "./policers.js";
import { singlePassSelect } from "./single-pass.js";
import type { TagSelectionPolicy } from "./types.js";

/** A tag policy compiled once, to select from many tag lists. */
export interface CompiledTagPolicy {
  /** The policer kind: `semver`, `alphabetical` or `numerical`. */
  readonly kind: Policer["kind"];
  /** The compiled filter, when `filterTags` is set and its pattern compiles. */
  readonly filter: TagFilter | undefined;
  /** Returns the selected tag; see {@link selectLatestTag}. */
  select(tags: readonly string[]): string;
  /** The policer itself, for explanations. */
  readonly policer: Policer;
  /** The pattern error, raised only once there are tags (as Flux orders its checks). */
  readonly filterError: TagPolicyError | undefined;
}

/**
 * Returns the policy compiled: the policer built and the filter pattern
 * compiled once. Throws `INVALID_POLICY` at once; an invalid pattern is
 * reported by `select` (after the empty-list check, as in Flux).
 *
 * @example
 * ```ts
 * import { compileTagPolicy } from "@kubeimg/policy/tags";
 *
 * const policy = compileTagPolicy({ policy: { semver: { range: "5.1.x" } } });
 * policy.select(["5.0.3", "5.1.2", "5.1.10", "6.0.0"]); // "5.1.10"
 * ```
 */
export function compileTagPolicy(spec: TagSelectionPolicy): CompiledTagPolicy {
  checkSelectionPolicy(spec);
  // An absent choice is Flux's empty ImagePolicyChoice (its field is no pointer).
  const policer = policerFromSpec(spec.policy ?? {}, { semver: spec.semver });
  let filter: TagFilter | undefined;
  let filterError: TagPolicyError | undefined;
  if (spec.filterTags != null) {
    try {
      filter = compileTagFilter(spec.filterTags);
    } catch (error) {
      if (!(error instanceof TagPolicyError)) throw error;
      filterError = error;
    }
  }
  const hasFilter = spec.filterTags != null;
  return {
    kind: policer.kind,
    filter,
    policer,
    filterError,
    select(tags) {
      if (tags.length === 0) throw new TagPolicyError("NO_TAGS", "no tags in database");
      if (!hasFilter) return policer.latest(tags);
      if (filter === undefined) throw filterError as TagPolicyError;
      const fast = singlePassSelect(tags, filter, policer);
      if (fast !== undefined) return fast;
      const keys = filter.apply(tags);
      const latest = policer.latest([...keys.keys()]);
      return keys.get(latest) as string;
    },
  };
}

/**
 * Throws `INVALID_POLICY` for a value that is not an ImagePolicy's spec: the
 * whole object handed over in its place would otherwise fail as a raw
 * `TypeError` deep inside.
 */
export function checkSelectionPolicy(value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TagPolicyError(
      "INVALID_POLICY",
      `invalid policy: expected an ImagePolicy's spec ({ policy, filterTags }), found ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
    );
  }
  if ("spec" in value && !("policy" in value)) {
    throw new TagPolicyError(
      "INVALID_POLICY",
      "invalid policy: this is a whole ImagePolicy (it has spec, not spec.policy): pass its spec (imagePolicy.spec)",
    );
  }
}

/**
 * Returns the tag Flux selects from `tags` for `policy` (`spec.policy` and
 * `spec.filterTags` of an `ImagePolicy`).
 *
 * Throws a {@link TagPolicyError}: `INVALID_POLICY`, `NO_TAGS`,
 * `INVALID_PATTERN`, `ALL_TAGS_FILTERED`, `NO_MATCHING_VERSION` or
 * `INVALID_NUMBER`, with Flux's message. To select from many lists with one
 * policy, compile it once with {@link compileTagPolicy}.
 *
 * @example
 * ```ts
 * import { selectLatestTag } from "@kubeimg/policy/tags";
 *
 * selectLatestTag(["RELEASE.2024-01-01T00-00-00Z", "RELEASE.2024-03-01T00-00-00Z", "latest"], {
 *   policy: { alphabetical: { order: "asc" } },
 *   filterTags: { pattern: "^RELEASE\\.(?P<timestamp>.*)Z$", extract: "$timestamp" },
 * }); // "RELEASE.2024-03-01T00-00-00Z"
 * ```
 */
export function selectLatestTag(tags: readonly string[], policy: TagSelectionPolicy): string {
  return compileTagPolicy(policy).select(tags);
}

/**
 * Like {@link selectLatestTag}, but returns the outcome instead of throwing a
 * {@link TagPolicyError}.
 *
 * @example
 * ```ts
 * import { safeSelectLatestTag } from "@kubeimg/policy/tags";
 *
 * const r = safeSelectLatestTag(["1.0"], { policy: { semver: { range: ">=1" } } });
 * if (!r.success) console.log(r.error.code); // NO_MATCHING_VERSION
 * ```
 */
export function safeSelectLatestTag(
  tags: readonly string[],
  policy: TagSelectionPolicy,
): { success: true; tag: string } | { success: false; error: TagPolicyError } {
  try {
    return { success: true, tag: selectLatestTag(tags, policy) };
  } catch (error) {
    if (error instanceof TagPolicyError) return { success: false, error };
    throw error;
  }
}
