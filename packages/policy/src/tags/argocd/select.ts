/**
 * Argo CD Image Updater v1.3.0's tag selection (`registry-scanner`:
 * `GetTags` filters, `GetNewestVersionFromTags` picks), with a reason for
 * every tag.
 *
 * 1. `digest` without a constraint stops at once (`DIGEST_NEEDS_CONSTRAINT`).
 * 2. Filter, in list order: not allowed (`allow-tags`), ignored (`ignore-tags`
 *    globs), or (`digest`) not the constraint tag.
 * 3. `newest-build` and `digest` only: metadata is fetched, and a tag whose
 *    index offers no wanted platform is dropped, and so is a single manifest
 *    whose config's platform is not wanted (`TagMetadata` checks both with
 *    `WantsPlatform`); a single manifest of unknown platform is kept.
 *    `semver` and `alphabetical` fetch nothing: `created` and platforms have
 *    no effect on them.
 * 4. Pick: `semver` — Masterminds `NewVersion` (so `1`, `1.2`, `20240101`
 *    are versions); none parses: no candidates, before the constraint is
 *    looked at; `""` means `*`, which never admits a pre-release; greatest
 *    version, ties broken by the tag string (greatest). `alphabetical` —
 *    greatest in byte order. `newest-build` — latest `created`, ties by tag.
 *    `digest` — the constraint tag with its digest (64 zeros without one).
 * The list order never matters.
 */
import { path as goPath, strings } from "@kubeimg/core/internal";
import { compileRegexp, type GoRegexp } from "@kubeimg/core/regexp";
import {
  type Constraints,
  compareVersions,
  parseConstraints,
  type Version,
} from "../../semver/index.js";
import { PreparedTagList, preparedData, readTags } from "../common/prepared.js";
import { tryParseVersion, updaterSemver } from "../common/semver.js";
import { flatString } from "../common/single-pass.js";
import {
  byTagDescending,
  compareInstants,
  type Instant,
  type SplitPlatform,
  splitPlatform,
  type TagMetadata,
  ZERO_INSTANT,
} from "../common/tag-list.js";
import { Trace } from "../common/trace.js";
import type {
  DialectOutcome,
  DialectSelection,
  DialectTagExplanation,
  TagInfo,
} from "../common/types.js";
import { type ArgoConfig, type ArgoUpdateSettings, readArgoConfig } from "./config.js";
import { argoVersionConstraint } from "./constraint.js";
import { argoSinglePass } from "./single-pass.js";

/** Argo CD's update strategies, after aliases (`latest` → `newest-build`, `name` → `alphabetical`). */
export type ArgoStrategy = "semver" | "newest-build" | "alphabetical" | "digest";

/** Options for {@link selectArgoTag}. */
export interface ArgoSelectOptions {
  /**
   * The updater's own platform, used when the image names none
   * (`os/arch[/variant]`). Default `linux/amd64`, the platform of the
   * updater's published image.
   */
  readonly defaultPlatform?: string;
  /** Build the per-tag trace in `tags` (off by default: a selection then allocates nothing per tag). */
  readonly explain?: boolean;
}

const zeroDigest = `sha256:${"0".repeat(64)}`;

/** Returns the strategy Argo CD runs for the text a user wrote (anything unknown is `semver`). */
export function argoStrategy(text: string | undefined): ArgoStrategy {
  // Go's strings.ToLower, not JavaScript's: `DİGEST` lowers to `digest` there.
  switch (strings.ToLower(text ?? "")) {
    case "latest":
    case "newest-build":
      return "newest-build";
    case "name":
    case "alphabetical":
      return "alphabetical";
    case "digest":
      return "digest";
    default:
      return "semver";
  }
}

/** How `allow-tags` decides, with the sentence that says so. */
interface AllowRule {
  readonly allows: (tag: string) => boolean;
  /** Every tag is allowed (no `allow-tags`, or `any`). */
  readonly allowsEvery: boolean;
  readonly describe: string;
  /** A quirk that decided, for the notes. */
  readonly quirk: string | undefined;
}

