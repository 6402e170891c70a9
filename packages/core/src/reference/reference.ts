/**
 * The shapes a parsed reference takes, and the guards that tell them apart.
 * Every reference is a plain object whose `string` is what Go's `String()`
 * returns; `toString()` returns the same. Its fields are `readonly` to
 * TypeScript and every kubeimg function returns a new object rather than
 * changing one, but the objects are not frozen at run time: `Object.freeze`
 * is a call into the engine that costs about 35 ns, more than a quarter of
 * a whole `parseNormalizedNamed` (about 120 ns), on the path admission
 * webhooks run for every container.
 *
 * @module
 */

/** A digest as text, `algorithm:hex` (for example `sha256:<64 hex>`). */
export type DigestString = string;

/**
 * The brand of a {@link NamedReference}: a type-only key (nothing holds it at
 * run time) that no object literal can name, so a value of the type comes
 * from this module's parsers and composers, which have checked it.
 */
declare const parsedByCore: unique symbol;

/**
 * A reference with a repository name: `[domain/]path[:tag][@digest]`.
 * Mirrors the `Named` family of distribution/reference (`repository`,
 * `taggedReference`, `canonicalReference`, `reference`) as one shape.
 *
 * Branded: only the parsers (`parseNormalizedNamed`, …) and the composers
 * (`withTag`, …) return one, so a function that takes a `NamedReference`
 * may trust it without reading it again. Code that has a string parses it
 * once, at its edge, and passes the result on.
 */
export interface NamedReference {
  /** Type-only: marks a value core has parsed or composed. */
  readonly [parsedByCore]: true;
  /** The registry host and port, e.g. `docker.io`; `""` only from {@link parse}. */
  readonly domain: string;
  /** The repository path without the domain, e.g. `library/nginx`. */
  readonly path: string;
  /** `domain + "/" + path`, or `path` alone when the domain is `""` (Go's `Name()`). */
  readonly name: string;
  /** The tag, or `undefined`. */
  readonly tag: string | undefined;
  /** The digest `algorithm:hex`, or `undefined`. */
  readonly digest: DigestString | undefined;
  /** `name[:tag][@digest]`, Go's `String()`. */
  readonly string: string;
  /** Same as `.string`. */
  toString(): string;
}

/** A reference that is only a digest (from {@link parseAnyReference}). Mirrors `digestReference`. */
export interface DigestReference {
  /** The digest `algorithm:hex`. */
  readonly digest: DigestString;
  /** The digest again (Go's `String()`). */
  readonly string: string;
  /** Same as `.string`. */
  toString(): string;
}

/** Any parsed reference: named, or digest-only. */
export type Reference = NamedReference | DigestReference;

function referenceToString(this: { readonly string: string }): string {
  return this.string;
}

/**
 * Builds a named reference from parts already validated. `name` and
 * `string` are passed in because callers usually have them as slices of
 * the input already, which saves concatenations.
 */
export function namedReference(
  domain: string,
  path: string,
  name: string,
  tag: string | undefined,
  digest: string | undefined,
  string: string,
): NamedReference {
  return {
    domain,
    path,
    name,
    tag,
    digest,
    string,
    toString: referenceToString,
  } as unknown as NamedReference;
}

/** Builds a named reference from its parts, computing `name` and `string`. */
export function composeNamed(
  domain: string,
  path: string,
  tag: string | undefined,
  digest: string | undefined,
): NamedReference {
  const name = domain === "" ? path : `${domain}/${path}`;
  let string = name;
  if (tag !== undefined) string += `:${tag}`;
  if (digest !== undefined) string += `@${digest}`;
  return namedReference(domain, path, name, tag, digest, string);
}

/** Builds a digest-only reference from a validated digest. */
export function digestReference(digest: string): DigestReference {
  return { digest, string: digest, toString: referenceToString };
}

/**
 * Returns true when `value` is a named reference built by this copy of
 * `@kubeimg/core/reference` (a parser or a composer), which a callee may use
 * without parsing it again; false for any other value, including a
 * look-alike object and a reference from another copy of the package
 * (an ESM and a CJS build side by side), which a callee then checks as it
 * would any object it was given. A reference copied with spread syntax
 * keeps the mark: change one with `withTag`, `withDigest` or `trimNamed`.
 *
 * @example
 * ```ts
 * import { isNamedReference, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * isNamedReference(parseNormalizedNamed("nginx"));                  // true
 * isNamedReference({ domain: "docker.io", path: "library/nginx" }); // false
 * ```
 */
export function isNamedReference(value: unknown): value is NamedReference {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { toString?: unknown }).toString === referenceToString &&
    typeof (value as { name?: unknown }).name === "string"
  );
}

/**
 * Returns true when `r` has a repository name (Go's `Named`).
 *
 * @example
 * ```ts
 * import { isNamed, parseAnyReference } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * isNamed(parseAnyReference("nginx"));           // true
 * isNamed(parseAnyReference("sha256:" + hex64)); // false: digest only
 * ```
 */
export function isNamed(r: Reference): r is NamedReference {
  return typeof (r as Partial<NamedReference>).name === "string";
}

/**
 * Returns true when `r` carries a tag (Go's `Tagged`).
 *
 * @example
 * ```ts
 * import { isTagged, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * isTagged(parseNormalizedNamed("nginx:1.25")); // true
 * isTagged(parseNormalizedNamed("nginx"));      // false: no implicit tag here
 * ```
 */
export function isTagged(r: Reference): r is NamedReference & { readonly tag: string } {
  return typeof (r as Partial<NamedReference>).tag === "string";
}

/**
 * Returns true when `r` carries a digest (Go's `Digested`), digest-only
 * references included.
 *
 * @example
 * ```ts
 * import { isDigested, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * isDigested(parseNormalizedNamed("nginx@sha256:" + hex64)); // true
 * ```
 */
export function isDigested(r: Reference): r is Reference & { readonly digest: DigestString } {
  return typeof r.digest === "string";
}

/**
 * Returns true when `r` has both a name and a digest (Go's `Canonical`).
 *
 * @example
 * ```ts
 * import { isCanonical, parseAnyReference, parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * isCanonical(parseNormalizedNamed("nginx@sha256:" + hex64)); // true
 * isCanonical(parseAnyReference("sha256:" + hex64));          // false: no name
 * ```
 */
export function isCanonical(r: Reference): r is NamedReference & { readonly digest: DigestString } {
  return isNamed(r) && typeof r.digest === "string";
}

/**
 * Returns the domain of a named reference (Go's `Domain()`): the registry
 * host and port, `""` only for results of {@link parse} without one.
 */
export function domain(r: NamedReference): string {
  return r.domain;
}

/**
 * Returns the path of a named reference (Go's `Path()`): the name without
 * its domain.
 */
export function path(r: NamedReference): string {
  return r.path;
}
