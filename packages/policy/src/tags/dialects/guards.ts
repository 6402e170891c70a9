/**
 * The guards users keep asking the updaters for, opt-in and outside the
 * dialects (so each dialect stays exactly its upstream):
 *
 * - **no-downgrade** (Flux image-automation-controller #231, #396, flux2
 *   #4984): keep the current tag when the new pick sorts below it by the
 *   dialect's own order, or when the current tag is missing from a listing
 *   the caller says is partial;
 * - **minimum age** (argocd-image-updater #546): a cooldown — tags created
 *   less than `minAgeMs` before `now` are not candidates (a tag without a
 *   creation time counts as old);
 * - **tag@digest** (argocd-image-updater #465, #634; Flux
 *   image-automation-controller #960): select by version, pin by digest.
 *
 * "Sorts below" is decided by the dialect itself: it is asked to choose
 * between the current tag and the new pick alone.
 */

import { compareVersions } from "../../semver/index.js";
import { TagDialectError } from "../common/errors.js";
import { PreparedTagList } from "../common/prepared.js";
import { tryParseVersion } from "../common/semver.js";
import {
  byTagDescending,
  compareInstants,
  createdInstant,
  ZERO_INSTANT,
} from "../common/tag-list.js";
import type { DialectSelection, TagInfo } from "../common/types.js";

/** The guards to apply; each is off unless set. */
export interface SelectionGuards {
  /** The tag deployed now; needed by `noDowngrade`. */
  readonly current?: string;
  /** Keep `current` when the pick sorts below it. */
  readonly noDowngrade?: boolean;
  /** With `noDowngrade`: the listing may be incomplete, so a missing `current` is kept. */
  readonly partialListing?: boolean;
  /** Tags younger than this many milliseconds are not candidates. */
  readonly minAgeMs?: number;
  /** The time the age is measured at (required with `minAgeMs`; core reads no clock). */
  readonly now?: Date;
  /**
   * With `noDowngrade`: how two tags sort, positive when `a` is newer.
   * Default: the dialect itself chooses between the two tags alone, which
   * also applies its filters (a current tag outside the constraint then never
   * holds back the pick). {@link tagOrders} has each dialect's plain order.
   */
  readonly order?: (a: TagInfo, b: TagInfo) => number;
  /** Return `tag@digest` in `pinned` (from the tag's metadata). */
  readonly pinDigest?: boolean;
}

/** A selection after the guards. */
export interface GuardedSelection {
  /** The dialect's own selection over the tags the age guard left. */
  readonly selection: DialectSelection;
  /** The tag to deploy: the pick, or `current` when a guard kept it. */
  readonly tag: string | undefined;
  /** `tag@digest` when `pinDigest` is set and the tag's digest is known. */
  readonly pinned: string | undefined;
  /** What each guard did, in order. */
  readonly notes: readonly string[];
}

/**
 * Runs `select` (one dialect over a tag list) under `guards`. `tags` may be
 * a prepared list ({@link PreparedTagList}); `select` is then handed its
 * entries as plain objects (the age guard chooses among them), which answer
 * as the prepared list does.
 *
 * @example
 * ```ts
 * import { guardSelection } from "@kubeimg/policy/tags/dialects";
 * import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
 *
 * const sub = { repoURL: "ghcr.io/acme/app" };
 * // The first page of the registry's listing; v2.0.0, deployed now, is on a later page.
 * const tags = [{ name: "v1.8.0" }, { name: "v1.9.0" }];
 * const g = guardSelection((t) => selectKargoTag(sub, t), tags, {
 *   current: "v2.0.0",
 *   noDowngrade: true,
 *   partialListing: true,
 * });
 * g.selection.tag; // "v1.9.0": the dialect's pick
 * g.tag; // "v2.0.0": kept
 * ```
 */
