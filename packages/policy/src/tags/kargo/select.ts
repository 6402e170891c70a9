/**
 * Kargo v1.11.2's image discovery (`pkg/image`: `NewSelector` and the
 * `SemVer`, `Lexical`, `NewestBuild` and `Digest` selectors), with a reason
 * for every tag.
 *
 * After the webhook (`subscription.ts`):
 * 1. `repoURL` must parse for go-containerregistry (`INVALID_REPO_URL`).
 * 2. Except for `Digest`, in this order: compile `allowTagsRegexes`
 *    (`INVALID_PATTERN`), refuse `allowTags` (`UNSUPPORTED_FIELD`), compile
 *    `ignoreTagsRegexes`, refuse `ignoreTags`.
 * 3. Tag filter (not `Digest`): any ignore regex match drops a tag; then a
 *    non-empty allow list must match. Unanchored searches.
 * 4. `SemVer`: Masterminds `NewVersion`, and with `strictSemvers` the tag less
 *    one leading `v` must pass `StrictNewVersion`; a constraint must accept
 *    it — with no constraint, pre-releases count. Greatest first, equal
 *    versions by tag. `Lexical`: byte order, greatest first. `NewestBuild`:
 *    latest `created` first, ties by tag. `Digest`: the constraint tag only.
 * 5. With `platform`: an index entry must equal it in os, arch **and**
 *    variant; a single manifest never passes.
 * 6. At most `discoveryLimit` tags are discovered, best first.
 * The list order never matters.
 */
import { compileRegexp, type GoRegexp, isRegexpError } from "@kubeimg/core/regexp";
import { compareVersions, parseConstraints, type Version } from "../../semver/index.js";
import { tryParseStrictVersion, tryParseVersion } from "../dialect/semver.js";
import {
  byTagDescending,
  compareInstants,
  readTagList,
  splitPlatform,
  type TagMetadata,
} from "../dialect/tag-list.js";
import type {
  DialectOutcome,
  DialectSelection,
  DialectTagExplanation,
  DialectVerdict,
  TagInfo,
} from "../dialect/types.js";
import {
  defaultKargoSubscription,
  ggcrAcceptsRepository,
  type KargoImageSubscription,
  validateKargoSubscription,
} from "./subscription.js";

const selectorPrefix = "error building tag based selector";

/**
 * Discovers tags as Kargo v1.11.2 does for an image subscription, with a
 * verdict for every tag. What Kargo decides (a rejected subscription, a bad
 * regex, nothing found) is the `outcome`, never thrown; input of the wrong
 * shape throws a `TagDialectError`.
 *
 * @example
 * ```ts
 * const s = selectKargoTag({ repoURL: "ghcr.io/acme/app", constraint: "^1.0.0" },
 *   [{ name: "v1.0.0" }, { name: "v1.2.0" }, { name: "v2.0.0" }]);
 * s.tag;        // "v1.2.0"
 * s.discovered; // ["v1.2.0", "v1.0.0"]
 * ```
 */
