/**
 * The `tagdialects` suite: Argo CD Image Updater v1.3.0 and Kargo v1.11.2 tag
 * selection through `@kubeimg/policy/tags`. The outcome code must match;
 * Go's message is informational (FORMAT.md), so it is not compared. Both
 * engines follow Masterminds v3.4.0, the release FORMAT.md names, which is
 * what both tools pin (`dialectSemverReleases`).
 */
import { type ArgoConfig, selectArgoTag } from "@kubeimg/policy/tags/argocd";
import type { DialectSelection, TagInfo } from "@kubeimg/policy/tags/dialects";
import { type KargoImageSubscription, selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { jsonEqual } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

interface TagDialectVector extends Vector {
  readonly dialect: "argocd-image-updater" | "kargo";
  readonly config: unknown;
  readonly tags: readonly TagInfo[];
  readonly expect?: {
    readonly tag: string;
    readonly digest?: string;
    readonly discovered?: readonly string[];
  };
  readonly error?: string;
}

function answer(v: TagDialectVector, s: DialectSelection): unknown {
  if (s.outcome !== undefined) return { error: s.outcome.code };
  if (v.dialect === "kargo") {
    return {
      tag: s.tag,
      ...(s.digest === undefined ? {} : { digest: s.digest }),
      discovered: s.discovered,
    };
  }
  return { tag: s.tag, ...(s.digest === undefined ? {} : { digest: s.digest }) };
}

const handler: SuiteHandler = {
  run(vector) {
    const v = vector as TagDialectVector;
    const selection =
      v.dialect === "kargo"
        ? selectKargoTag(v.config as KargoImageSubscription, v.tags)
        : selectArgoTag(v.config as ArgoConfig, v.tags);
    const got = answer(v, selection);
    const expected = v.error !== undefined ? { error: v.error } : v.expect;
    return { ok: jsonEqual(got, expected), expected, got };
  },
};

export default handler;
