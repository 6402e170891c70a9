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

/**
 * The punctuation of the grammar, as UTF-16 code units. An enum, not module
 * constants: the bundler writes enum members into the code as literals, so
 * the hot loops compare with immediates (bundled module constants become
 * mutable `var`s that the optimizing compiler has to load every time).
 */
export enum Char {
  Plus = 0x2b,
  Dash = 0x2d,
  Dot = 0x2e,
  Slash = 0x2f,
  Colon = 0x3a,
  At = 0x40,
  LeftBracket = 0x5b,
  RightBracket = 0x5d,
  Underscore = 0x5f,
}

/** The most characters a tag may have (`[\w][\w.-]{0,127}`). */
export const TAG_MAX_LENGTH = 128;

/** The most bytes a repository path may have; the domain does not count. */
export const PATH_MAX_LENGTH = 255;

// Character classes, the smallest pieces of the grammar. Each UTF-16 code
// unit has a byte in a table with one bit per class it belongs to; only
// ASCII belongs to any. A full 64 KiB table spares the hot loops a range
// check per character. It is built when the module loads (about 0.1 ms),
// not on first use: a constant table lets the optimizing compiler drop a
// check from every lookup, worth several percent of a parse.

/** The classes of the class table, one bit each (an enum for the reason {@link Char} is). */
export enum CharClass {
  /** `[0-9]`: port numbers are digits, never range-checked (`:65536` is fine). */
  Digit = 1 << 0,
  /** `[a-z0-9]`: path components are lower case only; upper case hints at a domain. */
  LowerAlphanumeric = 1 << 1,
  /** `[a-zA-Z0-9]`: host names are case-insensitive, so domains accept both cases. */
  Alphanumeric = 1 << 2,
  /** `[\w.-]`: the other characters of a tag. */
  TagCharacter = 1 << 3,
  /** `[[:xdigit:]]`: the reference grammar accepts hex of either case. */
  Hex = 1 << 4,
  /** `[a-f0-9]`: go-digest then requires lower case. */
  LowerHex = 1 << 5,
  /** `[A-Z]`: upper case, which makes a first component a domain when normalizing. */
  Upper = 1 << 6,
}

function buildClassTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  const add = (from: string, to: string, bits: number) => {
    for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) table[c] = (table[c] ?? 0) | bits;
  };
  add(
    "0",
    "9",
    CharClass.Digit |
      CharClass.LowerAlphanumeric |
      CharClass.Alphanumeric |
      CharClass.TagCharacter |
      CharClass.Hex |
      CharClass.LowerHex,
  );
  add("a", "f", CharClass.Hex | CharClass.LowerHex);
  add("A", "F", CharClass.Hex);
  add("a", "z", CharClass.LowerAlphanumeric | CharClass.Alphanumeric | CharClass.TagCharacter);
  add("A", "Z", CharClass.Alphanumeric | CharClass.TagCharacter | CharClass.Upper);
  add("_", "_", CharClass.TagCharacter);
  add(".", ".", CharClass.TagCharacter);
  add("-", "-", CharClass.TagCharacter);
  return table;
}

const CLASS_TABLE = /* @__PURE__ */ buildClassTable();

/** The class bits of every code unit. */
export function classes(): Uint8Array {
  return CLASS_TABLE;
}

/** `\\w` as Go's RE2 reads it, ASCII `[0-9A-Za-z_]` only: the first character of a tag. */
export function isWordCharacter(table: Uint8Array, c: number): boolean {
  return c !== Char.Dot && c !== Char.Dash && inClass(table, c, CharClass.TagCharacter);
}

/** True when the code unit `c` belongs to one of the classes in `bits`. */
function inClass(table: Uint8Array, c: number, bits: number): boolean {
  return ((table[c] as number) & bits) !== 0;
}

/** `[a-zA-Z]`: the first character of a digest algorithm component. */
function isLetter(table: Uint8Array, c: number): boolean {
  return (
    ((table[c] as number) & (CharClass.Alphanumeric | CharClass.Digit)) === CharClass.Alphanumeric
  );
}

/** `[a-fA-F0-9:]`: IPv6 inside brackets, compressed or not; zones and IPv4 tails are excluded. */
function isIpv6Character(table: Uint8Array, c: number): boolean {
  return c === Char.Colon || inClass(table, c, CharClass.Hex);
}

