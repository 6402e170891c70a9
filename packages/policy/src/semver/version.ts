/**
 * Masterminds/semver v3 versions: the lenient `NewVersion` (with the package
 * defaults Flux runs: `CoerceNewVersion = true`, `DetailedNewVersionErrors =
 * true`), `StrictNewVersion`, and `Compare`.
 *
 * The lenient grammar is Masterminds' `looseSemVerRegex`, anchored at both
 * ends (Go's `$` is the end of the text, so no trailing newline is allowed):
 *
 * ```
 * version    = [ "v" ] digits [ "." digits ] [ "." digits ]
 *              [ "-" identifiers ] [ "+" identifiers ]
 * identifiers = ident *( "." ident )
 * ident       = 1*( ALPHA / DIGIT / "-" )       ; ASCII only
 * digits      = 1*DIGIT                        ; leading zeros allowed, coerced away
 * ```
 *
 * After the match the numbers must fit in a uint64 and a numeric pre-release
 * identifier must not have a leading zero. The grammar is small and
 * unambiguous, so it is scanned by hand here: this runs once per tag and is
 * the hot path of tag selection.
 *
 * npm `semver` is not used for parsing or comparison: it rejects partial
 * versions, caps numbers at 2^53 and compares numeric pre-release identifiers
 * as JavaScript numbers, where Masterminds parses them as uint64 and treats an
 * identifier above 2^64-1 as text.
 */
import { strings } from "@kubeimg/core/internal";
import { SemverError } from "./errors.js";
import { exceedsBytes, maxVersionBytes, type SemverRelease, semverRelease } from "./release.js";

/** The largest uint64, the bound of Go's `strconv.ParseUint(s, 10, 64)`. */
const maxUint64 = "18446744073709551615";

/** Masterminds' error texts, by code. */
const messages = {
  INVALID_SEMVER: "invalid semantic version",
  EMPTY_STRING: "version string empty",
  INVALID_CHARACTERS: "invalid characters in version",
  SEGMENT_STARTS_ZERO: "version segment starts with 0",
  INVALID_PRERELEASE: "invalid prerelease string",
  INVALID_METADATA: "invalid metadata string",
} as const;

/**
 * Options of the version parsers: which Masterminds release to follow
 * (v3.5.0, the default, refuses versions over 256 bytes; v3.4.0 has no limit).
 *
 * @example
 * ```ts
 * import { parseVersion } from "@kubeimg/policy/semver";
 *
 * parseVersion("1.2.3", { semver: "v3.4.0" });
 * ```
 */
export interface SemverOptions {
  readonly semver?: SemverRelease | undefined;
}

/** v3.5.0's `MaxVersionLen` check, the first one `NewVersion` makes. */
function tooLong(input: string, options: SemverOptions): boolean {
  return semverRelease(options.semver) === "v3.5.0" && exceedsBytes(input, maxVersionBytes);
}

function failTooLong(input: string): never {
  throw new SemverError(
    "VERSION_TOO_LONG",
    input,
    `version string is too long (max ${maxVersionBytes} bytes)`,
  );
}

function fail(code: keyof typeof messages, input: string): never {
  throw new SemverError(code, input, messages[code]);
}

/**
 * A parsed semantic version. Immutable.
 *
 * The numbers are unsigned 64-bit in Masterminds, beyond JavaScript's safe
 * integers, so they are kept as canonical decimal strings (`majorDigits`, …)
 * and offered as `bigint` (`major`, …).
 *
 * @example
 * ```ts
 * import { parseVersion } from "@kubeimg/policy/semver";
 *
 * const v = parseVersion("v1.2.3-rc.1+build");
 * v.major;       // 1n
 * v.prerelease;  // "rc.1"
 * v.toString();  // "1.2.3-rc.1+build"
 * v.original;    // "v1.2.3-rc.1+build"
 * ```
 */
export class Version {
  /** The text the version was parsed from (Go `Original`). */
  readonly original: string;
  /** Major number, canonical decimal digits without leading zeros. */
  readonly majorDigits: string;
  /** Minor number, canonical decimal digits without leading zeros. */
  readonly minorDigits: string;
  /** Patch number, canonical decimal digits without leading zeros. */
  readonly patchDigits: string;
  /** The pre-release without its `-`, or `""`. */
  readonly prerelease: string;
  /** The build metadata without its `+`, or `""`. */
  readonly metadata: string;

  /** Builds a version from already validated parts; use {@link parseVersion} instead. */
  constructor(
    original: string,
    majorDigits: string,
    minorDigits: string,
    patchDigits: string,
    prerelease: string,
    metadata: string,
  ) {
    this.original = original;
    this.majorDigits = majorDigits;
    this.minorDigits = minorDigits;
    this.patchDigits = patchDigits;
    this.prerelease = prerelease;
    this.metadata = metadata;
  }

