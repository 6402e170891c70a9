/**
 * The two Masterminds readings the updaters apply to a tag, without throwing:
 * `NewVersion` (lenient: `v`, `1`, `1.2`, leading zeros; semver's own
 * `tryParseVersion`) and `StrictNewVersion`.
 */
import { isSemverError, parseStrictVersion, type Version } from "../../semver/index.js";

export { tryParseVersion } from "../../semver/index.js";

/** Masterminds `StrictNewVersion`, or undefined when it refuses `tag`. */
export function tryParseStrictVersion(tag: string): Version | undefined {
  try {
    return parseStrictVersion(tag);
  } catch (error) {
    if (isSemverError(error)) return undefined;
    throw error;
  }
}