export function selectKargoTag(
  subscription: KargoImageSubscription,
  tags: readonly TagInfo[],
): DialectSelection {
  const list = readTagList(tags);
  const sub = defaultKargoSubscription(subscription);
  const notes: string[] = [];
  const fieldErrors = validateKargoSubscription(sub);
  if (fieldErrors.length > 0) {
    const message =
      fieldErrors.length === 1 ? (fieldErrors[0] as string) : `[${fieldErrors.join(", ")}]`;
    return fail({ code: "INVALID_CONFIG", message, goError: true }, [], notes);
  }
  const strategy = sub.imageSelectionStrategy;
  if (!ggcrAcceptsRepository(sub.repoURL)) {
    return fail(
      {
        code: "INVALID_REPO_URL",
        message: `${selectorPrefix}: error building base selector: error creating repository client for image ${JSON.stringify(sub.repoURL)}: error parsing image repo URL ${sub.repoURL}: could not parse reference: ${sub.repoURL}`,
        goError: true,
      },
      [],
      notes,
    );
  }
  let allow: GoRegexp[] = [];
  let ignore: GoRegexp[] = [];
  if (strategy !== "Digest") {
    const compiled = compileAll(sub.allowTagsRegexes, "allow");
    if ("outcome" in compiled) return fail(compiled.outcome, [], notes);
    allow = compiled.regexps;
    if (sub.allowTags !== "") {
      return fail(unsupported("AllowTags", "AllowTagsRegexes"), [], notes);
    }
    const compiledIgnore = compileAll(sub.ignoreTagsRegexes, "ignore");
    if ("outcome" in compiledIgnore) return fail(compiledIgnore.outcome, [], notes);
    ignore = compiledIgnore.regexps;
    if (sub.ignoreTags.length > 0) {
      return fail(unsupported("IgnoreTags", "IgnoreTagsRegexes"), [], notes);
    }
  } else if (
    sub.allowTagsRegexes.length + sub.ignoreTagsRegexes.length > 0 ||
    sub.allowTags !== ""
  ) {
    notes.push(
      "the Digest strategy ignores allowTagsRegexes, ignoreTagsRegexes, allowTags and ignoreTags",
    );
  }

  const explanations: (DialectTagExplanation | undefined)[] = new Array(list.names.length);
  const candidates: number[] = [];
  for (let i = 0; i < list.names.length; i++) {
    const tag = list.names[i] as string;
    if (strategy === "Digest") {
      if (tag !== sub.constraint) {
        explanations[i] = verdict(
          tag,
          "not-the-constraint",
          `the Digest strategy looks up tag ${JSON.stringify(sub.constraint)} only`,
        );
        continue;
      }
    } else {
      const ignoredBy = ignore.find((re) => re.matchString(tag));
      if (ignoredBy !== undefined) {
        explanations[i] = verdict(
          tag,
          "ignored",
          `matches ignoreTagsRegexes ${JSON.stringify(ignoredBy.source)}`,
        );
        continue;
      }
      if (allow.length > 0 && !allow.some((re) => re.matchString(tag))) {
        explanations[i] = verdict(tag, "not-allowed", "matches none of allowTagsRegexes");
        continue;
      }
    }
    candidates.push(i);
  }

  // Rank the candidates, best first.
  let ranked: number[];
  switch (strategy) {
    case "SemVer": {
      if (sub.constraint === "")
        notes.push("no constraint: Kargo checks nothing, so a pre-release can win");
      const constraint = sub.constraint === "" ? undefined : parseConstraints(sub.constraint);
      const versions = new Map<number, Version>();
      for (const i of candidates) {
        const tag = list.names[i] as string;
        const v = tryParseVersion(tag);
        if (v === undefined) {
          explanations[i] = verdict(
            tag,
            "not-a-version",
            "not a version to Masterminds NewVersion",
          );
          continue;
        }
        if (
          sub.strictSemvers &&
          tryParseStrictVersion(tag.startsWith("v") ? tag.slice(1) : tag) === undefined
        ) {
          explanations[i] = verdict(
            tag,
            "not-a-version",
            "not a strict semver (strictSemvers is true)",
          );
          continue;
        }
        if (constraint !== undefined && !constraint.check(v)) {
          explanations[i] = verdict(
            tag,
            "out-of-range",
            `${v.toString()} is outside ${JSON.stringify(sub.constraint)}`,
          );
          continue;
        }
        versions.set(i, v);
      }
      ranked = [...versions.keys()].sort(
        (a, b) =>
          compareVersions(versions.get(b) as Version, versions.get(a) as Version) ||
          byTagDescending(list.names[a] as string, list.names[b] as string),
      );
      break;
    }
    case "Lexical":
      ranked = [...candidates].sort((a, b) =>
        byTagDescending(list.names[a] as string, list.names[b] as string),
      );
      break;
    case "NewestBuild":
      ranked = [...candidates].sort(
        (a, b) =>
          compareInstants(
            (list.metadata.get(list.names[b] as string) as TagMetadata).created,
            (list.metadata.get(list.names[a] as string) as TagMetadata).created,
          ) || byTagDescending(list.names[a] as string, list.names[b] as string),
      );
      break;
    default:
      // Digest: one direct lookup of the constraint tag.
      ranked = candidates.slice(0, 1);
      for (const i of candidates.slice(1)) {
        explanations[i] = verdict(
          list.names[i] as string,
          "ranked",
          "the Digest strategy looks the tag up once",
        );
      }
      break;
  }

  const wanted = sub.platform === "" ? undefined : splitPlatform(sub.platform);
  const discovered: number[] = [];
  for (const i of ranked) {
    const tag = list.names[i] as string;
    if (wanted !== undefined) {
      const meta = list.metadata.get(tag) as TagMetadata;
      if (meta.platforms === undefined) {
        explanations[i] = verdict(
          tag,
          "wrong-platform",
          `a single-platform image never matches platform ${JSON.stringify(sub.platform)} in Kargo`,
        );
        continue;
      }
      const match = meta.platforms.some((text) => {
        const p = splitPlatform(text);
        return p.os === wanted.os && p.arch === wanted.arch && p.variant === wanted.variant;
      });
      if (!match) {
        explanations[i] = verdict(
          tag,
          "wrong-platform",
          `its index offers ${meta.platforms.join(", ")}, not exactly ${sub.platform}`,
        );
        continue;
      }
    }
    if (discovered.length >= sub.discoveryLimit) {
      explanations[i] = verdict(
        tag,
        "beyond-limit",
        `ranked past discoveryLimit ${sub.discoveryLimit}`,
      );
      continue;
    }
    discovered.push(i);
  }
  const names = discovered.map((i) => list.names[i] as string);
  const pick = names[0];
  for (let k = 0; k < discovered.length; k++) {
    const i = discovered[k] as number;
    explanations[i] =
      k === 0
        ? verdict(names[0] as string, "selected", `the ${strategy} pick`)
        : verdict(names[k] as string, "ranked", `discovered, ranked ${k + 1} by ${strategy}`);
  }
  const tagsOut = list.names.map(
    (tag, i) => explanations[i] ?? verdict(tag, "not-considered", "nothing was picked"),
  );
  if (pick === undefined) {
    return fail(
      list.names.length === 0
        ? { code: "NO_TAGS", message: "the repository has no tags", goError: false }
        : {
            code: "NO_CANDIDATES",
            message: "no tag passes the filters, the constraint and the platform",
            goError: false,
          },
      tagsOut,
      notes,
    );
  }
  return {
    dialect: "kargo",
    tag: pick,
    digest: (list.metadata.get(pick) as TagMetadata).digest,
    discovered: names,
    outcome: undefined,
    tags: tagsOut,
    notes,
  };
}