  /** The major number. */
  get major(): bigint {
    return BigInt(this.majorDigits);
  }

  /** The minor number. */
  get minor(): bigint {
    return BigInt(this.minorDigits);
  }

  /** The patch number. */
  get patch(): bigint {
    return BigInt(this.patchDigits);
  }

  /** Returns `MAJOR.MINOR.PATCH[-PRE][+META]`, without a `v` (Go `String`). */
  toString(): string {
    let s = `${this.majorDigits}.${this.minorDigits}.${this.patchDigits}`;
    if (this.prerelease !== "") s += `-${this.prerelease}`;
    if (this.metadata !== "") s += `+${this.metadata}`;
    return s;
  }

  /** Returns -1, 0 or 1 as this version is lower than, equal to or greater than `other` (Go `Compare`). */
  compare(other: Version): -1 | 0 | 1 {
    return compareVersions(this, other);
  }
}

/** Compares two canonical decimal strings as unsigned integers. */
export function compareDigits(a: string, b: string): -1 | 0 | 1 {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Returns -1, 0 or 1 as `a` is lower than, equal to or greater than `b`
 * (Masterminds `Compare`): major, minor and patch numerically; then a version
 * without pre-release above one with; then the pre-releases identifier by
 * identifier. Build metadata is ignored.
 *
 * @example
 * ```ts
 * import { compareVersions, parseVersion } from "@kubeimg/policy/semver";
 *
 * compareVersions(parseVersion("1.0.0-rc.1"), parseVersion("1.0.0")); // -1
 * compareVersions(parseVersion("v1.0.0"), parseVersion("1.0.0+build")); // 0
 * ```
 */
export function compareVersions(a: Version, b: Version): -1 | 0 | 1 {
  const d =
    compareDigits(a.majorDigits, b.majorDigits) ||
    compareDigits(a.minorDigits, b.minorDigits) ||
    compareDigits(a.patchDigits, b.patchDigits);
  if (d !== 0) return d;
  const pa = a.prerelease;
  const pb = b.prerelease;
  if (pa === pb) return 0;
  if (pa === "") return 1;
  if (pb === "") return -1;
  return comparePrerelease(pa, pb);
}

/**
 * Compares two pre-release strings identifier by identifier (Masterminds
 * `comparePrerelease`). A missing identifier ranks lower; an identifier that
 * parses as a uint64 ranks below one that does not; two numbers compare
 * numerically and two texts by bytes.
 */
export function comparePrerelease(a: string, b: string): -1 | 0 | 1 {
  const as = a.split(".");
  const bs = b.split(".");
  const n = Math.max(as.length, bs.length);
  for (let i = 0; i < n; i++) {
    const d = comparePrereleasePart(as[i] ?? "", bs[i] ?? "");
    if (d !== 0) return d;
  }
  return 0;
}

function comparePrereleasePart(s: string, o: string): -1 | 0 | 1 {
  if (s === o) return 0;
  if (s === "") return -1;
  if (o === "") return 1;
  const sNum = isUint64(s);
  const oNum = isUint64(o);
  if (!sNum && !oNum) return strings.Compare(s, o);
  if (!oNum) return -1;
  if (!sNum) return 1;
  return compareDigits(stripZeros(s), stripZeros(o)) || -1;
}

/** True when `s` is what Go's `strconv.ParseUint(s, 10, 64)` accepts. */
function isUint64(s: string): boolean {
  if (s === "") return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return !exceedsUint64(stripZeros(s));
}

function stripZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 0x30) i++;
  return i === 0 ? digits : digits.slice(i);
}

function exceedsUint64(canonical: string): boolean {
  return (
    canonical.length > maxUint64.length ||
    (canonical.length === maxUint64.length && canonical > maxUint64)
  );
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `[0-9A-Za-z-]`: the characters of a pre-release or metadata identifier. */
function isIdentChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d
  );
}

/** Returns the end of the run of digits starting at `i`. */
function scanDigits(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/**
 * Returns the end of `ident *("." ident)` starting at `i`, or -1 when the
 * identifiers are malformed (empty, or followed by a character that is not
 * `stop` and not the end).
 */
function scanIdentifiers(s: string, i: number, stop: number): number {
  let identStart = i;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (isIdentChar(c)) {
      i++;
    } else if (c === 0x2e) {
      if (i === identStart) return -1;
      i++;
      identStart = i;
    } else if (c === stop) {
      break;
    } else {
      return -1;
    }
  }
  return i === identStart ? -1 : i;
}