function allowRule(allowTags: string | undefined): AllowRule {
  const text = allowTags ?? "";
  if (text === "" || strings.ToLower(text) === "any") {
    return {
      allows: () => true,
      allowsEvery: true,
      describe: "every tag is allowed",
      quirk: undefined,
    };
  }
  const colon = text.indexOf(":");
  const fn = colon < 0 ? "" : strings.ToLower(text.slice(0, colon));
  if (colon < 0 || fn !== "regexp") {
    const why =
      colon < 0
        ? `allow-tags ${JSON.stringify(text)} has no \`regexp:\` prefix: Argo CD allows no tag`
        : `allow-tags function ${JSON.stringify(text.slice(0, colon))} is not \`regexp\`: Argo CD allows no tag`;
    return { allows: () => false, allowsEvery: false, describe: why, quirk: why };
  }
  const pattern = text.slice(colon + 1);
  let re: GoRegexp;
  try {
    re = compileRegexp(pattern);
  } catch (error) {
    const why = `allow-tags regexp ${JSON.stringify(pattern)} does not compile (${(error as Error).message}): Argo CD allows no tag`;
    return { allows: () => false, allowsEvery: false, describe: why, quirk: why };
  }
  return {
    allows: (tag) => re.matchString(tag),
    allowsEvery: false,
    describe: `does not match allow-tags regexp ${JSON.stringify(pattern)}`,
    quirk: undefined,
  };
}

/**
 * The ignore pattern that matches `tag` whole (Go `filepath.Match`, over
 * code points as Go's walk over UTF-8 does, so `?` takes one code point,
 * 😀 included; a malformed pattern matches nothing).
 */
function ignoredBy(patterns: readonly string[], tag: string): string | undefined {
  for (const p of patterns) if (goPath.Match(p, tag) === true) return p;
  return undefined;
}

/**
 * The build time Argo CD reads for a tag: an index's is the latest of its
 * wanted images' times, kept from Go's zero time up (`TagInfoFromReferences`
 * starts there and moves only forward), so a time before year 1 counts as
 * the zero time; a single image's is its own.
 */
function argoCreated(meta: TagMetadata): Instant {
  return meta.platforms !== undefined && compareInstants(meta.created, ZERO_INSTANT) < 0
    ? ZERO_INSTANT
    : meta.created;
}

/** Whether an index platform is wanted: equal, or with a variant whose `os/arch` is wanted. */
function platformWanted(platform: string, wanted: readonly SplitPlatform[]): boolean {
  const p = splitPlatform(platform);
  return wanted.some(
    (w) =>
      w.valid &&
      w.os === p.os &&
      w.arch === p.arch &&
      (w.variant === p.variant || (w.variant === "" && p.variant !== "")),
  );
}

/**
 * Selects a tag as Argo CD Image Updater v1.3.0 does for `config` (either
 * the `ImageUpdater` resource form or an Application's annotations); with
 * `explain`, with a verdict for every tag. Never throws for what the updater
 * decides (a bad constraint, no candidates): that is `outcome`. Throws a
 * `TagDialectError` for input of the wrong shape.
 *
 * @example
 * ```ts
 * import { selectArgoTag } from "@kubeimg/policy/tags/argocd";
 *
 * const s = selectArgoTag(
 *   { annotations: { "argocd-image-updater.argoproj.io/image-list": "web=nginx:~1.26" } },
 *   [{ name: "1.26.1" }, { name: "1.27.0" }, { name: "1.26.3-alpine" }],
 * );
 * s.tag; // "1.26.1"
 * ```
 */
