/**
 * Cleaning a tag list the way tag policies need it: registries return
 * `null` lists (distribution after every manifest was deleted), `null`
 * entries (Nexus), digest-looking "tags" (Artifactory) and cosign artefacts
 * (`*.sig`, which Flux excludes by default); order is never guaranteed.
 */
import { checkArgument } from "../errors/registry-error.js";

/** A valid tag, per the distribution grammar. */
const tagPattern = /^[\w][\w.-]{0,127}$/;

/** Options of {@link cleanTags}. */
export interface CleanTagsOptions {
  /**
   * Returns true for tags to drop. Default: tags ending in `.sig`, as
   * Flux's `exclusionList` default `^.*\.sig$`.
   */
  readonly exclude?: (tag: string) => boolean;
  /** Sort by code point (default true); false keeps the registry's order, first occurrence wins. */
  readonly sort?: boolean;
}

/**
 * Flux's default exclusion (`^.*\.sig$`): cosign signature tags.
 */
export const excludeSignatureTags = (tag: string): boolean =>
  typeof tag === "string" && tag.endsWith(".sig");

/**
 * Returns the distinct valid tags of `tags`, sorted by code point (unless
 * `sort: false`), without `null`s, digest-shaped or otherwise invalid
 * entries, and excluded tags.
 */
export function cleanTags(
  tags: readonly (string | null)[],
  options: CleanTagsOptions = {},
): string[] {
  checkArgument(Array.isArray(tags), "cleanTags", tags, "the tags must be a list");
  checkArgument(
    typeof options === "object" && options !== null,
    "cleanTags",
    options,
    "the options must be an object",
  );
  checkArgument(
    options.exclude === undefined || typeof options.exclude === "function",
    "cleanTags",
    options.exclude,
    "exclude must be a function",
  );
  const exclude = options.exclude ?? excludeSignatureTags;
  const kept = new Set<string>();
  for (const tag of tags) {
    if (typeof tag !== "string" || !tagPattern.test(tag) || exclude(tag)) continue;
    kept.add(tag);
  }
  const out = [...kept];
  return options.sort === false ? out : out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
