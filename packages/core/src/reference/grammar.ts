/**
 * The image reference grammar of distribution/reference v0.6.0, as a ladder
 * of small scanners, smallest first. Each scanner reads character codes in
 * one forward pass: no regular expression, no backtracking, no allocation.
 *
 * ```ebnf
 * reference        := name [ ":" tag ] [ "@" digest ]
 * name             := [ domain "/" ] remote-name
 * domain           := host [ ":" port-number ]
 * host             := domain-name | "[" ipv6-address "]"
 * domain-name      := domain-component { "." domain-component }
 * domain-component := /[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]/
 * ipv6-address     := /[a-fA-F0-9:]+/
 * port-number      := /[0-9]+/
 * remote-name      := path-component { "/" path-component }
 * path-component   := alpha-numeric { separator alpha-numeric }
 * alpha-numeric    := /[a-z0-9]+/
 * separator        := /[_.]|__|[-]+/
 * tag              := /[\w][\w.-]{0,127}/
 * digest           := algorithm ":" hex
 * algorithm        := algorithm-part { /[-_+.]/ algorithm-part }
 * algorithm-part   := /[A-Za-z][A-Za-z0-9]*\/
 * hex              := /[0-9a-fA-F]{32,}/
 * identifier       := /[a-f0-9]{64}/
 * ```
 *
 * Where the upstream comment and code disagree, the code wins: the comment
 * in `reference.go` says `separator := /[_.]|__|[-]*\/`, `regexp.go` uses
 * `[-]+`. The digest here is only the reference grammar's shape; go-digest
 * then validates the algorithm and length (see `../digest/validate.ts`).
 *
 * How the pieces combine, and why a single forward pass is exact: a domain
 * never contains `/`, and neither do a tag or a digest, so a domain, when
 * present, is everything before the first `/`. Upstream's regular
 * expression prefers taking a domain, so the text before the first `/` is
 * the domain when it is a valid `domain`, and otherwise must be the first
 * path component; in both cases the text after the `/` must be a
 * `remote-name` followed by the optional tag and digest.
 *
 * @module
 */

const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const AT = 0x40;
const UNDERSCORE = 0x5f;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;

/** The most characters a tag may have (`[\w][\w.-]{0,127}`). */
export const TAG_MAX_LENGTH = 128;

/** The most bytes a repository path may have; the domain does not count. */
export const PATH_MAX_LENGTH = 255;

/** `[0-9]`: port numbers are digits, never range-checked (`:65536` is fine). */
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `[a-z0-9]`: path components are lower case only; upper case is a domain hint. */
function isLowerAlphanumeric(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || isDigit(c);
}

/** `[a-zA-Z]`: the first character of a digest algorithm component. */
function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** `[a-zA-Z0-9]`: host names are case-insensitive, so domains accept both cases. */
function isAlphanumeric(c: number): boolean {
  return isLetter(c) || isDigit(c);
}

/** `\w` as Go's RE2 reads it: ASCII `[0-9A-Za-z_]` only. */
function isWordCharacter(c: number): boolean {
  return isAlphanumeric(c) || c === UNDERSCORE;
}

/** `[[:xdigit:]]`: the reference grammar accepts either case; go-digest later requires lower. */
function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** `[a-fA-F0-9:]`: IPv6 inside brackets, compressed or not; zones and IPv4 tails are excluded. */
function isIpv6Character(c: number): boolean {
  return isHexDigit(c) || c === COLON;
}

/**
 * Returns the end of the `path-component` starting at `start` (it stops at
 * the first character that can neither continue nor separate), or -1 when
 * there is none or a separator is left dangling: a separator must be
 * followed by `[a-z0-9]`, and no character that may follow a path component
 * (`/`, `:`, `@`, end) is a separator, so a dangling one fails the whole
 * reference.
 */
export function scanPathComponent(s: string, start: number, end: number): number {
  let i = start;
  if (i >= end || !isLowerAlphanumeric(s.charCodeAt(i))) return -1;
  i++;
  for (;;) {
    while (i < end && isLowerAlphanumeric(s.charCodeAt(i))) i++;
    if (i >= end) return i;
    const c = s.charCodeAt(i);
    let next: number;
    if (c === DOT) next = i + 1;
    else if (c === UNDERSCORE) {
      // One or two underscores; a third can only start a new separator, which is not allowed.
      next = i + 1 < end && s.charCodeAt(i + 1) === UNDERSCORE ? i + 2 : i + 1;
    } else if (c === DASH) {
      // Any run of dashes, so that host-like names ("xn--bcher-kva") stay valid.
      next = i + 1;
      while (next < end && s.charCodeAt(next) === DASH) next++;
    } else return i;
    if (next >= end || !isLowerAlphanumeric(s.charCodeAt(next))) return -1;
    i = next + 1;
  }
}

