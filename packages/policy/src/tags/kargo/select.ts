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
import { compileRegexp, type GoRegexp, RegexpError } from "@kubeimg/core/regexp";
import { compareVersions, parseConstraints, type Version } from "../../semver/index.js";
import { PreparedTagList, preparedData, readTags } from "../common/prepared.js";
import { tryParseStrictVersion, tryParseVersion, updaterSemver } from "../common/semver.js";
import { checkedLastIndex, flatString } from "../common/single-pass.js";
import { byTagDescending, compareInstants, splitPlatform } from "../common/tag-list.js";
import { Trace } from "../common/trace.js";
import type {
  DialectOutcome,
  DialectSelection,
  DialectTagExplanation,
  TagInfo,
} from "../common/types.js";
import { type KargoPassRules, kargoSinglePass } from "./single-pass.js";
import {
  defaultKargoSubscription,
  type KargoImageSubscription,
  kargoRepositoryURL,
  validateKargoSubscription,
} from "./subscription.js";

const selectorPrefix = "error building tag based selector";

/** Options of {@link selectKargoTag}. */
export interface KargoSelectOptions {
  /** Build the per-tag trace in `tags` (off by default: a selection then allocates nothing per tag). */
  readonly explain?: boolean;
}

/**
 * Discovers tags as Kargo v1.11.2 does for an image subscription; with
 * `explain`, with a verdict for every tag. What Kargo decides (a rejected
 * subscription, a bad regex, nothing found) is the `outcome`, never thrown;
 * input of the wrong shape throws a `TagDialectError`.
 *
 * @example
 * ```ts
 * import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
 *
 * const s = selectKargoTag({ repoURL: "ghcr.io/acme/app", constraint: "^1.0.0" },
 *   [{ name: "v1.0.0" }, { name: "v1.2.0" }, { name: "v2.0.0" }]);
 * s.tag;        // "v1.2.0"
 * s.discovered; // ["v1.2.0", "v1.0.0"]
 * ```
 */
