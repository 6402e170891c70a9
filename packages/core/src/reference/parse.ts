/**
 * The five parsing operations of distribution/reference v0.6.0: `Parse`,
 * `ParseNamed`, `ParseNormalizedNamed`, `ParseAnyReference` and
 * `ParseDockerRef`, with the upstream order of checks and error texts.
 *
 * @module
 */
import { checkDigest } from "../digest/validate.js";
import { ImageReferenceError } from "./errors.js";
import {
  isDomain,
  isIdentifier,
  matchesReference,
  PATH_MAX_LENGTH,
  scanNameTail,
  scanPathComponent,
} from "./grammar.js";
import { hasUpperCase, toLowerAscii } from "./lowercase.js";
import {
  DEFAULT_DOMAIN,
  DEFAULT_TAG,
  LEGACY_DEFAULT_DOMAIN,
  OFFICIAL_REPO_PREFIX,
} from "./normalize.js";
import {
  composeNamed,
  digestReference,
  type NamedReference,
  namedReference,
  type Reference,
} from "./reference.js";

const COLON = 0x3a;
const DOT = 0x2e;
const DEFAULT_DOMAIN_SLASH = `${DEFAULT_DOMAIN}/`;

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
 * Finishes a reference whose name was matched: reads the tag and digest that
 * follow `nameEnd` in `s`, then applies `Parse`'s later checks in order
 * (path length, then go-digest validation).
 */
function complete(
  input: string,
  s: string,
  nameEnd: number,
  domain: string,
  path: string,
  name: string,
  string: string,
): NamedReference {
  let tag: string | undefined;
  let digest: string | undefined;
  if (nameEnd < s.length) {
    let at = nameEnd;
    if (s.charCodeAt(nameEnd) === COLON) {
      at = s.indexOf("@", nameEnd + 1);
      tag = s.slice(nameEnd + 1, at < 0 ? s.length : at);
    }
    if (at >= 0) digest = s.slice(at + 1);
  }
  if (path.length > PATH_MAX_LENGTH) throw new ImageReferenceError("NAME_TOO_LONG", input);
  if (digest !== undefined) {
    const code = checkDigest(digest);
    if (code !== undefined) throw new ImageReferenceError(code, input);
  }
  return namedReference(domain, path, name, tag, digest, string);
}

/**
 * `Parse` of a string `s` (non-empty). `input` is what the caller was given,
 * for the error. The domain is the text before the first `/` when it is a
 * valid domain; otherwise that text is the first path component.
 */
