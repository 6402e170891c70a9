/**
 * Side by side: what Flux, Argo CD Image Updater and Kargo each pick from one
 * repository's tags, and — where two picks differ — the first rule that
 * separates them: what each updater says about the other's pick.
 *
 * Each dialect runs exactly as it does upstream; nothing is normalised
 * between them. Flux sees tag names only (it reads no metadata).
 */

import type { ArgoConfig } from "../argocd/config.js";
import { selectArgoTag } from "../argocd/select.js";
import { type PreparedTagList, preparedData, prepareTagList } from "../common/prepared.js";
import type { TagInfo } from "../common/types.js";
import { explainTagSelection } from "../flux/explain.js";
import type { TagSelectionPolicy } from "../flux/types.js";
import { selectKargoTag } from "../kargo/select.js";
import type { KargoImageSubscription } from "../kargo/subscription.js";

/** The three updaters, as {@link compareTagSelections} names them.
 *
 * @inline
 */
export type ComparedDialect = "flux" | "argocd-image-updater" | "kargo";

/** What to compare: any mix of the three configurations over one tag list. */
export interface CompareTagSelectionsInput {
  /** The repository's tags, raw or prepared ({@link prepareTagList}); a raw list is prepared once here for every dialect. */
  readonly tags: readonly TagInfo[] | PreparedTagList;
  /** A Flux `ImagePolicy`'s `spec.policy` and `spec.filterTags`. */
  readonly flux?: TagSelectionPolicy;
  readonly argocd?: ArgoConfig;
  readonly kargo?: KargoImageSubscription;
}

/** One dialect's answer, reduced to what can be put side by side.
 *
 * @inline
 */
export interface DialectPick {
  readonly dialect: ComparedDialect;
  readonly tag: string | undefined;
  readonly digest: string | undefined;
  /** The outcome code when nothing is picked (Flux: its `TagPolicyError` code). */
  readonly outcome: string | undefined;
  /** That outcome's message. */
  readonly message: string | undefined;
  /** The dialect's own verdict and reason, by tag (the first occurrence of each name). */
  readonly verdicts: ReadonlyMap<string, { readonly verdict: string; readonly reason: string }>;
}

/** Why two dialects disagree.
 *
 * @inline
 */
export interface PickDifference {
  readonly a: ComparedDialect;
  readonly b: ComparedDialect;
  /** `a`'s verdict on `b`'s pick, when `b` picked one. */
  readonly aOnB: string | undefined;
  /** `b`'s verdict on `a`'s pick, when `a` picked one. */
  readonly bOnA: string | undefined;
  /** One sentence: the first rule that separates them. */
  readonly summary: string;
}

/** The result of {@link compareTagSelections}. */
export interface TagSelectionComparison {
  readonly picks: readonly DialectPick[];
  /** One entry per pair of dialects whose picks (or outcomes) differ. */
  readonly differences: readonly PickDifference[];
}

/**
 * Runs every given dialect over `input.tags` and explains each disagreement.
 *
 * @example
 * ```ts
 * import { compareTagSelections } from "@kubeimg/policy/tags/dialects";
 *
 * const c = compareTagSelections({
 *   tags: [{ name: "1.2" }, { name: "1.1.0" }, { name: "1.3.0-rc.1" }],
 *   flux: { policy: { semver: { range: ">=1.0.0" } } },
 *   argocd: { imageName: "app" },
 *   kargo: { repoURL: "ghcr.io/acme/app", strictSemvers: false },
 * });
 * c.picks.map((p) => p.tag); // ["1.1.0", "1.2", "1.3.0-rc.1"]
 * ```
 */
export function compareTagSelections(input: CompareTagSelectionsInput): TagSelectionComparison {
  const picks: DialectPick[] = [];
  // Checked once here, then shared: each dialect reads the prepared list.
  const tags = prepareTagList(input.tags);
  if (input.flux !== undefined) {
    const names = preparedData(tags).names;
    const e = explainTagSelection(names, input.flux);
    picks.push({
      dialect: "flux",
      tag: e.tag,
      digest: undefined,
      outcome: e.error?.code,
      message: e.error?.message,
      verdicts: verdictMap(e.tags),
    });
  }
  for (const [dialect, run] of [
    [
      "argocd-image-updater",
      input.argocd && (() => selectArgoTag(input.argocd as ArgoConfig, tags, { explain: true })),
    ],
    [
      "kargo",
      input.kargo &&
        (() => selectKargoTag(input.kargo as KargoImageSubscription, tags, { explain: true })),
    ],
  ] as const) {
    if (!run) continue;
    const s = run();
    picks.push({
      dialect,
      tag: s.tag,
      digest: s.digest,
      outcome: s.outcome?.code,
      message: s.outcome?.message,
      verdicts: verdictMap(s.tags),
    });
  }
  const differences: PickDifference[] = [];
  for (let i = 0; i < picks.length; i++) {
    for (let j = i + 1; j < picks.length; j++) {
      const a = picks[i] as DialectPick;
      const b = picks[j] as DialectPick;
      if (a.tag === b.tag && a.outcome === b.outcome) continue;
      differences.push(difference(a, b));
    }
  }
  return { picks, differences };
}

function verdictMap(
  tags: readonly { readonly tag: string; readonly verdict: string; readonly reason: string }[],
): Map<string, { verdict: string; reason: string }> {
  const map = new Map<string, { verdict: string; reason: string }>();
  for (const t of tags)
    if (!map.has(t.tag)) map.set(t.tag, { verdict: t.verdict, reason: t.reason });
  return map;
}

function on(judge: DialectPick, tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined;
  const v = judge.verdicts.get(tag);
  return v === undefined ? undefined : `${v.verdict}: ${v.reason}`;
}

function difference(a: DialectPick, b: DialectPick): PickDifference {
  const aOnB = on(a, b.tag);
  const bOnA = on(b, a.tag);
  let summary: string;
  if (a.tag === undefined || b.tag === undefined) {
    const [none, some] = a.tag === undefined ? [a, b] : [b, a];
    const judged = on(none, some.tag);
    summary = `${none.dialect} picks nothing (${none.outcome}: ${none.message})${
      some.tag === undefined
        ? `, nor does ${some.dialect} (${some.outcome})`
        : `; ${some.dialect} picks ${JSON.stringify(some.tag)}${judged === undefined ? "" : `, which ${none.dialect} calls ${judged}`}`
    }`;
  } else if (aOnB !== undefined && !aOnB.startsWith("ranked")) {
    summary = `${a.dialect} does not pick ${JSON.stringify(b.tag)} (${aOnB})`;
  } else if (bOnA !== undefined && !bOnA.startsWith("ranked")) {
    summary = `${b.dialect} does not pick ${JSON.stringify(a.tag)} (${bOnA})`;
  } else {
    summary = `both consider ${JSON.stringify(a.tag)} and ${JSON.stringify(b.tag)} but rank them differently: ${a.dialect} ${aOnB ?? "—"}; ${b.dialect} ${bOnA ?? "—"}`;
  }
  return { a: a.dialect, b: b.dialect, aOnB, bOnA, summary };
}
