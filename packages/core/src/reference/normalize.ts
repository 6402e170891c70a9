/**
 * Docker Hub rules: how a familiar name such as `ubuntu` becomes the
 * canonical `docker.io/library/ubuntu`, and back.
 *
 * Mirrors `normalize.go` and `helpers.go` of distribution/reference v0.6.0.
 *
 * @module
 */
import { composeNamed, type NamedReference, type Reference } from "./reference.js";

/**
 * Docker Hub's canonical domain. Mirrors `defaultDomain`.
 */
export const DEFAULT_DOMAIN = "docker.io";

/**
 * Docker Hub's legacy domain, rewritten to {@link DEFAULT_DOMAIN} when
 * normalizing. Mirrors `legacyDefaultDomain`.
 */
export const LEGACY_DEFAULT_DOMAIN = "index.docker.io";

/**
 * The namespace of Docker Hub's official images. Mirrors `officialRepoPrefix`.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * parseNormalizedNamed("nginx").path; // "library/nginx"
 * ```
 */
export const OFFICIAL_REPO_PREFIX = "library/";

/** True when the domain `s[0:slash]` is Docker Hub's, `docker.io` or the legacy `index.docker.io`. */
export function isHubDomain(s: string, slash: number): boolean {
  return (
    (slash === DEFAULT_DOMAIN.length && s.startsWith(DEFAULT_DOMAIN)) ||
    (slash === LEGACY_DEFAULT_DOMAIN.length && s.startsWith(LEGACY_DEFAULT_DOMAIN))
  );
}

/**
 * The tag a reference without tag or digest implies. Mirrors `defaultTag`.
 */
export const DEFAULT_TAG = "latest";

/**
 * Returns the familiar form of a name's domain and path: the domain goes when
 * it is exactly `docker.io`, and then `library/` goes too when one component
 * remains. Mirrors `familiarizeName`.
 */
function familiarPath(r: NamedReference): string {
  if (r.domain !== DEFAULT_DOMAIN) return r.name;
  const path = r.path;
  if (path.startsWith(OFFICIAL_REPO_PREFIX) && path.indexOf("/", OFFICIAL_REPO_PREFIX.length) < 0) {
    return path.slice(OFFICIAL_REPO_PREFIX.length);
  }
  return path;
}

/**
 * Returns the name as Docker's command line shows it (Go's `FamiliarName`):
 * `docker.io/` and then `library/` dropped.
 *
 * A domain spelled `index.docker.io` (possible only from {@link parse}, which
 * does not normalize) is kept, as upstream keeps it.
 *
 * @example
 * ```ts
 * import { familiarName, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * familiarName(parseNormalizedNamed("docker.io/library/redis")); // "redis"
 * familiarName(parseNormalizedNamed("docker.io/dmcgowan/myapp")); // "dmcgowan/myapp"
 * familiarName(parseNormalizedNamed("gcr.io/a/b"));             // "gcr.io/a/b"
 * ```
 */
export function familiarName(r: NamedReference): string {
  return familiarPath(r);
}

/**
 * Returns the reference as Docker's command line shows it (Go's
 * `FamiliarString`): the familiar name with the tag and digest kept. A
 * digest-only reference is returned as its digest.
 *
 * Upstream quirk, kept: `docker.io/<64 hex>` gives the bare hex string,
 * which itself does not parse back as a name.
 *
 * @example
 * ```ts
 * import { familiarString, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * familiarString(parseNormalizedNamed("nginx:1.25")); // "nginx:1.25"
 * ```
 */
export function familiarString(r: Reference): string {
  if (!("name" in r)) return r.string;
  if (r.domain !== DEFAULT_DOMAIN) return r.string;
  const name = familiarPath(r);
  return name + r.string.slice(r.name.length);
}

/**
 * Returns `r` with the tag `latest` added when it has neither a tag nor a
 * digest, and `r` itself otherwise. Mirrors `TagNameOnly`.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed, tagNameOnly } from "@kubeimg/core/reference";
 *
 * tagNameOnly(parseNormalizedNamed("nginx")).string; // "docker.io/library/nginx:latest"
 * ```
 */
export function tagNameOnly(r: NamedReference): NamedReference {
  if (r.tag !== undefined || r.digest !== undefined) return r;
  return composeNamed(r.domain, r.path, DEFAULT_TAG, undefined);
}
