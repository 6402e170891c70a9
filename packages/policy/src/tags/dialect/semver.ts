/**
 * The two Masterminds readings the updaters apply to a tag, without throwing:
 * `NewVersion` (lenient: `v`, `1`, `1.2`, leading zeros) and
 * `StrictNewVersion`.
 */
import {
  isSemverError,
  parseStrictVersion,
  parseVersion,
  type Version,
} from "../../semver/index.js";

/** Masterminds `NewVersion`, or undefined when it refuses `tag`. */
export function tryParseVersion(tag: string): Version | undefined {
  try {
    return parseVersion(tag);
  } catch (error) {
    if (isSemverError(error)) return undefined;
    throw error;
  }
}

/** Masterminds `StrictNewVersion`, or undefined when it refuses `tag`. */
export function tryParseStrictVersion(tag: string): Version | undefined {
  try {
    return parseStrictVersion(tag);
  } catch (error) {
    if (isSemverError(error)) return undefined;
    throw error;
  }
}
