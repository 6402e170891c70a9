/**
 * The five parsing operations of distribution/reference v0.6.0: `Parse`,
 * `ParseNamed`, `ParseNormalizedNamed`, `ParseAnyReference` and
 * `ParseDockerRef`, with the upstream order of checks and error texts.
 *
 * @module
 */
import { checkDigest } from "../digest/validate.js";
import { parseCommonShape } from "./common-shape.js";
import { ImageReferenceError } from "./errors.js";
import {
  DIGEST_NO_MATCH,
  DIGEST_VALID,
  isIdentifier,
  matchesReference,
  NOT_A_DOMAIN,
  PATH_MAX_LENGTH,
  scanDigest,
  scanDomain,
  scanPathComponent,
  scanRemoteName,
  scanTag,
} from "./grammar.js";
import { hasUpperCase, toLowerAscii } from "./lowercase.js";
import { DEFAULT_DOMAIN, DEFAULT_TAG, isHubDomain, OFFICIAL_REPO_PREFIX } from "./normalize.js";
import {
  composeNamed,
  digestReference,
  type NamedReference,
  namedReference,
  type Reference,
} from "./reference.js";

const COLON = 0x3a;
const AT = 0x40;
const LEFT_BRACKET = 0x5b;
const DOT = 0x2e;
/** `docker.io/`, the prefix of every Docker Hub name. */
const DEFAULT_DOMAIN_SLASH = "docker.io/";
/** `docker.io/library/`, the prefix of every official Docker Hub name. */
const DEFAULT_DOMAIN_SLASH_LIBRARY = "docker.io/library/";

/**
 * The error `Parse` reports when `s` fails the grammar: upstream retries
 * with `strings.ToLower(s)` and, when that copy matches, blames upper case.
 */
function grammarError(s: string, input: string): ImageReferenceError {
  if (hasUpperCase(s, 0, s.length)) {
    const lowered = toLowerAscii(s);
    if (lowered !== undefined && matchesReference(lowered)) {
      return new ImageReferenceError("NAME_CONTAINS_UPPERCASE", input);
    }
  }
  return new ImageReferenceError("INVALID_REFERENCE_FORMAT", input);
}

/**
 * Reads the optional `":" tag` and `"@" digest` after the remote name that
 * ends at `pathEnd`, then applies `Parse`'s later checks in upstream order
 * (path length, then go-digest) and builds the reference. Returns
 * `undefined` when the grammar does not match, and also, for the
 * normalizing operations (`checkRemote`), when an untagged digest's
 * algorithm has upper case: that is part of the remote name, which upstream
 * checks first; the caller then replays the upstream order to report it.
 */
function finishReference(
  s: string,
  pathEnd: number,
  domain: string,
  path: string,
  name: string,
  string: string,
  checkRemote: boolean,
): NamedReference | undefined {
  const end = s.length;
  let tag: string | undefined;
  let digest: string | undefined;
  let digestState = DIGEST_VALID;
  let i = pathEnd;
  if (i < end && s.charCodeAt(i) === COLON) {
    const tagEnd = scanTag(s, i + 1, end);
    if (tagEnd < 0) return undefined;
    tag = s.slice(i + 1, tagEnd);
    i = tagEnd;
  }
  if (i < end) {
    if (s.charCodeAt(i) !== AT) return undefined;
    digestState = scanDigest(s, i + 1, end);
    if (digestState === DIGEST_NO_MATCH) return undefined;
    // A registered algorithm is lower case; only another one can hold upper case.
    if (
      checkRemote &&
      tag === undefined &&
      digestState !== DIGEST_VALID &&
      hasUpperCase(s, i + 1, s.indexOf(":", i + 1))
    ) {
      return undefined;
    }
    digest = s.slice(i + 1);
  }
  if (path.length > PATH_MAX_LENGTH) throw new ImageReferenceError("NAME_TOO_LONG", s);
  if (digest !== undefined && digestState !== DIGEST_VALID) {
    const code = checkDigest(digest);
    if (code !== undefined) throw new ImageReferenceError(code, s);
  }
  return namedReference(domain, path, name, tag, digest, string);
}

