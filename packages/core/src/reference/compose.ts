/**
 * Building references from others: `WithTag`, `WithDigest`, `TrimNamed`
 * of distribution/reference v0.6.0.
 *
 * @module
 */
import { checkDigest } from "../digest/validate.js";
import { ImageReferenceError } from "./errors.js";
import { DIGEST_NO_MATCH, scanDigest, scanTag } from "./grammar.js";
import { composeNamed, type NamedReference } from "./reference.js";

/**
 * Returns `r` with its tag set to `tag`, keeping its digest (Go's `WithTag`).
 * Throws `TAG_INVALID_FORMAT` unless `tag` matches `[\w][\w.-]{0,127}`.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed, withTag } from "@kubeimg/core/reference";
 *
 * withTag(parseNormalizedNamed("nginx"), "1.25").string; // "docker.io/library/nginx:1.25"
 * withTag(parseNormalizedNamed("nginx"), "-bad");        // throws, code "TAG_INVALID_FORMAT"
 * ```
 */
export function withTag(r: NamedReference, tag: string): NamedReference {
  if (scanTag(tag, 0, tag.length) !== tag.length) {
    throw new ImageReferenceError("TAG_INVALID_FORMAT", tag);
  }
  return composeNamed(r.domain, r.path, tag, r.digest);
}

/**
 * Returns `r` with its digest set to `digest`, keeping its tag (Go's
 * `WithDigest`). Throws `REFERENCE_DIGEST_INVALID_FORMAT` unless `digest` has
 * the reference grammar's digest shape.
 *
 * Deliberate difference: Go takes a `digest.Digest`, which its callers have
 * validated already; we take a string, so we also apply go-digest's checks
 * (`DIGEST_UNSUPPORTED`, `DIGEST_INVALID_LENGTH`, `DIGEST_INVALID_FORMAT`),
 * and every reference we return parses back.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed, withDigest } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * withDigest(parseNormalizedNamed("nginx:1.25"), "sha256:" + hex64).string;
 * // "docker.io/library/nginx:1.25@sha256:…"
 * ```
 */
export function withDigest(r: NamedReference, digest: string): NamedReference {
  if (scanDigest(digest, 0, digest.length) === DIGEST_NO_MATCH) {
    throw new ImageReferenceError("REFERENCE_DIGEST_INVALID_FORMAT", digest);
  }
  const code = checkDigest(digest);
  if (code !== undefined) throw new ImageReferenceError(code, digest);
  return composeNamed(r.domain, r.path, r.tag, digest);
}

/**
 * Returns the name of `r` alone, without tag or digest (Go's `TrimNamed`).
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed, trimNamed } from "@kubeimg/core/reference";
 *
 * trimNamed(parseNormalizedNamed("nginx:1.25")).string; // "docker.io/library/nginx"
 * ```
 */
export function trimNamed(r: NamedReference): NamedReference {
  if (r.tag === undefined && r.digest === undefined) return r;
  return composeNamed(r.domain, r.path, undefined, undefined);
}