/** `[-_+.]`: what joins two digest algorithm components. */
function isAlgorithmSeparator(c: number): boolean {
  return c === Char.Dash || c === Char.Underscore || c === Char.Plus || c === Char.Dot;
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
  const table = classes();
  let i = start;
  if (i >= end || !inClass(table, s.charCodeAt(i), CharClass.LowerAlphanumeric)) return -1;
  i++;
  for (;;) {
    while (i < end && inClass(table, s.charCodeAt(i), CharClass.LowerAlphanumeric)) i++;
    if (i >= end) return i;
    const c = s.charCodeAt(i);
    let next: number;
    if (c === Char.Dot) next = i + 1;
    else if (c === Char.Underscore) {
      // One or two underscores; a third can only start a new separator, which is not allowed.
      next = i + 1 < end && s.charCodeAt(i + 1) === Char.Underscore ? i + 2 : i + 1;
    } else if (c === Char.Dash) {
      // Any run of dashes, so that host-like names ("xn--bcher-kva") stay valid.
      next = i + 1;
      while (next < end && s.charCodeAt(next) === Char.Dash) next++;
    } else return i;
    if (next >= end || !inClass(table, s.charCodeAt(next), CharClass.LowerAlphanumeric)) return -1;
    i = next + 1;
  }
}

/**
 * Returns the end of the `remote-name` (path components joined by `/`) at
 * `start`, or -1. The same rules as {@link scanPathComponent}, in one loop
 * over all components: this is the hottest loop of reference parsing.
 */
export function scanRemoteName(s: string, start: number, end: number): number {
  const table = classes();
  let i = start;
  for (;;) {
    // A component starts with [a-z0-9] ...
    if (i >= end || !inClass(table, s.charCodeAt(i), CharClass.LowerAlphanumeric)) return -1;
    i++;
    for (;;) {
      // ... runs of [a-z0-9] ...
      let c = 0;
      for (; i < end; i++) {
        c = s.charCodeAt(i);
        if (!inClass(table, c, CharClass.LowerAlphanumeric)) break;
      }
      if (i >= end) return end;
      // ... joined by one separator, which must be followed by [a-z0-9].
      if (c === Char.Dot) i++;
      else if (c === Char.Underscore)
        i += i + 1 < end && s.charCodeAt(i + 1) === Char.Underscore ? 2 : 1;
      else if (c === Char.Dash) {
        i++;
        while (i < end && s.charCodeAt(i) === Char.Dash) i++;
      } else break;
      if (i >= end || !inClass(table, s.charCodeAt(i), CharClass.LowerAlphanumeric)) return -1;
      i++;
    }
    if (s.charCodeAt(i) !== Char.Slash) return i;
    i++;
  }
}

/**
 * Returns the end of the `tag` at `start`, or -1: a word character, then up
 * to 127 of `[\w.-]`. Since the grammar is anchored, a 129th tag character
 * fails the reference rather than ending the tag.
 */
export function scanTag(s: string, start: number, end: number): number {
  const table = classes();
  if (start >= end || !isWordCharacter(table, s.charCodeAt(start))) return -1;
  let i = start + 1;
  while (i < end && inClass(table, s.charCodeAt(i), CharClass.TagCharacter)) i++;
  return i - start > TAG_MAX_LENGTH ? -1 : i;
}

/** {@link scanDigest}: `s[start:end]` is not a `digest` of the reference grammar. */
export const DIGEST_NO_MATCH = 0;
/** {@link scanDigest}: a `digest` of the grammar, which go-digest will refuse. */
export const DIGEST_SHAPE_ONLY = 1;
/** {@link scanDigest}: a `digest` of the grammar that go-digest accepts too. */
export const DIGEST_VALID = 2;

/**
 * Matches `s[start:end]` against the reference grammar's `digest`:
 * algorithm components `[A-Za-z][A-Za-z0-9]*` joined by one of `-_+.`, a
 * `:`, and at least 32 hex digits of either case. In the same pass it tells
 * whether go-digest will accept it (a registered algorithm, lower-case hex
 * of the exact length), so that a valid digest is read once; the error code
 * of one it refuses comes from `checkDigest`.
 */