/**
 * `Parse` of a non-empty `s`, or `undefined` when the grammar does not
 * match. `slash` is the first `/` of `s` (or -1) and `domain` what
 * {@link scanDomain} says of the text before it. That text is the domain
 * when it is a valid one; otherwise it must be the first path component.
 */
function parseReference(
  s: string,
  slash: number,
  domain: number,
  checkRemote: boolean,
): NamedReference | undefined {
  const pathEnd = scanRemoteName(s, slash + 1, s.length);
  if (pathEnd < 0) return undefined;
  const name = pathEnd === s.length ? s : s.slice(0, pathEnd);
  if (slash >= 0) {
    if (domain !== NOT_A_DOMAIN) {
      const path = s.slice(slash + 1, pathEnd);
      return finishReference(s, pathEnd, s.slice(0, slash), path, name, s, checkRemote);
    }
    if (scanPathComponent(s, 0, slash) !== slash) return undefined;
  }
  return finishReference(s, pathEnd, "", name, name, s, checkRemote);
}

/**
 * Returns the reference `s` describes, without any normalization (Go's
 * `Parse`): `ubuntu` has domain `""` and path `ubuntu`, and `foo/bar` has
 * domain `foo`. Throws an {@link ImageReferenceError}.
 *
 * Checks, in upstream order: empty (`NAME_EMPTY`); the grammar
 * (`INVALID_REFERENCE_FORMAT`, or `NAME_CONTAINS_UPPERCASE` when the
 * lower-cased input would match); path longer than 255 (`NAME_TOO_LONG`);
 * the digest (`DIGEST_*` codes from go-digest).
 *
 * @example
 * ```ts
 * import { type NamedReference, parse } from "@kubeimg/core/reference";
 *
 * parse("ubuntu:22.04").string;   // "ubuntu:22.04"
 * (parse("gol/ng") as NamedReference).domain; // "gol"
 * parse("Ubuntu");                // throws, code "NAME_CONTAINS_UPPERCASE"
 * ```
 */
export function parse(s: string): Reference {
  if (s === "") throw new ImageReferenceError("NAME_EMPTY", s);
  const slash = s.indexOf("/");
  const domain = slash < 0 ? NOT_A_DOMAIN : scanDomain(s, 0, slash);
  const reference = parseReference(s, slash, domain, false);
  if (reference === undefined) throw grammarError(s, s);
  return reference;
}

/**
 * Returns the fully qualified reference for a familiar one (Go's
 * `ParseNormalizedNamed`): `ubuntu` → `docker.io/library/ubuntu`. Adds no tag.
 *
 * Checks, in upstream order: a bare 64-hex string (`NAME_IS_HEX_IDENTIFIER`);
 * the Docker Hub domain split (the first component is a domain when it is
 * `localhost`, contains `.` or `:`, or has upper case; `index.docker.io`
 * becomes `docker.io`; a one-component Hub path gets `library/`); upper case
 * in the remote name (`REMOTE_NAME_CONTAINS_UPPERCASE`); then {@link parse}
 * of the result.
 *
 * @example
 * ```ts
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * parseNormalizedNamed("nginx:1.25").string;   // "docker.io/library/nginx:1.25"
 * parseNormalizedNamed("localhost:5000").tag;  // "5000": a Hub repository "localhost"
 * parseNormalizedNamed("Foo/bar").domain;      // "Foo": upper case makes it a domain
 * ```
 */
export function parseNormalizedNamed(s: string): NamedReference {
  return parseCommonShape(s) ?? normalizeExactly(s);
}

/**
 * {@link parseNormalizedNamed} for every input, step by step in upstream
 * order; `common-shape.ts` answers the usual shapes faster and must agree.
 *
 * @internal
 */
