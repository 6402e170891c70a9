/**
 * The Masterminds/semver v3 releases whose behaviour kubeimg reproduces, and
 * what separates them. v3.5.0 (Masterminds/semver#278 and the input limits
 * released with it) quotes the constraint text and both sides of every
 * `Validate` reason with Go's `%q` where v3.4.0 printed them bare, and
 * refuses long input: a version over 256 bytes (`NewVersion`,
 * `StrictNewVersion`), a constraint over 512 bytes or with more than 32 `||`
 * groups. Parsing and matching rules are otherwise the same.
 *
 * Each tool pins one: Flux image-reflector-controller v1.2.0 builds with
 * v3.5.0, Argo CD Image Updater v1.3.0 and Kargo v1.11.2 with v3.4.0.
 *
 * @module
 */
import { chooseRelease } from "@kubeimg/core";

/**
 * A Masterminds/semver v3 release kubeimg reproduces.
 *
 * @example
 * ```ts
 * import { parseConstraints } from "@kubeimg/policy/semver";
 *
 * parseConstraints(">= 1, latest", { semver: "v3.4.0" }); // throws "improper constraint: >= 1, latest"
 * ```
 */
export type SemverRelease = "v3.4.0" | "v3.5.0";

/** Every {@link SemverRelease}, oldest first; the last is the default (frozen: shared). */
export const semverReleases: readonly SemverRelease[] = Object.freeze(["v3.4.0", "v3.5.0"]);

/** The release asked for, v3.5.0 when none; throws `UNKNOWN_RELEASE` for another. */
export function semverRelease(value: unknown): SemverRelease {
  return chooseRelease("semver", value, semverReleases, "v3.5.0");
}

/** v3.5.0's `MaxVersionLen`, in bytes. */
export const maxVersionBytes = 256;
/** v3.5.0's `MaxConstraintLen`, in bytes. */
export const maxConstraintBytes = 512;
/** v3.5.0's `MaxConstraintGroups`. */
export const maxConstraintGroups = 32;

/** Whether the UTF-8 length of `s` (Go's `len`) exceeds `max`; a lone surrogate counts as Go's 3-byte replacement. */
export function exceedsBytes(s: string, max: number): boolean {
  if (s.length > max) return true;
  if (s.length * 3 <= max) return false;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}
