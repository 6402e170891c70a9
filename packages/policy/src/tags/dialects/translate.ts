/**
 * Carrying a tag policy from one updater to another. A translation is
 * `exact` only when the two updaters pick the same tag from every list;
 * otherwise `lost` says precisely what does not carry over, so a user
 * migrating between Flux, Argo CD Image Updater and Kargo knows what will
 * change.
 */
import type { ArgoImageUpdaterConfig } from "../argocd/config.js";
import type { TagSelectionPolicy } from "../flux/types.js";
import type { KargoImageSubscription } from "../kargo/subscription.js";

/** A translated configuration and what it cannot carry. */
export interface Translation<T> {
  readonly config: T;
  /** True when the target picks what the source picks from every tag list. */
  readonly exact: boolean;
  /** Each behaviour of the source the target does not reproduce. */
  readonly lost: readonly string[];
}

/** Masterminds `StrictNewVersion` with one optional leading `v`: the tags Flux's semver policy reads. */
const strictSemverTag =
  "^v?(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$";

/**
 * Whether Flux ranks the tag itself: only without an `extract`. Even `$0` is
 * the pattern's leftmost match, not the tag (with no pattern, or `^v`, it is
 * `""` or `v` for every tag, and every tag ties).
 */
function ranksWholeTag(extract: string): boolean {
  return extract === "";
}

const tieLoss =
  "equal versions (1.0.0, v1.0.0, 1.0.0+build) are broken on the tag string, where Flux keeps the first in list order";

/** Flux `ImagePolicy` → Kargo image subscription for `repoURL`. */
export function translateFluxToKargo(
  policy: TagSelectionPolicy,
  repoURL: string,
): Translation<KargoImageSubscription> {
  const lost: string[] = [];
  const pattern = policy.filterTags?.pattern ?? "";
  const extract = policy.filterTags?.extract ?? "";
  if (!ranksWholeTag(extract)) {
    lost.push(
      `filterTags.extract ${JSON.stringify(extract)}: Kargo ranks the tag itself, never an extracted part`,
    );
  }
  const allow = pattern === "" ? {} : { allowTagsRegexes: [pattern] };
  const { semver, alphabetical, numerical } = policy.policy;
  if (semver !== undefined) {
    lost.push(tieLoss);
    return {
      config: {
        repoURL,
        imageSelectionStrategy: "SemVer",
        constraint: semver.range,
        strictSemvers: true,
        ...allow,
      },
      exact: false,
      lost,
    };
  }
  if (alphabetical !== undefined) {
    if ((alphabetical.order ?? "asc").toLowerCase() === "desc") {
      lost.push("alphabetical order desc: Kargo's Lexical always takes the greatest tag");
    }
    return {
      config: { repoURL, imageSelectionStrategy: "Lexical", ...allow },
      exact: lost.length === 0,
      lost,
    };
  }
  if (numerical !== undefined) {
    lost.push(
      "numerical order: Kargo has no numerical strategy; Lexical compares text, so 10 sorts before 9",
    );
  }
  return { config: { repoURL, imageSelectionStrategy: "Lexical", ...allow }, exact: false, lost };
}

/** Flux `ImagePolicy` → Argo CD `ImageUpdater` image (the resource form: a range may hold commas there). */
export function translateFluxToArgo(
  policy: TagSelectionPolicy,
  image: string,
): Translation<ArgoImageUpdaterConfig> {
  const lost: string[] = [];
  const pattern = policy.filterTags?.pattern ?? "";
  const extract = policy.filterTags?.extract ?? "";
  if (!ranksWholeTag(extract)) {
    lost.push(`filterTags.extract ${JSON.stringify(extract)}: Argo CD ranks the tag itself`);
  }
  const { semver, alphabetical, numerical } = policy.policy;
  if (semver !== undefined) {
    lost.push(tieLoss);
    let allowTags = `regexp:${strictSemverTag}`;
    if (pattern !== "") {
      allowTags = `regexp:${pattern}`;
      lost.push(
        "Argo CD takes one allow-tags regexp: the filter pattern is kept, so partial versions it lets through (1.2, 20240101) count as versions there",
      );
    }
    return {
      config: {
        imageName: `${image}:${semver.range}`,
        settings: { image: { updateStrategy: "semver", allowTags } },
      },
      exact: false,
      lost,
    };
  }
  const allowTags = pattern === "" ? {} : { allowTags: `regexp:${pattern}` };
  if (alphabetical !== undefined) {
    if ((alphabetical.order ?? "asc").toLowerCase() === "desc") {
      lost.push(
        "alphabetical order desc: Argo CD's alphabetical strategy always takes the greatest tag",
      );
    }
    return {
      config: {
        imageName: image,
        settings: { image: { updateStrategy: "alphabetical", ...allowTags } },
      },
      exact: lost.length === 0,
      lost,
    };
  }
  if (numerical !== undefined) lost.push("numerical order: Argo CD has no numerical strategy");
  return {
    config: {
      imageName: image,
      settings: { image: { updateStrategy: "alphabetical", ...allowTags } },
    },
    exact: false,
    lost,
  };
}

/** Kargo image subscription → Flux `ImagePolicy` spec. */
export function translateKargoToFlux(sub: KargoImageSubscription): Translation<TagSelectionPolicy> {
  const lost: string[] = [];
  const strategy = sub.imageSelectionStrategy || "SemVer";
  const allow = sub.allowTagsRegexes ?? [];
  if (allow.length > 1)
    lost.push("more than one allowTagsRegexes: Flux takes one filter pattern (joined with |)");
  if ((sub.ignoreTagsRegexes ?? []).length > 0) {
    lost.push("ignoreTagsRegexes: Flux filters have no negation (RE2 has no look-ahead)");
  }
  if (sub.platform) lost.push(`platform ${sub.platform}: Flux reads no image metadata`);
  const filterTags =
    allow.length === 0 ? undefined : { pattern: allow.map((p) => `(?:${p})`).join("|") };
  const withFilter = (policy: TagSelectionPolicy["policy"]): TagSelectionPolicy =>
    filterTags === undefined ? { policy } : { policy, filterTags };
  switch (strategy) {
    case "SemVer":
      if (!sub.constraint)
        lost.push(
          'no constraint: Kargo admits pre-releases, Flux needs a range (">=0.0.0-0" used)',
        );
      if (sub.strictSemvers === false)
        lost.push("strictSemvers: false: Flux reads strict versions only");
      lost.push(tieLoss.replace("where Flux keeps", "where Kargo breaks them; Flux keeps"));
      return {
        config: withFilter({ semver: { range: sub.constraint || ">=0.0.0-0" } }),
        exact: false,
        lost,
      };
    case "Lexical":
      return {
        config: withFilter({ alphabetical: { order: "asc" } }),
        exact: lost.length === 0,
        lost,
      };
    default:
      lost.push(`${strategy}: Flux has no strategy that reads build times or digests`);
      return { config: withFilter({ alphabetical: { order: "asc" } }), exact: false, lost };
  }
}