export function normalizeExactly(s: string): NamedReference {
  if (isIdentifier(s)) throw new ImageReferenceError("NAME_IS_HEX_IDENTIFIER", s, s);

  // splitDockerDomain: the first component is a domain when it is
  // `localhost`, contains `.` or `:`, or has upper case. Off Docker Hub,
  // Parse(domain + "/" + remainder) is Parse(s) itself, and Parse may still
  // decide that the first component is a path component (`ex_ample.com/app`
  // is split off here, but is not a valid domain).
  const slash = s.indexOf("/");
  let domain = NOT_A_DOMAIN;
  let split = false;
  if (slash >= 0) {
    domain = scanDomain(s, 0, slash);
    split =
      domain === NOT_A_DOMAIN
        ? isDomainCandidate(s, slash)
        : domain !== 0 || (slash === 9 && s.startsWith("localhost"));
  }
  if (split && !isHubDomain(s, slash)) {
    const reference = parseReference(s, slash, domain, true);
    if (reference === undefined) throw normalizedError(s, slash + 1, false, false);
    return reference;
  }

  // Docker Hub: Parse("docker.io/" + remainder), the remainder prefixed with
  // "library/" when it has a single component. Matching the grammar first is
  // safe: when it matches, the path is lower case, so the remote-name check
  // can only fail on an untagged digest's algorithm (`finishReference` sees
  // to that); when it does not, `normalizedError` replays the upstream order.
  const restStart = split ? slash + 1 : 0;
  const library = slash < 0 || (split && s.indexOf("/", restStart) < 0);
  // A first component that is a lower-case host label ("bitnami") is also a
  // valid path component, so the scan can resume after it.
  const scanFrom = domain === 0 && s.charCodeAt(0) !== LEFT_BRACKET ? slash + 1 : restStart;
  const pathEnd = scanRemoteName(s, scanFrom, s.length);
  let reference: NamedReference | undefined;
  if (pathEnd >= 0) {
    let path: string;
    let name: string;
    let string: string;
    if (restStart === 0) {
      const tail = pathEnd === s.length ? s : s.slice(0, pathEnd);
      const prefix = library ? DEFAULT_DOMAIN_SLASH_LIBRARY : DEFAULT_DOMAIN_SLASH;
      path = library ? OFFICIAL_REPO_PREFIX + tail : tail;
      name = prefix + tail;
      string = prefix + s;
    } else {
      const prefix = library ? OFFICIAL_REPO_PREFIX : "";
      path = prefix + s.slice(restStart, pathEnd);
      name = DEFAULT_DOMAIN_SLASH + path;
      string = DEFAULT_DOMAIN_SLASH + prefix + s.slice(restStart);
    }
    reference = finishReference(s, pathEnd, DEFAULT_DOMAIN, path, name, string, true);
  }
  if (reference === undefined) throw normalizedError(s, restStart, library, true);
  return reference;
}

/**
 * The error `ParseNormalizedNamed` reports for `s` once the fast path has
 * found one, in upstream order: the remote name (the remainder from
 * `restStart` up to its first `:`) must be lower case, then
 * `Parse(domain + "/" + remainder)` decides.
 */
function normalizedError(
  s: string,
  restStart: number,
  library: boolean,
  hub: boolean,
): ImageReferenceError {
  const colon = s.indexOf(":", restStart);
  const remoteEnd = colon < 0 ? s.length : colon;
  const prefix = library ? OFFICIAL_REPO_PREFIX : "";
  if (hasUpperCase(s, restStart, remoteEnd)) {
    const remote = prefix + s.slice(restStart, remoteEnd);
    return new ImageReferenceError("REMOTE_NAME_CONTAINS_UPPERCASE", s, remote);
  }
  return grammarError(hub ? DEFAULT_DOMAIN_SLASH + prefix + s.slice(restStart) : s, s);
}

/**
 * True when the first component `s[0:slash]` is taken as a domain by
 * `splitDockerDomain`: it is `localhost`, contains `.` or `:`, or has upper case.
 */
function isDomainCandidate(s: string, slash: number): boolean {
  for (let i = 0; i < slash; i++) {
    const c = s.charCodeAt(i);
    if (c === DOT || c === COLON) return true;
  }
  if (slash === 9 && s.startsWith("localhost")) return true;
  return hasUpperCase(s, 0, slash);
}

/**
 * Returns the reference when `s` is already in canonical form (Go's
 * `ParseNamed`): it must equal the `string` of its own normalization, else
 * `NAME_NOT_CANONICAL`.
 *
 * @example
 * ```ts
 * import { parseNamed } from "@kubeimg/core/reference";
 *
 * parseNamed("docker.io/library/nginx:1.25").path; // "library/nginx"
 * parseNamed("nginx:1.25");                        // throws, code "NAME_NOT_CANONICAL"
 * ```
 */
