/**
 * The `tagpolicy` suite: Flux `ImagePolicy` tag selection through
 * `@kubeimg/policy/tags`. `expect.tagOneOf` accepts any tag Flux can return
 * when Go's map order decides.
 */
import { selectLatestTag, type TagSelectionPolicy } from "@kubeimg/policy/tags";

type ImagePolicyChoice = TagSelectionPolicy["policy"];
type TagFilterSpec = NonNullable<TagSelectionPolicy["filterTags"]>;

import { expectOrError } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

interface TagPolicyVector extends Vector {
  readonly policy: ImagePolicyChoice;
  readonly filterTags?: TagFilterSpec;
  readonly tags: readonly string[];
  readonly expect?: { readonly tag?: string; readonly tagOneOf?: readonly string[] };
  readonly error?: string;
}

const handler: SuiteHandler = {
  async run(vector) {
    const v = vector as TagPolicyVector;
    const select = () =>
      selectLatestTag(v.tags, {
        policy: v.policy,
        // The Masterminds release FORMAT.md names for Flux (v3.5.0).
        semver: "v3.5.0",
        ...(v.filterTags === undefined ? {} : { filterTags: v.filterTags }),
      });
    const oneOf = v.expect?.tagOneOf;
    if (oneOf === undefined) {
      return expectOrError(v, () => ({ tag: select() }));
    }
    const outcome = await expectOrError({ id: v.id, expect: null }, () => ({ tag: select() }));
    const got = (outcome.got as { expect?: { tag?: string } }).expect?.tag;
    const ok = got !== undefined && oneOf.includes(got);
    return { ok, expected: { tagOneOf: oneOf }, got: ok ? { tag: got } : outcome.got };
  },
};

export default handler;
