/**
 * Argo CD Image Updater v1.3.0's tag selection (`registry-scanner`:
 * `GetTags` filters, `GetNewestVersionFromTags` picks), with a reason for
 * every tag.
 *
 * 1. `digest` without a constraint stops at once (`DIGEST_NEEDS_CONSTRAINT`).
 * 2. Filter, in list order: not allowed (`allow-tags`), ignored (`ignore-tags`
 *    globs), or (`digest`) not the constraint tag.
 * 3. `newest-build` and `digest` only: metadata is fetched, and a tag whose
 *    index offers no wanted platform is dropped (a single manifest is kept).
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
import { path as goPath } from "@kubeimg/core/internal";
import { compileRegexp, type GoRegexp } from "@kubeimg/core/regexp";
import { compareVersions, parseConstraints, type Version } from "../../semver/index.js";
import { tryParseVersion } from "../dialect/semver.js";
import {
  byTagDescending,
  compareInstants,
  readTagList,
  type SplitPlatform,
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
import { type ArgoConfig, type ArgoUpdateSettings, readArgoConfig } from "./config.js";
import { argoVersionConstraint } from "./constraint.js";

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
}

const zeroDigest = `sha256:${"0".repeat(64)}`;

/** Returns the strategy Argo CD runs for the text a user wrote (anything unknown is `semver`). */
export function argoStrategy(text: string | undefined): ArgoStrategy {
  switch ((text ?? "").toLowerCase()) {
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
  readonly describe: string;
  /** A quirk that decided, for the notes. */
  readonly quirk: string | undefined;
}

function allowRule(allowTags: string | undefined): AllowRule {
  const text = allowTags ?? "";
  if (text === "" || text.toLowerCase() === "any") {
    return { allows: () => true, describe: "every tag is allowed", quirk: undefined };
  }
  const colon = text.indexOf(":");
  const fn = colon < 0 ? "" : text.slice(0, colon).toLowerCase();
  if (colon < 0 || fn !== "regexp") {
    const why =
      colon < 0
        ? `allow-tags ${JSON.stringify(text)} has no \`regexp:\` prefix: Argo CD allows no tag`
        : `allow-tags function ${JSON.stringify(text.slice(0, colon))} is not \`regexp\`: Argo CD allows no tag`;
    return { allows: () => false, describe: why, quirk: why };
  }
  const pattern = text.slice(colon + 1);
  let re: GoRegexp;
  try {
    re = compileRegexp(pattern);
  } catch (error) {
    const why = `allow-tags regexp ${JSON.stringify(pattern)} does not compile (${(error as Error).message}): Argo CD allows no tag`;
    return { allows: () => false, describe: why, quirk: why };
  }
  return {
    allows: (tag) => re.matchString(tag),
    describe: `does not match allow-tags regexp ${JSON.stringify(pattern)}`,
    quirk: undefined,
  };
}

/** The ignore pattern that matches `tag` whole (Go `filepath.Match`; a malformed one matches nothing). */
function ignoredBy(patterns: readonly string[], tag: string): string | undefined {
  for (const p of patterns) if (goPath.Match(p, tag) === true) return p;
  return undefined;
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
 * the `ImageUpdater` resource form or an Application's annotations), with a
 * verdict for every tag. Never throws for what the updater decides (a bad
 * constraint, no candidates): that is `outcome`. Throws a `TagDialectError`
 * for input of the wrong shape.
 *
 * @example
 * ```ts
 * const s = selectArgoTag(
 *   { annotations: { "argocd-image-updater.argoproj.io/image-list": "web=nginx:~1.26" } },
 *   [{ name: "1.26.1" }, { name: "1.27.0" }, { name: "1.26.3-alpine" }],
 * );
 * s.tag; // "1.26.1"
 * ```
 */
export function selectArgoTag(
  config: ArgoConfig,
  tags: readonly TagInfo[],
  options: ArgoSelectOptions = {},
): DialectSelection {
  const list = readTagList(tags);
  const read = readArgoConfig(config);
  const notes: string[] = [];
  if ("message" in read) {
    return fail({ code: "INVALID_CONFIG", message: read.message, goError: true }, [], notes);
  }
  const settings: ArgoUpdateSettings = read.settings;
  const strategy = argoStrategy(settings.updateStrategy);
  const constraint = argoVersionConstraint(read.image);
  notes.push(
    `strategy ${strategy}${settings.updateStrategy !== undefined && settings.updateStrategy.toLowerCase() !== strategy ? ` (from ${JSON.stringify(settings.updateStrategy)})` : ""}; version constraint ${constraint === "" ? "none" : JSON.stringify(constraint)}`,
  );
  notes.push(...read.notes);
  const identifier = read.alias === "" ? read.image : `${read.alias}=${read.image}`;
  if (strategy === "digest" && constraint === "") {
    return fail(
      {
        code: "DIGEST_NEEDS_CONSTRAINT",
        message: `cannot use update strategy 'digest' for image '${identifier}' without a version constraint`,
        goError: true,
      },
      list.names.map((tag) =>
        verdict(tag, "not-considered", "the digest strategy needs a version constraint"),
      ),
      notes,
    );
  }

  const allow = allowRule(settings.allowTags);
  if (allow.quirk !== undefined) notes.push(allow.quirk);
  const ignore = settings.ignoreTags ?? [];
  const usesMetadata = strategy === "newest-build" || strategy === "digest";
  const platformTexts =
    settings.platforms !== undefined && settings.platforms.length > 0
      ? settings.platforms
      : [options.defaultPlatform ?? "linux/amd64"];
  const wanted = platformTexts.map((p) => splitPlatform(p.trim()));
  if (!usesMetadata && settings.platforms !== undefined && settings.platforms.length > 0) {
    notes.push(
      `platforms are ignored by the ${strategy} strategy: Argo CD fetches no metadata for it`,
    );
  }

  const explanations: (DialectTagExplanation | undefined)[] = new Array(list.names.length);
  const candidates: number[] = [];
  for (let i = 0; i < list.names.length; i++) {
    const tag = list.names[i] as string;
    if (!allow.allows(tag)) {
      explanations[i] = verdict(tag, "not-allowed", allow.describe);
      continue;
    }
    const pattern = ignoredBy(ignore, tag);
    if (pattern !== undefined) {
      explanations[i] = verdict(
        tag,
        "ignored",
        `matches ignore-tags glob ${JSON.stringify(pattern)}`,
      );
      continue;
    }
    if (strategy === "digest" && tag !== constraint) {
      explanations[i] = verdict(
        tag,
        "not-the-constraint",
        `the digest strategy follows tag ${JSON.stringify(constraint)} only`,
      );
      continue;
    }
    if (usesMetadata) {
      const meta = list.metadata.get(tag) as TagMetadata;
      if (meta.platforms !== undefined && !meta.platforms.some((p) => platformWanted(p, wanted))) {
        explanations[i] = verdict(
          tag,
          "wrong-platform",
          `its index offers ${meta.platforms.join(", ")}, none of ${platformTexts.join(", ")}`,
        );
        continue;
      }
    }
    candidates.push(i);
  }

  const noneLeft = (): DialectSelection =>
    fail(
      list.names.length === 0
        ? { code: "NO_TAGS", message: "the repository has no tags", goError: false }
        : {
            code: "NO_CANDIDATES",
            message: "no tag passes the filters and the constraint",
            goError: false,
          },
      fill(explanations, list.names),
      notes,
    );

  let best: number | undefined;
  switch (strategy) {
    case "semver": {
      const versions = new Map<number, Version>();
      for (const i of candidates) {
        const tag = list.names[i] as string;
        const v = tryParseVersion(tag);
        if (v === undefined)
          explanations[i] = verdict(
            tag,
            "not-a-version",
            "not a version to Masterminds NewVersion",
          );
        else versions.set(i, v);
      }
      if (versions.size === 0) return noneLeft();
      let parsed: ReturnType<typeof parseConstraints>;
      try {
        parsed = parseConstraints(constraint === "" ? "*" : constraint);
      } catch (error) {
        for (const i of versions.keys()) {
          explanations[i] = verdict(
            list.names[i] as string,
            "not-considered",
            "the constraint does not parse",
          );
        }
        return fail(
          { code: "INVALID_CONSTRAINT", message: (error as Error).message, goError: true },
          fill(explanations, list.names),
          notes,
        );
      }
      if (constraint === "")
        notes.push("no constraint: Argo CD uses `*`, which never admits a pre-release");
      let bestVersion: Version | undefined;
      for (const [i, v] of versions) {
        const tag = list.names[i] as string;
        if (!parsed.check(v)) {
          explanations[i] = verdict(
            tag,
            "out-of-range",
            `${v.toString()} is outside ${JSON.stringify(parsed.source)}`,
          );
          continue;
        }
        if (
          best === undefined ||
          bestVersion === undefined ||
          compareVersions(v, bestVersion) > 0 ||
          (compareVersions(v, bestVersion) === 0 &&
            byTagDescending(tag, list.names[best] as string) < 0)
        ) {
          best = i;
          bestVersion = v;
        }
      }
      break;
    }
    case "alphabetical":
      for (const i of candidates) {
        if (
          best === undefined ||
          byTagDescending(list.names[i] as string, list.names[best] as string) < 0
        )
          best = i;
      }
      break;
    case "newest-build":
    case "digest":
      for (const i of candidates) {
        if (best === undefined) {
          best = i;
          continue;
        }
        const a = list.metadata.get(list.names[i] as string) as TagMetadata;
        const b = list.metadata.get(list.names[best] as string) as TagMetadata;
        const byTime = compareInstants(a.created, b.created);
        if (
          byTime > 0 ||
          (byTime === 0 && byTagDescending(list.names[i] as string, list.names[best] as string) < 0)
        ) {
          best = i;
        }
      }
      break;
  }
  if (best === undefined) return noneLeft();
  const tag = list.names[best] as string;
  for (let i = 0; i < list.names.length; i++) {
    if (explanations[i] !== undefined) continue;
    const name = list.names[i] as string;
    explanations[i] =
      name === tag
        ? verdict(name, "selected", `the ${strategy} pick`)
        : verdict(
            name,
            "ranked",
            `ranked below ${JSON.stringify(tag)} by the ${strategy} strategy`,
          );
  }
  const digest =
    strategy === "digest"
      ? ((list.metadata.get(tag) as TagMetadata).digest ?? zeroDigest)
      : undefined;
  return {
    dialect: "argocd-image-updater",
    tag,
    digest,
    discovered: [tag],
    outcome: undefined,
    tags: explanations as DialectTagExplanation[],
    notes,
  };
}

function verdict(tag: string, v: DialectVerdict, reason: string): DialectTagExplanation {
  return { tag, verdict: v, reason };
}

function fill(
  explanations: readonly (DialectTagExplanation | undefined)[],
  names: readonly string[],
): DialectTagExplanation[] {
  return names.map(
    (tag, i) => explanations[i] ?? verdict(tag, "not-considered", "nothing was picked"),
  );
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