/** Returns the end of the `remote-name` (path components joined by `/`) at `start`, or -1. */
export function scanRemoteName(s: string, start: number, end: number): number {
  let i = scanPathComponent(s, start, end);
  while (i >= 0 && i < end && s.charCodeAt(i) === SLASH) {
    i = scanPathComponent(s, i + 1, end);
  }
  return i;
}

/**
 * Returns the end of the `tag` at `start`, or -1: a word character, then up
 * to 127 of `[\w.-]`. Since the grammar is anchored, a 129th tag character
 * fails the reference rather than ending the tag.
 */
export function scanTag(s: string, start: number, end: number): number {
  if (start >= end || !isWordCharacter(s.charCodeAt(start))) return -1;
  let i = start + 1;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (!(isWordCharacter(c) || c === DOT || c === DASH)) break;
    i++;
  }
  return i - start > TAG_MAX_LENGTH ? -1 : i;
}

/**
 * True when `s[start:end]` is exactly a `digest` of the reference grammar:
 * algorithm components `[A-Za-z][A-Za-z0-9]*` joined by one of `-_+.`, a
 * `:`, and at least 32 hex digits of either case.
 */
export function isDigestShape(s: string, start: number, end: number): boolean {
  let i = start;
  for (;;) {
    if (i >= end || !isLetter(s.charCodeAt(i))) return false;
    i++;
    while (i < end && isAlphanumeric(s.charCodeAt(i))) i++;
    if (i >= end) return false;
    const c = s.charCodeAt(i);
    if (c === COLON) break;
    if (!(c === DASH || c === UNDERSCORE || c === 0x2b || c === DOT)) return false;
    i++;
  }
  const hexStart = ++i;
  while (i < end && isHexDigit(s.charCodeAt(i))) i++;
  return i === end && end - hexStart >= 32;
}

/**
 * True when `s[start:end]` is exactly a `domain`: a DNS-like name (labels of
 * `[a-zA-Z0-9-]` that neither start nor end with `-`, joined by `.`) or an
 * IPv6 address in brackets, then an optional `:port`.
 */
export function isDomain(s: string, start: number, end: number): boolean {
  let i = start;
  if (i >= end) return false;
  if (s.charCodeAt(i) === LEFT_BRACKET) {
    i++;
    const hostStart = i;
    while (i < end && isIpv6Character(s.charCodeAt(i))) i++;
    if (i === hostStart || i >= end || s.charCodeAt(i) !== RIGHT_BRACKET) return false;
    i++;
  } else {
    for (;;) {
      if (i >= end || !isAlphanumeric(s.charCodeAt(i))) return false;
      i++;
      let endsWithDash = false;
      while (i < end) {
        const c = s.charCodeAt(i);
        if (isAlphanumeric(c)) endsWithDash = false;
        else if (c === DASH) endsWithDash = true;
        else break;
        i++;
      }
      if (endsWithDash) return false;
      if (i < end && s.charCodeAt(i) === DOT) {
        i++;
        continue;
      }
      break;
    }
  }
  if (i === end) return true;
  if (s.charCodeAt(i) !== COLON || i + 1 >= end) return false;
  for (i++; i < end; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/**
 * Returns the end of the remote name when `s[start:]` is exactly a
 * `remote-name [":" tag] ["@" digest]`, or -1. The tag, when present,
 * starts right after that end; the digest right after the `@`.
 */
export function scanNameTail(s: string, start: number): number {
  const end = s.length;
  const nameEnd = scanRemoteName(s, start, end);
  if (nameEnd < 0 || nameEnd === end) return nameEnd;
  let i = nameEnd;
  if (s.charCodeAt(i) === COLON) {
    i = scanTag(s, i + 1, end);
    if (i < 0) return -1;
    if (i === end) return nameEnd;
  }
  return s.charCodeAt(i) === AT && isDigestShape(s, i + 1, end) ? nameEnd : -1;
}

/**
 * True when the whole of `s` matches the `reference` grammar. Mirrors a
 * match of distribution/reference's anchored `ReferenceRegexp`; `parse.ts`
 * repeats these steps inline to keep the split positions.
 */
export function matchesReference(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return scanNameTail(s, 0) >= 0;
  return (
    scanNameTail(s, slash + 1) >= 0 &&
    (isDomain(s, 0, slash) || scanPathComponent(s, 0, slash) === slash)
  );
}

/** True when `s` is exactly 64 lower-case hex digits: an image ID, never a repository name. */
export function isIdentifier(s: string): boolean {
  if (s.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = s.charCodeAt(i);
    if (!(isDigit(c) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}