export function scanDigest(s: string, start: number, end: number): number {
  const table = classes();
  let i = start;
  for (;;) {
    if (i >= end || !isLetter(table, s.charCodeAt(i))) return DIGEST_NO_MATCH;
    i++;
    while (i < end && inClass(table, s.charCodeAt(i), CharClass.Alphanumeric)) i++;
    if (i >= end) return DIGEST_NO_MATCH;
    const c = s.charCodeAt(i);
    if (c === Char.Colon) break;
    if (!isAlgorithmSeparator(c)) return DIGEST_NO_MATCH;
    i++;
  }
  const algorithmLength = i - start;
  const hexStart = ++i;
  let lowerCase = true;
  for (; i < end; i++) {
    const bits = table[s.charCodeAt(i)] as number;
    if ((bits & CharClass.LowerHex) === 0) {
      if ((bits & CharClass.Hex) === 0) return DIGEST_NO_MATCH;
      lowerCase = false;
    }
  }
  const hexLength = end - hexStart;
  if (hexLength < 32) return DIGEST_NO_MATCH;
  const registered =
    algorithmLength === 6 &&
    ((hexLength === 64 && s.startsWith("sha256", start)) ||
      (hexLength === 96 && s.startsWith("sha384", start)) ||
      (hexLength === 128 && s.startsWith("sha512", start)));
  return registered && lowerCase ? DIGEST_VALID : DIGEST_SHAPE_ONLY;
}

/** {@link scanDomain}: the text is not a `domain`. */
export const NOT_A_DOMAIN = -1;
/** {@link scanDomain} flag: the domain contains `.` or `:` (a host or a port). */
export const DOMAIN_HAS_DOT_OR_COLON = 1;
/**
 * {@link scanDomain} flag: the domain contains an upper-case ASCII letter;
 * only reported without {@link DOMAIN_HAS_DOT_OR_COLON}, which already makes
 * a first component a domain.
 */
export const DOMAIN_HAS_UPPER = 2;

/**
 * Matches `s[start:end]` against `domain`: a DNS-like name (labels of
 * `[a-zA-Z0-9-]` that neither start nor end with `-`, joined by `.`) or an
 * IPv6 address in brackets, then an optional `:port`. Returns
 * {@link NOT_A_DOMAIN}, or the flags the Docker Hub split asks about
 * ({@link DOMAIN_HAS_DOT_OR_COLON}, {@link DOMAIN_HAS_UPPER}), so that a
 * first component is read once.
 */
export function scanDomain(s: string, start: number, end: number): number {
  const table = classes();
  let i = start;
  let dotOrColon = false;
  if (i >= end) return NOT_A_DOMAIN;
  if (s.charCodeAt(i) === Char.LeftBracket) {
    i++;
    const hostStart = i;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (!isIpv6Character(table, c)) break;
      if (c === Char.Colon) dotOrColon = true;
    }
    if (i === hostStart || i >= end || s.charCodeAt(i) !== Char.RightBracket) return NOT_A_DOMAIN;
    i++;
  } else {
    // Labels joined by '.', each starting and ending with [a-zA-Z0-9]: track
    // what the previous character was, as if the name followed a '.'.
    let previous: number = Char.Dot;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (inClass(table, c, CharClass.Alphanumeric)) previous = 0;
      else if (c === Char.Dash) {
        if (previous === Char.Dot) return NOT_A_DOMAIN; // a label cannot start with '-'
        previous = Char.Dash;
      } else if (c === Char.Dot) {
        if (previous !== 0) return NOT_A_DOMAIN; // nor end with '-', nor be empty
        previous = Char.Dot;
        dotOrColon = true;
      } else break;
    }
    if (previous !== 0) return NOT_A_DOMAIN;
  }
  if (i < end) {
    if (s.charCodeAt(i) !== Char.Colon || i + 1 >= end) return NOT_A_DOMAIN;
    for (i++; i < end; i++)
      if (!inClass(table, s.charCodeAt(i), CharClass.Digit)) return NOT_A_DOMAIN;
    dotOrColon = true;
  }
  if (dotOrColon) return DOMAIN_HAS_DOT_OR_COLON;
  // Upper case only matters for a name without '.' or ':', usually a short one.
  for (i = start; i < end; i++)
    if (inClass(table, s.charCodeAt(i), CharClass.Upper)) return DOMAIN_HAS_UPPER;
  return 0;
}

/** True when `s[start:end]` is exactly a `domain`. */
export function isDomain(s: string, start: number, end: number): boolean {
  return scanDomain(s, start, end) !== NOT_A_DOMAIN;
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
  if (s.charCodeAt(i) === Char.Colon) {
    i = scanTag(s, i + 1, end);
    if (i < 0) return -1;
    if (i === end) return nameEnd;
  }
  return s.charCodeAt(i) === Char.At && scanDigest(s, i + 1, end) !== DIGEST_NO_MATCH
    ? nameEnd
    : -1;
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
  const table = classes();
  for (let i = 0; i < 64; i++)
    if (!inClass(table, s.charCodeAt(i), CharClass.LowerHex)) return false;
  return true;
}
