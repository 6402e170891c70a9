/**
 * `explainTagSelection`: the same selection as `selectLatestTag`, returning
 * for every tag why it was dropped or how it ranked. Flux reports only the
 * winner or an error; when a policy picks the "wrong" tag this says why.
 */
import { TagPolicyError } from "./errors.js";
import type { KeyVerdict } from "./policers.js";
import { type CompiledTagPolicy, compileTagPolicy } from "./select.js";
import type { TagSelectionPolicy } from "./types.js";

/** Why one tag was dropped, lost, or won. */
export type TagVerdict =
  /** The winner. */
  | "selected"
  /** Considered by the policy and ranked below the winner (or the selection failed). */
  | "ranked"
  /** `filterTags.pattern` does not match it. */
  | "filtered-out"
  /** Its extracted key is shared with a later tag, which replaced it (Flux keeps one tag per key). */
  | "replaced"
  /** semver: not a `MAJOR.MINOR.PATCH` version to Flux. */
  | "not-a-version"
  /** semver: a version outside the range. */
  | "out-of-range"
  /** numerical: not a number to Go's `strconv.ParseFloat`; fails the whole selection. */
  | "not-a-number";

/** The explanation for one tag, in list order. */
export interface TagExplanation {
  readonly tag: string;
  /** The key the policy ranked: the tag itself, or the value `extract` built from it. */
  readonly key: string | undefined;
  readonly verdict: TagVerdict;
  /** A sentence saying why, such as `1.2.0 is outside '>=2': "1.2.0" is less than "2"`. */
  readonly reason: string;
}

/** The result of {@link explainTagSelection}. */
export interface TagSelectionExplanation {
  /** The tag Flux selects, when the selection succeeds. */
  readonly tag: string | undefined;
  /** The error Flux reports, when it fails. */
  readonly error: TagPolicyError | undefined;
  /** One entry per input tag, in input order. */
  readonly tags: readonly TagExplanation[];
}

/**
 * Returns the selection {@link selectLatestTag} makes, with a verdict for
 * every tag: filtered out by the pattern, replaced by a later tag with the
 * same key, not a version, outside the range, not a number, ranked lower, or
 * selected. Never throws for a bad policy or tag list: the error is in
 * `error` (a policy that does not build leaves `tags` empty).
 *
 * @example
 * ```ts
 * import { explainTagSelection } from "@kubeimg/policy/tags";
 *
 * const e = explainTagSelection(["1.0.0", "2.0.0", "latest"], { policy: { semver: { range: "<2" } } });
 * e.tag;                                          // "1.0.0"
 * e.tags.map((t) => t.verdict);                   // ["selected", "out-of-range", "not-a-version"]
 * ```
 */
export function explainTagSelection(
  tags: readonly string[],
  policy: TagSelectionPolicy | CompiledTagPolicy,
): TagSelectionExplanation {
  let compiled: CompiledTagPolicy;
  try {
    compiled = "select" in policy ? policy : compileTagPolicy(policy);
  } catch (error) {
    if (error instanceof TagPolicyError) return { tag: undefined, error, tags: [] };
    throw error;
  }
  if (tags.length === 0) {
    return {
      tag: undefined,
      error: new TagPolicyError("NO_TAGS", "no tags in database"),
      tags: [],
    };
  }
  const filter = compiled.filter;
  if (compiled.filterError !== undefined) {
    return {
      tag: undefined,
      error: compiled.filterError,
      tags: tags.map((tag) => ({
        tag,
        key: undefined,
        verdict: "filtered-out",
        reason: `the pattern does not compile: ${compiled.filterError?.message}`,
      })),
    };
  }
  // The key of every tag, and which tag finally owns each key.
  const keyOfTag: (string | undefined)[] = [];
  const owner = new Map<string, number>();
  tags.forEach((tag, i) => {
    const key = filter === undefined ? tag : filter.keyOf(tag);
    keyOfTag.push(key);
    if (key !== undefined) owner.set(key, i);
  });
  const keys = [...owner.keys()];
  const ranking = compiled.policer.rank(keys);
  const verdictOf = new Map<string, KeyVerdict>(ranking.verdicts.map((v) => [v.key, v]));
  const winnerTag =
    ranking.winner === undefined ? undefined : tags[owner.get(ranking.winner) as number];
  const explained = tags.map((tag, i): TagExplanation => {
    const key = keyOfTag[i];
    if (key === undefined) {
      return {
        tag,
        key,
        verdict: "filtered-out",
        reason: `'${filter?.pattern}' does not match it`,
      };
    }
    const ownerIndex = owner.get(key) as number;
    if (ownerIndex !== i) {
      return {
        tag,
        key,
        verdict: "replaced",
        reason: `its key '${key}' is also the key of the later tag '${tags[ownerIndex]}', which replaces it`,
      };
    }
    const verdict = verdictOf.get(key) as KeyVerdict;
    const shown = filter !== undefined && filter.extract !== "" ? ` (key '${key}')` : "";
    return { tag, key, verdict: verdict.verdict, reason: verdict.reason + shown };
  });
  return { tag: winnerTag, error: ranking.error, tags: explained };
}