export function selectArgoTag(
  config: ArgoConfig,
  tags: readonly TagInfo[] | PreparedTagList,
  options: ArgoSelectOptions = {},
): DialectSelection {
  const read = readArgoConfig(config);
  const notes: string[] = [];
  if ("message" in read) {
    readTags(tags, { metadata: false });
    return fail({ code: "INVALID_CONFIG", message: read.message, goError: true }, [], notes);
  }
  const settings: ArgoUpdateSettings = read.settings;
  const strategy = argoStrategy(settings.updateStrategy);
  const usesMetadata = strategy === "newest-build" || strategy === "digest";
  // Argo CD parses the identifier `<alias>=<image>` (its `Original()`, also
  // with an empty alias) from its first `=`: an alias that holds `=` itself
  // (the resource form allows it) lends its tail.
  const identifier = `${read.alias}=${read.image}`;
  const constraint = argoVersionConstraint(identifier.slice(identifier.indexOf("=") + 1));
  notes.push(
    `strategy ${strategy}${settings.updateStrategy !== undefined && strings.ToLower(settings.updateStrategy) !== strategy ? ` (from ${JSON.stringify(settings.updateStrategy)})` : ""}; version constraint ${constraint === "" ? "none" : JSON.stringify(constraint)}`,
  );
  notes.push(...read.notes);
  if (strategy === "digest" && constraint === "") {
    const names = readTags(tags, { metadata: false }).names;
    const trace = new Trace(options.explain === true, names);
    for (let i = 0; i < names.length; i++) {
      trace.mark(i, "not-considered", () => "the digest strategy needs a version constraint");
    }
    return fail(
      {
        code: "DIGEST_NEEDS_CONSTRAINT",
        message: `cannot use update strategy 'digest' for image '${identifier}' without a version constraint`,
        goError: true,
      },
      trace.finish(() => ({ verdict: "not-considered", reason: "" })),
      notes,
    );
  }

  const allow = allowRule(settings.allowTags);
  if (allow.quirk !== undefined) notes.push(allow.quirk);
  const ignore = settings.ignoreTags ?? [];
  const platformTexts =
    settings.platforms !== undefined && settings.platforms.length > 0
      ? settings.platforms
      : [options.defaultPlatform ?? "linux/amd64"];
  const wanted = platformTexts.map((p) => splitPlatform(strings.TrimSpace(p)));
  if (!usesMetadata && settings.platforms !== undefined && settings.platforms.length > 0) {
    notes.push(
      `platforms are ignored by the ${strategy} strategy: Argo CD fetches no metadata for it`,
    );
  }

  if (options.explain !== true) {
    // Without a trace only the pick matters: one pass over the entries finds
    // it (`single-pass.ts`), or hands over to the plain pass below.
    let constraints: Constraints | undefined;
    if (strategy === "semver") {
      try {
        constraints = parseConstraints(constraint === "" ? "*" : constraint, updaterSemver);
      } catch {
        constraints = undefined;
      }
    }
    const rules = {
      strategy,
      keeps:
        allow.allowsEvery && ignore.length === 0
          ? undefined
          : (tag: string) => allow.allows(tag) && ignoredBy(ignore, tag) === undefined,
      platformsWanted: (platforms: readonly string[]) =>
        platforms.some((p) => platformWanted(p, wanted)),
      constraints,
      constraintTag: flatString(constraint),
    };
    // A prepared list was checked when it was prepared: the pass reads its arrays only.
    const prepared = PreparedTagList.isPrepared(tags) ? preparedData(tags) : undefined;
    const pick = argoSinglePass(prepared ?? (tags as readonly TagInfo[]), rules);
    if (pick !== undefined) {
      if (strategy === "semver" && constraint === "") notes.push(noConstraintNote);
      if (prepared !== undefined) {
        const name = prepared.names[pick] as string;
        const digest = strategy === "digest" ? (prepared.digests[pick] ?? zeroDigest) : undefined;
        return picked(name, digest, [], notes);
      }
      const entry = (tags as readonly TagInfo[])[pick] as TagInfo;
      return picked(
        entry.name,
        strategy === "digest" ? (entry.digest ?? zeroDigest) : undefined,
        [],
        notes,
      );
    }
  }
  // Only newest-build reads every entry's metadata; digest reads one tag's (see readTags).
  const list = readTags(tags, { metadata: strategy === "newest-build" });
  const names = list.names;
  const trace = new Trace(options.explain === true, names);

  // One pass: filter, and keep the best candidate so far.
  let constraints: ReturnType<typeof parseConstraints> | undefined;
  let constraintError: Error | undefined;
  let sawVersion = false;
  const versions: (Version | undefined)[] = strategy === "semver" ? new Array(names.length) : [];
  let best = -1;
  let bestVersion: Version | undefined;
  for (let i = 0; i < names.length; i++) {
    const tag = names[i] as string;
    if (!allow.allows(tag)) {
      trace.mark(i, "not-allowed", () => allow.describe);
      continue;
    }
    if (ignore.length > 0) {
      const pattern = ignoredBy(ignore, tag);
      if (pattern !== undefined) {
        trace.mark(i, "ignored", () => `matches ignore-tags glob ${JSON.stringify(pattern)}`);
        continue;
      }
    }
    if (strategy === "digest" && tag !== constraint) {
      trace.mark(
        i,
        "not-the-constraint",
        () => `the digest strategy follows tag ${JSON.stringify(constraint)} only`,
      );
      continue;
    }
    if (usesMetadata) {
      const meta = list.metadata(tag);
      if (meta.platforms !== undefined && !meta.platforms.some((p) => platformWanted(p, wanted))) {
        trace.mark(
          i,
          "wrong-platform",
          () =>
            `its index offers ${meta.platforms?.join(", ")}, none of ${platformTexts.join(", ")}`,
        );
        continue;
      }
      if (
        meta.platforms === undefined &&
        meta.platform !== undefined &&
        !platformWanted(meta.platform, wanted)
      ) {
        trace.mark(
          i,
          "wrong-platform",
          () => `its image is ${meta.platform}, none of ${platformTexts.join(", ")}`,
        );
        continue;
      }
    }
    switch (strategy) {
      case "semver": {
        const v = tryParseVersion(tag);
        if (v === undefined) {
          trace.mark(i, "not-a-version", () => "not a version to Masterminds NewVersion");
          continue;
        }
        versions[i] = v;
        sawVersion = true;
        break;
      }
      case "alphabetical":
        if (best < 0 || byTagDescending(tag, names[best] as string) < 0) best = i;
        break;
      default: {
        if (best < 0) {
          best = i;
          break;
        }
        const byTime = compareInstants(
          argoCreated(list.metadata(tag)),
          argoCreated(list.metadata(names[best] as string)),
        );
        if (byTime > 0 || (byTime === 0 && byTagDescending(tag, names[best] as string) < 0))
          best = i;
      }
    }
  }
  if (strategy === "semver" && sawVersion) {
    // Masterminds reads the constraint only once a version exists.
    try {
      constraints = parseConstraints(constraint === "" ? "*" : constraint, updaterSemver);
    } catch (error) {
      constraintError = error as Error;
    }
    if (constraintError !== undefined) {
      for (let i = 0; i < names.length; i++) {
        if (versions[i] !== undefined)
          trace.mark(i, "not-considered", () => "the constraint does not parse");
      }
      return fail(
        { code: "INVALID_CONSTRAINT", message: constraintError.message, goError: true },
        trace.finish(() => ({ verdict: "not-considered", reason: "nothing was picked" })),
        notes,
      );
    }
    if (constraint === "") notes.push(noConstraintNote);
    const c = constraints as NonNullable<typeof constraints>;
    for (let i = 0; i < names.length; i++) {
      const v = versions[i];
      if (v === undefined) continue;
      if (!c.check(v)) {
        trace.mark(
          i,
          "out-of-range",
          () => `${v.toString()} is outside ${JSON.stringify(c.source)}`,
        );
        continue;
      }
      if (bestVersion === undefined) {
        best = i;
        bestVersion = v;
        continue;
      }
      const order = compareVersions(v, bestVersion);
      if (
        order > 0 ||
        (order === 0 && byTagDescending(names[i] as string, names[best] as string) < 0)
      ) {
        best = i;
        bestVersion = v;
      }
    }
  }
  if (best < 0) {
    return fail(
      names.length === 0
        ? { code: "NO_TAGS", message: "the repository has no tags", goError: false }
        : {
            code: "NO_CANDIDATES",
            message: "no tag passes the filters and the constraint",
            goError: false,
          },
      trace.finish(() => ({ verdict: "not-considered", reason: "nothing was picked" })),
      notes,
    );
  }
  const tag = names[best] as string;
  const digest = strategy === "digest" ? (list.metadata(tag).digest ?? zeroDigest) : undefined;
  return picked(
    tag,
    digest,
    trace.finish((name) =>
      name === tag
        ? { verdict: "selected", reason: `the ${strategy} pick` }
        : {
            verdict: "ranked",
            reason: `ranked below ${JSON.stringify(tag)} by the ${strategy} strategy`,
          },
    ),
    notes,
  );
}

const noConstraintNote = "no constraint: Argo CD uses `*`, which never admits a pre-release";

function picked(
  tag: string,
  digest: string | undefined,
  tags: readonly DialectTagExplanation[],
  notes: readonly string[],
): DialectSelection {
  return {
    dialect: "argocd-image-updater",
    tag,
    digest,
    discovered: [tag],
    outcome: undefined,
    tags,
    notes,
  };
}

function fail(
  outcome: DialectOutcome,
  tags: readonly DialectTagExplanation[],
  notes: readonly string[],
): DialectSelection {
  return {
    dialect: "argocd-image-updater",
    tag: undefined,
    digest: undefined,
    discovered: [],
    outcome,
    tags,
    notes,
  };
}