export function parseNamed(s: string): NamedReference {
  const named = parseNormalizedNamed(s);
  if (named.string !== s) throw new ImageReferenceError("NAME_NOT_CANONICAL", s);
  return named;
}

/**
 * Returns a digest-only reference for an image ID or a digest, and the
 * normalized named reference otherwise (Go's `ParseAnyReference`): a bare
 * 64-hex string becomes `sha256:<hex>`, a valid `algorithm:hex` stays a
 * digest, anything else goes to {@link parseNormalizedNamed}.
 *
 * @example
 * ```ts
 * import { parseAnyReference } from "@kubeimg/core/reference";
 *
 * parseAnyReference("a".repeat(64)).string; // "sha256:aaaa…"
 * parseAnyReference("nginx").string;        // "docker.io/library/nginx"
 * ```
 */
export function parseAnyReference(s: string): Reference {
  if (isIdentifier(s)) return digestReference(`sha256:${s}`);
  if (checkDigest(s) === undefined) return digestReference(s);
  return parseNormalizedNamed(s);
}

/**
 * Returns the reference as docker and containerd pull it (Go's
 * `ParseDockerRef`): normalized, with the tag dropped when a digest is
 * present, and `latest` added when neither is.
 *
 * @example
 * ```ts
 * import { parseDockerRef } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * parseDockerRef("nginx").string;              // "docker.io/library/nginx:latest"
 * parseDockerRef("nginx:1.25@sha256:" + hex64).tag; // undefined: the digest wins
 * ```
 */
export function parseDockerRef(s: string): NamedReference {
  const named = parseNormalizedNamed(s);
  if (named.digest !== undefined) {
    return named.tag === undefined
      ? named
      : composeNamed(named.domain, named.path, undefined, named.digest);
  }
  return named.tag === undefined
    ? composeNamed(named.domain, named.path, DEFAULT_TAG, undefined)
    : named;
}

/** The result of a `safeParse…` function: the reference, or the error that `parse…` would throw. */
export type SafeParseResult<R> =
  | { readonly success: true; readonly data: R }
  | { readonly success: false; readonly error: ImageReferenceError };

function safely<R>(parser: (s: string) => R, s: string): SafeParseResult<R> {
  try {
    return { success: true, data: parser(s) };
  } catch (error) {
    if (error instanceof ImageReferenceError) return { success: false, error };
    throw error;
  }
}

/**
 * The non-throwing {@link parse}: `{ success: true, data }` or
 * `{ success: false, error }`.
 *
 * @example
 * ```ts
 * import { safeParse } from "@kubeimg/core/reference";
 *
 * const r = safeParse("Ubuntu");
 * if (!r.success) r.error.code; // "NAME_CONTAINS_UPPERCASE"
 * ```
 */
export function safeParse(s: string): SafeParseResult<Reference> {
  return safely(parse, s);
}

/**
 * The non-throwing {@link parseNamed}.
 */
export function safeParseNamed(s: string): SafeParseResult<NamedReference> {
  return safely(parseNamed, s);
}

/**
 * The non-throwing {@link parseNormalizedNamed}, for validating many images
 * at once (an admission webhook checking every container of a pod).
 *
 * @example
 * ```ts
 * import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
 *
 * declare const pod: { spec: { containers: { name: string; image: string }[] } };
 * declare function deny(message: string): void;
 * for (const c of pod.spec.containers) {
 *   const r = safeParseNormalizedNamed(c.image);
 *   if (!r.success) deny(`${c.name}: ${r.error.message}`);
 * }
 * ```
 */
export function safeParseNormalizedNamed(s: string): SafeParseResult<NamedReference> {
  return safely(parseNormalizedNamed, s);
}

/**
 * The non-throwing {@link parseAnyReference}.
 */
export function safeParseAnyReference(s: string): SafeParseResult<Reference> {
  return safely(parseAnyReference, s);
}

/**
 * The non-throwing {@link parseDockerRef}.
 */
export function safeParseDockerRef(s: string): SafeParseResult<NamedReference> {
  return safely(parseDockerRef, s);
}