function compileAll(
  patterns: readonly string[],
  which: "allow" | "ignore",
): { regexps: GoRegexp[] } | { outcome: DialectOutcome } {
  const regexps: GoRegexp[] = [];
  for (const pattern of patterns) {
    try {
      regexps.push(compileRegexp(pattern));
    } catch (error) {
      if (!isRegexpError(error)) throw error;
      return {
        outcome: {
          code: "INVALID_PATTERN",
          message: `${selectorPrefix}: error compiling ${which} tags regex: error compiling regular expression ${JSON.stringify(pattern)}: ${error.message}`,
          goError: true,
        },
      };
    }
  }
  return { regexps };
}

function unsupported(field: string, replacement: string): DialectOutcome {
  return {
    code: "UNSUPPORTED_FIELD",
    message: `${selectorPrefix}: ${field} is deprecated and unsupported as of v1.11.0; use ${replacement} instead`,
    goError: true,
  };
}

function verdict(tag: string, v: DialectVerdict, reason: string): DialectTagExplanation {
  return { tag, verdict: v, reason };
}

function fail(
  outcome: DialectOutcome,
  tags: readonly DialectTagExplanation[],
  notes: readonly string[],
): DialectSelection {
  return {
    dialect: "kargo",
    tag: undefined,
    digest: undefined,
    discovered: [],
    outcome,
    tags,
    notes,
  };
}
