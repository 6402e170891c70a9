/**
 * `preloadedImagesVerificationAllowlist` patterns: validation exactly as the
 * kubelet's `getAllowlistImagePattern` (pkg/kubelet/images/pullmanager,
 * v1.35), and matching in the v1.35 form (raw pod image string) or the v1.36
 * form (normalized name, kubernetes/kubernetes#137629).
 */

import { chooseRelease } from "@kubeimg/core";
import { strings } from "@kubeimg/core/internal";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { PullCredentialsConfigError } from "./errors.js";
import { kubeletReleases } from "./releases.js";

/**
 * The allowlist's field name in the KubeletConfiguration.
 */
export const allowlistField = "preloadedImagesVerificationAllowlist";

/**
 * A validated allowlist pattern: `absolute` matches one repository exactly,
 * `prefix` (a pattern ending in `/*`) matches every image string starting
 * with `value` (the pattern without its `*`, keeping the `/`).
 */
export interface AllowlistPattern {
  readonly pattern: string;
  readonly kind: "absolute" | "prefix";
  readonly value: string;
}

/**
 * Validates one pattern as the kubelet does and returns its parsed form.
 * Throws {@link PullCredentialsConfigError} with code `INVALID_ALLOWLIST`, the
 * kubelet's message, and the pattern as `value`.
 *
 * Rules, in order: no leading/trailing whitespace (Go `strings.TrimSpace`); a
 * trailing `/*` makes a wildcard and loses its `*`; the rest must be non-empty
 * and hold no other `*`; a wildcard needs more than the `/`; an absolute
 * pattern must parse as a Docker reference and equal its normalized name (so
 * no tag, no digest, no familiar short form).
 */
export function parseAllowlistPattern(pattern: string, index?: number): AllowlistPattern {
  const invalid = (message: string, cause?: unknown): never => {
    throw new PullCredentialsConfigError("INVALID_ALLOWLIST", message, {
      field: allowlistField,
      value: pattern,
      ...(index === undefined ? {} : { index }),
      ...(cause === undefined ? {} : { cause }),
    });
  };
  if (typeof pattern !== "string") return invalid(`pattern is not a string: ${String(pattern)}`);
  if (strings.TrimSpace(pattern) !== pattern) {
    return invalid(`leading/trailing spaces are not allowed: ${pattern}`);
  }
  const isWildcard = pattern.endsWith("/*");
  const trimmed = isWildcard ? pattern.slice(0, -1) : pattern;
  if (trimmed.length === 0) return invalid(`the supplied pattern is too short: ${pattern}`);
  if (trimmed.includes("*")) {
    return invalid(
      `not a valid wildcard pattern, only patterns ending with '/*' are allowed: ${pattern}`,
    );
  }
  if (isWildcard) {
    if (trimmed.length === 1) return invalid("at least registry hostname is required");
    return Object.freeze({ pattern, kind: "prefix", value: trimmed });
  }
  let name: string;
  try {
    name = parseNormalizedNamed(trimmed).name;
  } catch (error) {
    return invalid(`failed to parse as an image name: ${(error as Error).message}`, error);
  }
  if (name !== trimmed) {
    return invalid(`neither tag nor digest is accepted in an image reference: ${pattern}`);
  }
  return Object.freeze({ pattern, kind: "absolute", value: trimmed });
}

/**
 * Validates every pattern (the kubelet's `ValidateAllowlistImagesPatterns`);
 * throws on the first invalid one, naming it and its index.
 */
export function validateAllowlistPatterns(patterns: readonly string[]): void {
  patterns.forEach((p, i) => {
    parseAllowlistPattern(p, i);
  });
}

/**
 * How an image is compared with the allowlist: `"v1.35"` compares the raw pod
 * image string (what v1.35 ships: `nginx:1.25` never matches
 * `docker.io/library/nginx`); `"v1.36"` compares the image's normalized name
 * without tag or digest (kubernetes/kubernetes#137629), and an unparsable
 * image never matches.
 *
 * @example
 * ```ts
 * import { createVerificationPolicy } from "@kubeimg/policy/pull-credentials";
 *
 * const allowlist = ["docker.io/library/nginx"];
 * for (const allowlistMatching of ["v1.35", "v1.36"] as const) {
 *   const p = createVerificationPolicy({
 *     policy: "NeverVerifyAllowlistedImages",
 *     allowlist,
 *     allowlistMatching,
 *   });
 *   console.log(allowlistMatching, p.requiresVerification("nginx:1.25", false));
 * }
 * // v1.35 true   ("nginx:1.25" is not the string "docker.io/library/nginx")
 * // v1.36 false  (its normalized name is)
 * ```
 *
 * @inline
 */
export type AllowlistMatching = "v1.35" | "v1.36";

export { type KubeletRelease, kubeletReleases } from "./releases.js";

/**
 * Returns the allowlist matching of a kubelet release (the newest when
 * `undefined`); throws `UNKNOWN_RELEASE` for a release kubeimg does not reproduce.
 */
export function allowlistMatchingOf(kubelet: unknown): AllowlistMatching {
  return chooseRelease("kubelet", kubelet, kubeletReleases, "1.37") === "1.35" ? "v1.35" : "v1.36";
}

/**
 * A compiled allowlist.
 */
export interface Allowlist {
  readonly patterns: readonly AllowlistPattern[];
  matches(image: string): boolean;
}

/**
 * Validates and compiles allowlist patterns for matching.
 */
export function compileAllowlist(
  patterns: readonly string[],
  options: { matching?: AllowlistMatching } = {},
): Allowlist {
  const parsed = patterns.map((p, i) => parseAllowlistPattern(p, i));
  const absolute = new Set(parsed.filter((p) => p.kind === "absolute").map((p) => p.value));
  const prefixes = parsed.filter((p) => p.kind === "prefix").map((p) => p.value);
  const matchName = (name: string) =>
    absolute.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
  const matching = options.matching ?? "v1.35";
  return Object.freeze({
    patterns: Object.freeze(parsed),
    matches:
      matching === "v1.35"
        ? matchName
        : (image: string) => {
            let name: string;
            try {
              name = parseNormalizedNamed(image).name;
            } catch {
              return false;
            }
            return matchName(name);
          },
  });
}