export function selectKargoTag(
  subscription: KargoImageSubscription,
  tags: readonly TagInfo[] | PreparedTagList,
  options: KargoSelectOptions = {},
): DialectSelection {
  const sub = defaultKargoSubscription(subscription);
  const strategy = sub.imageSelectionStrategy;
  // Every entry's metadata is read by these; the others read the pick's (see readTags).
  const readsEveryEntry = strategy === "NewestBuild" || sub.platform !== "";
  const notes: string[] = [];
  // The tags are checked before the subscription is (a bad entry throws
  // whatever the subscription), also when the pick is found in one pass.
  const refuse = (outcome: DialectOutcome): DialectSelection => {
    readTags(tags, { metadata: false });
    return fail(outcome, [], notes);
  };
  const fieldErrors = validateKargoSubscription(sub);
  if (fieldErrors.length > 0) {
    const message =
      fieldErrors.length === 1 ? (fieldErrors[0] as string) : `[${fieldErrors.join(", ")}]`;
    return refuse({ code: "INVALID_CONFIG", message, goError: true });
  }
  const repository = kargoRepositoryURL(sub.repoURL);
  if (!repository.ok) {
    const url = repository.url;
    return refuse({
      code: "INVALID_REPO_URL",
      message: `${selectorPrefix}: error building base selector: error creating repository client for image ${JSON.stringify(url)}: error parsing image repo URL ${url}: could not parse reference: ${url}`,
      goError: true,
    });
  }
  let allow: GoRegexp[] = [];
  let ignore: GoRegexp[] = [];
  if (strategy !== "Digest") {
    const compiled = compileAll(sub.allowTagsRegexes, "allow");
    if ("outcome" in compiled) return refuse(compiled.outcome);
    allow = compiled.regexps;
    if (sub.allowTags !== "") return refuse(unsupported("AllowTags", "AllowTagsRegexes"));
    const compiledIgnore = compileAll(sub.ignoreTagsRegexes, "ignore");
    if ("outcome" in compiledIgnore) return refuse(compiledIgnore.outcome);
    ignore = compiledIgnore.regexps;
    if (sub.ignoreTags.length > 0) return refuse(unsupported("IgnoreTags", "IgnoreTagsRegexes"));
  } else if (
    sub.allowTagsRegexes.length + sub.ignoreTagsRegexes.length > 0 ||
    sub.allowTags !== ""
  ) {
    notes.push(
      "the Digest strategy ignores allowTagsRegexes, ignoreTagsRegexes, allowTags and ignoreTags",
    );
  }
  let constraint: ReturnType<typeof parseConstraints> | undefined;
  if (strategy === "SemVer") {
    if (sub.constraint === "")
      notes.push("no constraint: Kargo checks nothing, so a pre-release can win");
    else constraint = parseConstraints(sub.constraint, updaterSemver);
  }
  const wanted = sub.platform === "" ? undefined : splitPlatform(sub.platform);
  const keeps =
    allow.length + ignore.length === 0
      ? undefined
      : (tag: string) =>
          !ignore.some((re) => re.matchString(tag)) &&
          (allow.length === 0 || allow.some((re) => re.matchString(tag)));
  // With `platform`: an index entry must equal it in os, arch and variant.
  const platformMatches =
    wanted &&
    ((platforms: readonly string[]) =>
      platforms.some((text) => {
        const p = splitPlatform(text);
        return p.os === wanted.os && p.arch === wanted.arch && p.variant === wanted.variant;
      }));
  const prepared = PreparedTagList.isPrepared(tags) ? preparedData(tags) : undefined;
  if (options.explain !== true) {
    // Without a trace only the discovered tags matter: one pass finds them,
    // over a prepared list's arrays (checked when it was prepared; it knows
    // each name's last occurrence and platforms) or over the entries
    // (`single-pass.ts`), or hands over to the plain pass.
    const raw = tags as readonly TagInfo[];
    const top = kargoSinglePass(prepared ?? raw, {
      // Validated above: one of the four.
      strategy: strategy as KargoPassRules["strategy"],
      keeps,
      constraints: constraint,
      strictSemvers: sub.strictSemvers,
      discoveryLimit: sub.discoveryLimit,
      constraintTag: flatString(sub.constraint),
      platformMatches,
    });
    if (top !== undefined) {
      const first = top[0] as number;
      const discovered = top.map((i) => prepared?.names[i] ?? (raw[i] as TagInfo).name);
      return {
        dialect: "kargo",
        tag: discovered[0],
        // Raw, every entry checked: the pick's name occurs once, so its own
        // entry is its last; else the last entry of its name, checked now.
        digest:
          prepared !== undefined
            ? prepared.digests[prepared.last[first] as number]
            : readsEveryEntry
              ? (raw[first] as TagInfo).digest
              : (raw[checkedLastIndex(raw, discovered[0] as string)] as TagInfo).digest,
        discovered,
        outcome: undefined,
        tags: [],
        notes,
      };
    }
  }
  const list = readTags(tags, { metadata: readsEveryEntry });
  const names = list.names;
  const trace = new Trace(options.explain === true, names);
  const versions: (Version | undefined)[] = strategy === "SemVer" ? new Array(names.length) : [];

  // Best first: positive when tag i sorts before tag j.
  const before = (i: number, j: number): boolean => {
    const a = names[i] as string;
    const b = names[j] as string;
    switch (strategy) {
      case "SemVer": {
        const order = compareVersions(versions[i] as Version, versions[j] as Version);
        return order > 0 || (order === 0 && byTagDescending(a, b) < 0);
      }
      case "NewestBuild": {
        const order = compareInstants(list.metadata(a).created, list.metadata(b).created);
        return order > 0 || (order === 0 && byTagDescending(a, b) < 0);
      }
      default:
        return byTagDescending(a, b) < 0;
    }
  };

  // One pass: filters, eligibility, platform; the best `discoveryLimit` kept in order.
  const limit = strategy === "Digest" ? 1 : sub.discoveryLimit;
  const top: number[] = [];
  const overflow: number[] = [];
  for (let i = 0; i < names.length; i++) {
    const tag = names[i] as string;
    if (strategy === "Digest") {
      if (tag !== sub.constraint) {
        trace.mark(
          i,
          "not-the-constraint",
          () => `the Digest strategy looks up tag ${JSON.stringify(sub.constraint)} only`,
        );
        continue;
      }
    } else {
      let ignoredBy: GoRegexp | undefined;
      for (const re of ignore) {
        if (re.matchString(tag)) {
          ignoredBy = re;
          break;
        }
      }
      if (ignoredBy !== undefined) {
        const by = ignoredBy;
        trace.mark(i, "ignored", () => `matches ignoreTagsRegexes ${JSON.stringify(by.source)}`);
        continue;
      }
      if (allow.length > 0 && !allow.some((re) => re.matchString(tag))) {
        trace.mark(i, "not-allowed", () => "matches none of allowTagsRegexes");
        continue;
      }
    }
    if (strategy === "SemVer") {
      const v = tryParseVersion(tag);
      if (v === undefined) {
        trace.mark(i, "not-a-version", () => "not a version to Masterminds NewVersion");
        continue;
      }
      if (
        sub.strictSemvers &&
        tryParseStrictVersion(tag.startsWith("v") ? tag.slice(1) : tag) === undefined
      ) {
        trace.mark(i, "not-a-version", () => "not a strict semver (strictSemvers is true)");
        continue;
      }
      if (constraint !== undefined && !constraint.check(v)) {
        trace.mark(
          i,
          "out-of-range",
          () => `${v.toString()} is outside ${JSON.stringify(sub.constraint)}`,
        );
        continue;
      }
      versions[i] = v;
    }
    if (wanted !== undefined) {
      const platforms = list.metadata(tag).platforms;
      if (platforms === undefined) {
        trace.mark(
          i,
          "wrong-platform",
          () =>
            `a single-platform image never matches platform ${JSON.stringify(sub.platform)} in Kargo`,
        );
        continue;
      }
      if (!(platformMatches as (platforms: readonly string[]) => boolean)(platforms)) {
        trace.mark(
          i,
          "wrong-platform",
          () => `its index offers ${platforms.join(", ")}, not exactly ${sub.platform}`,
        );
        continue;
      }
    }
    if (strategy === "Digest" && top.length === 1) {
      trace.mark(i, "ranked", () => "the Digest strategy looks the tag up once");
      continue;
    }
    // Insert into `top` (best first); what falls off the end is past the limit.
    if (top.length === limit && !before(i, top[top.length - 1] as number)) {
      overflow.push(i);
      continue;
    }
    let at = top.length;
    while (at > 0 && before(i, top[at - 1] as number)) at--;
    top.splice(at, 0, i);
    if (top.length > limit) overflow.push(top.pop() as number);
  }
  for (const i of overflow)
    trace.mark(i, "beyond-limit", () => `ranked past discoveryLimit ${sub.discoveryLimit}`);
  const discovered = top.map((i) => names[i] as string);
  top.forEach((i, k) => {
    trace.mark(i, k === 0 ? "selected" : "ranked", () =>
      k === 0 ? `the ${strategy} pick` : `discovered, ranked ${k + 1} by ${strategy}`,
    );
  });
  const pick = discovered[0];
  const tagsOut = trace.finish(() => ({ verdict: "not-considered", reason: "nothing was picked" }));
  if (pick === undefined) {
    return fail(
      names.length === 0
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
    digest: list.metadata(pick).digest,
    discovered,
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
      if (!(error instanceof RegexpError)) throw error;
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