function segmentDigits(input: string, digits: string): string {
  const canonical = stripZeros(digits);
  if (exceedsUint64(canonical)) {
    throw new SemverError(
      "SEGMENT_OUT_OF_RANGE",
      input,
      `error parsing version segment: strconv.ParseUint: parsing "${digits}": value out of range`,
    );
  }
  return canonical;
}

/** Masterminds `validatePrerelease`: numeric identifiers must not start with 0. */
function validatePrerelease(input: string, pre: string): void {
  for (const part of pre.split(".")) {
    if (part === "") fail("INVALID_PRERELEASE", input);
    let numeric = true;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      if (!isDigit(c)) numeric = false;
      if (!isIdentChar(c)) fail("INVALID_PRERELEASE", input);
    }
    if (numeric && part.length > 1 && part.charCodeAt(0) === 0x30) {
      fail("SEGMENT_STARTS_ZERO", input);
    }
  }
}

/** Masterminds `validateMetadata`: non-empty identifiers of `[0-9A-Za-z-]`. */
function validateMetadata(input: string, meta: string): void {
  for (const part of meta.split(".")) {
    if (part === "") fail("INVALID_METADATA", input);
    for (let i = 0; i < part.length; i++) {
      if (!isIdentChar(part.charCodeAt(i))) fail("INVALID_METADATA", input);
    }
  }
}

/**
 * Returns `input` parsed as Masterminds/semver v3 `NewVersion` does with its
 * defaults: a leading `v`, partial versions (`1`, `1.2`) and leading zeros
 * in the numbers are accepted and coerced (`v01.2` → `1.2.0`).
 *
 * Throws a {@link SemverError}: `INVALID_SEMVER` when the text is not a
 * version, `SEGMENT_OUT_OF_RANGE` when a number exceeds 2^64-1,
 * `SEGMENT_STARTS_ZERO` for a numeric pre-release identifier such as `01`.
 *
 * @example
 * ```ts
 * import { parseVersion } from "@kubeimg/policy/semver";
 *
 * parseVersion("v1.2").toString();        // "1.2.0"
 * parseVersion("1-rc.1.2").prerelease;    // "rc.1.2"
 * ```
 */
export function parseVersion(input: string, options: SemverOptions = {}): Version {
  if (tooLong(input, options)) failTooLong(input);
  const version = scanVersion(input);
  if (version === undefined) fail("INVALID_SEMVER", input);
  return version;
}

/**
 * Scans the lenient grammar; returns undefined when `input` does not match
 * it, throws for the errors Masterminds reports after a match.
 */
function scanVersion(input: string): Version | undefined {
  const n = input.length;
  let i = input.charCodeAt(0) === 0x76 ? 1 : 0; // "v"
  const majorStart = i;
  i = scanDigits(input, i);
  if (i === majorStart) return undefined;
  const major = input.slice(majorStart, i);
  let minor = "";
  let patch = "";
  if (input.charCodeAt(i) === 0x2e) {
    const start = i + 1;
    i = scanDigits(input, start);
    if (i === start) return undefined;
    minor = input.slice(start, i);
    if (input.charCodeAt(i) === 0x2e) {
      const patchStart = i + 1;
      i = scanDigits(input, patchStart);
      if (i === patchStart) return undefined;
      patch = input.slice(patchStart, i);
    }
  }
  let pre = "";
  let meta = "";
  if (i < n && input.charCodeAt(i) === 0x2d) {
    const end = scanIdentifiers(input, i + 1, 0x2b);
    if (end < 0) return undefined;
    pre = input.slice(i + 1, end);
    i = end;
  }
  if (i < n && input.charCodeAt(i) === 0x2b) {
    const end = scanIdentifiers(input, i + 1, -1);
    if (end < 0) return undefined;
    meta = input.slice(i + 1, end);
    i = end;
  }
  if (i !== n) return undefined;
  const majorDigits = segmentDigits(input, major);
  const minorDigits = minor === "" ? "0" : segmentDigits(input, minor);
  const patchDigits = patch === "" ? "0" : segmentDigits(input, patch);
  if (pre !== "") validatePrerelease(input, pre);
  if (meta !== "") validateMetadata(input, meta);
  return new Version(input, majorDigits, minorDigits, patchDigits, pre, meta);
}