function parseGrammar(s: string, input: string): NamedReference {
  const slash = s.indexOf("/");
  const tailStart = slash + 1;
  const nameEnd = scanNameTail(s, tailStart);
  if (nameEnd >= 0) {
    if (slash < 0) {
      const name = s.slice(0, nameEnd);
      return complete(input, s, nameEnd, "", name, name, s);
    }
    if (isDomain(s, 0, slash)) {
      const name = s.slice(0, nameEnd);
      return complete(input, s, nameEnd, s.slice(0, slash), s.slice(tailStart, nameEnd), name, s);
    }
    if (scanPathComponent(s, 0, slash) === slash) {
      const name = s.slice(0, nameEnd);
      return complete(input, s, nameEnd, "", name, name, s);
    }
  }
  throw grammarError(s, input);
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
 * parse("ubuntu:22.04").string;   // "ubuntu:22.04"
 * (parse("gol/ng") as NamedReference).domain; // "gol"
 * parse("Ubuntu");                // throws, code "NAME_CONTAINS_UPPERCASE"
 * ```
 */
export function parse(s: string): Reference {
  if (s === "") throw new ImageReferenceError("NAME_EMPTY", s);
  return parseGrammar(s, s);
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
 * parseNormalizedNamed("nginx:1.25").string;   // "docker.io/library/nginx:1.25"
 * parseNormalizedNamed("localhost:5000").tag;  // "5000": a Hub repository "localhost"
 * parseNormalizedNamed("Foo/bar").domain;      // "Foo": upper case makes it a domain
 * ```
 */
export function parseNormalizedNamed(s: string): NamedReference {
  if (isIdentifier(s)) throw new ImageReferenceError("NAME_IS_HEX_IDENTIFIER", s, s);

  // splitDockerDomain: where the remainder starts in `s`, and whether the
  // domain is Docker Hub's (then the name is re-read after "docker.io/").
  const slash = s.indexOf("/");
  let restStart = 0;
  let hub = true;
  if (slash >= 0 && isDomainCandidate(s, slash)) {
    restStart = slash + 1;
    hub = isHubDomain(s, slash);
  }
  const library = hub && s.indexOf("/", restStart) < 0;

  // The remote name (the remainder up to its first ':') must be lower case.
  const colon = s.indexOf(":", restStart);
  const remoteEnd = colon < 0 ? s.length : colon;
  if (hasUpperCase(s, restStart, remoteEnd)) {
    const remote = (library ? OFFICIAL_REPO_PREFIX : "") + s.slice(restStart, remoteEnd);
    throw new ImageReferenceError("REMOTE_NAME_CONTAINS_UPPERCASE", s, remote);
  }

  // Parse(domain + "/" + remainder).
  if (!hub) return parseGrammar(s, s);
  const nameEnd = scanNameTail(s, restStart);
  if (nameEnd < 0) {
    const full = DEFAULT_DOMAIN_SLASH + (library ? OFFICIAL_REPO_PREFIX : "") + s.slice(restStart);
    throw grammarError(full, s);
  }
  const tail = s.slice(restStart, nameEnd);
  const path = library ? OFFICIAL_REPO_PREFIX + tail : tail;
  const name = DEFAULT_DOMAIN_SLASH + path;
  const string = nameEnd === s.length ? name : name + s.slice(nameEnd);
  return complete(s, s, nameEnd, DEFAULT_DOMAIN, path, name, string);
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

/** True when the domain `s[0:slash]` is Docker Hub's, `docker.io` or the legacy `index.docker.io`. */
function isHubDomain(s: string, slash: number): boolean {
  return (
    (slash === DEFAULT_DOMAIN.length && s.startsWith(DEFAULT_DOMAIN)) ||
    (slash === LEGACY_DEFAULT_DOMAIN.length && s.startsWith(LEGACY_DEFAULT_DOMAIN))
  );
}

/**
 * Returns the reference when `s` is already in canonical form (Go's
 * `ParseNamed`): it must equal the `string` of its own normalization, else
 * `NAME_NOT_CANONICAL`.
 *
 * @example
 * ```ts
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
  | { readonly success: true; readonly reference: R }
  | { readonly success: false; readonly error: ImageReferenceError };

function safely<R>(parser: (s: string) => R, s: string): SafeParseResult<R> {
  try {
    return { success: true, reference: parser(s) };
  } catch (error) {
    if (error instanceof ImageReferenceError) return { success: false, error };
    throw error;
  }
}

/**
 * The non-throwing {@link parse}: `{ success: true, reference }` or
 * `{ success: false, error }`.
 *
 * @example
 * ```ts
 * const r = safeParse("Ubuntu");
 * if (!r.success) r.error.code; // "NAME_CONTAINS_UPPERCASE"
 * ```
 */
export function safeParse(s: string): SafeParseResult<Reference> {
  return safely(parse, s);
}

/**
 * The non-throwing {@link parseNamed}.
 *
 * @example
 * ```ts
 * safeParseNamed("nginx").success; // false: not canonical
 * ```
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
 *
 * @example
 * ```ts
 * safeParseAnyReference("sha256:" + hex64).success; // true
 * ```
 */
export function safeParseAnyReference(s: string): SafeParseResult<Reference> {
  return safely(parseAnyReference, s);
}

/**
 * The non-throwing {@link parseDockerRef}.
 *
 * @example
 * ```ts
 * const r = safeParseDockerRef("nginx");
 * if (r.success) r.reference.tag; // "latest"
 * ```
 */
export function safeParseDockerRef(s: string): SafeParseResult<NamedReference> {
  return safely(parseDockerRef, s);
}