export function guardSelection(
  select: (tags: readonly TagInfo[]) => DialectSelection,
  tags: readonly TagInfo[] | PreparedTagList,
  guards: SelectionGuards,
): GuardedSelection {
  const entries = PreparedTagList.isPrepared(tags) ? tags.toArray() : tags;
  const notes: string[] = [];
  let candidates = entries;
  if (guards.minAgeMs !== undefined) {
    if (!(guards.now instanceof Date) || Number.isNaN(guards.now.getTime())) {
      throw new TagDialectError(
        "guards.now",
        guards.now,
        "must be a valid Date when guards.minAgeMs is set",
      );
    }
    if (!(guards.minAgeMs >= 0) || !Number.isFinite(guards.minAgeMs)) {
      throw new TagDialectError("guards.minAgeMs", guards.minAgeMs, "must be a finite number >= 0");
    }
    const cutoff = { ms: guards.now.getTime() - guards.minAgeMs, subMsNanos: 0 };
    const young = entries.filter(
      (t) => compareInstants(createdInstant(t.created) ?? ZERO_INSTANT, cutoff) > 0,
    );
    if (young.length > 0) {
      const names = new Set(young.map((t) => t.name));
      candidates = entries.filter((t) => !names.has(t.name));
      notes.push(
        `min age: ${[...names].map((n) => JSON.stringify(n)).join(", ")} too new, not candidates`,
      );
    }
  }
  const selection = select(candidates);
  let tag = selection.tag;
  if (guards.noDowngrade && guards.current !== undefined) {
    const current = guards.current;
    const listed = entries.find((t) => t.name === current);
    if (listed === undefined) {
      if (guards.partialListing) {
        tag = current;
        notes.push(`no-downgrade: ${JSON.stringify(current)} is not in this partial listing; kept`);
      }
    } else if (tag !== undefined && tag !== current) {
      const pick = candidates.find((t) => t.name === tag) as TagInfo;
      const below =
        guards.order !== undefined
          ? guards.order(pick, listed) < 0
          : select([listed, pick]).tag === current;
      if (below) {
        notes.push(
          `no-downgrade: ${JSON.stringify(tag)} sorts below ${JSON.stringify(current)}; kept the current tag`,
        );
        tag = current;
      }
    } else if (tag === undefined) {
      tag = current;
      notes.push(`no-downgrade: nothing picked; kept ${JSON.stringify(current)}`);
    }
  }
  let pinned: string | undefined;
  if (guards.pinDigest && tag !== undefined) {
    const digest =
      tag === selection.tag && selection.digest !== undefined
        ? selection.digest
        : [...entries].reverse().find((t) => t.name === tag)?.digest;
    if (digest === undefined) notes.push(`tag@digest: ${JSON.stringify(tag)} has no known digest`);
    else pinned = `${tag}@${digest}`;
  }
  return { selection, tag, pinned, notes };
}

/** Each strategy's plain order (positive when `a` sorts above `b`), for `SelectionGuards.order`. */
export const tagOrders = {
  /** Masterminds versions; a tag that is not one sorts below every version, ties on the tag. */
  semver(a: TagInfo, b: TagInfo): number {
    const va = tryParseVersion(a.name);
    const vb = tryParseVersion(b.name);
    if (va === undefined || vb === undefined)
      return va !== undefined ? 1 : vb !== undefined ? -1 : 0;
    return compareVersions(va, vb) || -byTagDescending(a.name, b.name);
  },
  /** Go byte order of the tags. */
  lexical(a: TagInfo, b: TagInfo): number {
    return -byTagDescending(a.name, b.name);
  },
  /** Creation time, ties on the tag. */
  newestBuild(a: TagInfo, b: TagInfo): number {
    const ta = createdInstant(a.created) ?? ZERO_INSTANT;
    const tb = createdInstant(b.created) ?? ZERO_INSTANT;
    return compareInstants(ta, tb) || -byTagDescending(a.name, b.name);
  },
} as const;