/**
 * Returns `input` parsed as Masterminds/semver v3 `StrictNewVersion`: exactly
 * `MAJOR.MINOR.PATCH[-PRE][+META]`, no `v`, no leading zeros.
 *
 * Throws a {@link SemverError}: `EMPTY_STRING`, `INVALID_SEMVER` (not three
 * dot-separated parts, or an empty number), `INVALID_CHARACTERS`,
 * `SEGMENT_STARTS_ZERO`, `SEGMENT_OUT_OF_RANGE`, `INVALID_PRERELEASE`,
 * `INVALID_METADATA`.
 *
 * @example
 * ```ts
 * import { parseStrictVersion } from "@kubeimg/policy/semver";
 *
 * parseStrictVersion("1.2.3-beta.1").prerelease; // "beta.1"
 * parseStrictVersion("v1.2.3");                  // throws INVALID_CHARACTERS
 * ```
 */
export function parseStrictVersion(input: string, options: SemverOptions = {}): Version {
  if (input === "") fail("EMPTY_STRING", input);
  if (tooLong(input, options)) failTooLong(input);
  const first = input.indexOf(".");
  const second = first < 0 ? -1 : input.indexOf(".", first + 1);
  if (second < 0) fail("INVALID_SEMVER", input);
  const parts = [input.slice(0, first), input.slice(first + 1, second), input.slice(second + 1)];
  let last = parts[2] as string;
  let meta = "";
  let pre = "";
  const plus = last.indexOf("+");
  if (plus >= 0) {
    meta = last.slice(plus + 1);
    last = last.slice(0, plus);
    validateMetadata(input, meta);
  }
  const dash = last.indexOf("-");
  if (dash >= 0) {
    pre = last.slice(dash + 1);
    last = last.slice(0, dash);
    validatePrerelease(input, pre);
  }
  parts[2] = last;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      if (!isDigit(part.charCodeAt(i))) fail("INVALID_CHARACTERS", input);
    }
    if (part.length > 1 && part.charCodeAt(0) === 0x30) fail("SEGMENT_STARTS_ZERO", input);
  }
  const digits = parts.map((part) => {
    if (part === "") {
      // Go's strconv.ParseUint("") error, returned unwrapped by StrictNewVersion.
      throw new SemverError(
        "INVALID_SEMVER",
        input,
        'strconv.ParseUint: parsing "": invalid syntax',
      );
    }
    if (exceedsUint64(part)) {
      throw new SemverError(
        "SEGMENT_OUT_OF_RANGE",
        input,
        `strconv.ParseUint: parsing "${part}": value out of range`,
      );
    }
    return part;
  });
  return new Version(
    input,
    digits[0] as string,
    digits[1] as string,
    digits[2] as string,
    pre,
    meta,
  );
}

/**
 * Returns the tag parsed as Flux does before ranking it
 * (`fluxcd/pkg/version.ParseVersion` v0.16.0): the tag must split on `.` into
 * exactly three pieces (at most three are taken, so `1.2.3.4` passes this
 * test and then fails the parse), and is then parsed by {@link parseVersion}.
 * So `1.2` and `v1` are rejected while `v1.2.3` and `1-2.3.4` are accepted.
 *
 * @example
 * ```ts
 * import { parseTagVersion } from "@kubeimg/policy/semver";
 *
 * parseTagVersion("v1.2.3").toString(); // "1.2.3"
 * parseTagVersion("1.2");               // throws INVALID_SEMVER
 * ```
 */
export function parseTagVersion(tag: string, options: SemverOptions = {}): Version {
  const first = tag.indexOf(".");
  if (first < 0 || tag.indexOf(".", first + 1) < 0) fail("INVALID_SEMVER", tag);
  return parseVersion(tag, options);
}

/**
 * Returns `input` parsed as {@link parseVersion} (Masterminds `NewVersion`),
 * or undefined where that throws. Cheap on a miss: the grammar is scanned
 * without throwing, so only the rare post-match failures (a number past
 * 2^64-1, a bad pre-release) cost an exception.
 */
export function tryParseVersion(input: string, options: SemverOptions = {}): Version | undefined {
  if (tooLong(input, options)) return undefined;
  try {
    return scanVersion(input);
  } catch {
    return undefined;
  }
}

/**
 * Returns the tag parsed as {@link parseTagVersion}, or undefined when it is
 * not a version. Used on every tag of a repository, where a non-version is
 * an ordinary miss, not an error.
 *
 * @example
 * ```ts
 * import { tryParseTagVersion } from "@kubeimg/policy/semver";
 *
 * tryParseTagVersion("latest"); // undefined
 * ```
 */
export function tryParseTagVersion(tag: string, options: SemverOptions = {}): Version | undefined {
  const first = tag.indexOf(".");
  if (first < 0 || tag.indexOf(".", first + 1) < 0) return undefined;
  if (tooLong(tag, options)) return undefined;
  try {
    return scanVersion(tag);
  } catch {
    return undefined;
  }
}
