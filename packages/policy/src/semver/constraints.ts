/**
 * Masterminds/semver v3 constraints (`NewConstraint`, `Check`, `Validate`),
 * with `Constraints.IncludePrerelease = false` by default as in Flux.
 *
 * ```
 * constraints = and-group *( "||" and-group )
 * and-group   = constraint *( ( 1*WSP / "," *WSP ) constraint )
 * constraint  = *WSP operator *WSP version *WSP
 * range       = version 1*WSP "-" 1*WSP version   ; rewritten to ">= A, <= B" first
 * ```
 *
 * The grammar itself lives in `grammar.ts`; this module follows
 * `NewConstraint` step by step: rewrite hyphen ranges, split on `||`,
 * validate each group, find its constraints, parse each one.
 *
 * npm `semver` ranges are not used anywhere here: they lack `!=`, `=>`, `=<`
 * and comma AND, and admit a pre-release only on the comparator's own
 * `major.minor.patch`, where Masterminds admits any once the AND group names
 * one. Everything below is our own port.
 */
import { strconv } from "@kubeimg/core/internal";
import { SemverError } from "./errors.js";
import {
  findConstraintsInGroup,
  findHyphenRanges,
  isAndGroup,
  matchSingleConstraint,
} from "./grammar.js";
import { type Constraint, comparators, describeMiss, type Operator } from "./operators.js";
import {
  exceedsBytes,
  maxConstraintBytes,
  maxConstraintGroups,
  type SemverRelease,
  semverRelease,
} from "./release.js";
import { parseVersion, Version } from "./version.js";

/** A parsed constraint expression: OR of AND groups. */
export interface Constraints {
  /** The expression as given. */
  readonly source: string;
  /** The AND groups, in order. */
  readonly groups: readonly (readonly Constraint[])[];
  /** Per group: whether one of its constraints has a pre-release (Masterminds `containsPre`). */
  readonly containsPrerelease: readonly boolean[];
  /** When true, every group admits pre-releases (Masterminds `IncludePrerelease`). */
  readonly includePrerelease: boolean;
  /** The Masterminds release whose messages `validate` writes. */
  readonly release: SemverRelease;
  /** Returns true when `version` satisfies some AND group (Masterminds `Check`). */
  check(version: Version): boolean;
  /**
   * Returns whether `version` satisfies the constraints and, when it does
   * not, Masterminds' `Validate` reasons (`"1.0.0" is less than "2.0"`, …).
   * With `maxReasons`, at most that many reasons are written out and
   * `omitted` counts the rest (a range of a thousand `||` groups would
   * otherwise give a thousand reasons for every version).
   */
  validate(
    version: Version,
    maxReasons?: number,
  ): { readonly ok: boolean; readonly reasons: readonly string[]; readonly omitted?: number };
  /** Returns Masterminds' `String()`: groups joined by ` || `, constraints by a space. */
  toString(): string;
}

function isWildcard(s: string): boolean {
  return s === "x" || s === "X" || s === "*";
}

/** Masterminds' parse error: the text quoted as Go's `%q` does in v3.5.0 (#278), bare in v3.4.0. */
function improper(input: string, text: string, release: SemverRelease): SemverError {
  return new SemverError(
    "CONSTRAINT_INVALID",
    input,
    `improper constraint: ${release === "v3.4.0" ? text : strconv.Quote(text)}`,
  );
}

/** Mirrors `parseConstraint` in Masterminds' constraints.go. */
function parseSingleConstraint(input: string, text: string, release: SemverRelease): Constraint {
  if (text === "") {
    // Unreachable through parseConstraints (a group always holds a version);
    // Masterminds treats it as "any version".
    return {
      operator: "",
      original: "",
      version: new Version("0.0.0", "0", "0", "0", "", ""),
      dirty: true,
      minorDirty: false,
      patchDirty: false,
    };
  }
  const m = matchSingleConstraint(text);
  if (m === null) throw improper(input, text, release);
  const operator = m[1] as Operator;
  const original = m[2] as string;
  const major = m[3] as string;
  const minor = m[4] as string;
  const patch = m[5] as string;
  const pre = m[6] as string;
  let text2 = original;
  let dirty = false;
  let minorDirty = false;
  let patchDirty = false;
  if (isWildcard(major) || major === "") {
    text2 = `0.0.0${pre}`;
    dirty = true;
  } else if (isWildcard(minor.slice(minor.startsWith(".") ? 1 : 0)) || minor === "") {
    minorDirty = true;
    dirty = true;
    text2 = `${major}.0.0${pre}`;
  } else if (isWildcard(patch.slice(patch.startsWith(".") ? 1 : 0)) || patch === "") {
    dirty = true;
    patchDirty = true;
    text2 = `${major}${minor}.0${pre}`;
  }
  let version: Version;
  try {
    // v3.5.0's version length limit lands here too, as Masterminds' parser error.
    version = parseVersion(text2, { semver: release });
  } catch {
    throw new SemverError("CONSTRAINT_INVALID", input, "constraint parser error");
  }
  return { operator, original, version, dirty, minorDirty, patchDirty };
}

/** Mirrors `rewriteRange`: each `A - B` becomes `>= A, <= B `, first occurrence of the text. */
function rewriteRanges(input: string): string {
  const matches = findHyphenRanges(input);
  if (matches === null) return input;
  let out = input;
  for (const m of matches) {
    const whole = input.slice(m[0], m[1]);
    const from = input.slice(m[2], m[3]);
    const to = input.slice(m[22], m[23]);
    const at = out.indexOf(whole);
    if (at >= 0) out = `${out.slice(0, at)}>= ${from}, <= ${to} ${out.slice(at + whole.length)}`;
  }
  return out;
}

/**
 * Returns the constraint expression parsed as Masterminds/semver v3
 * `NewConstraint` does.
 *
 * Operators: `=`, `!=`, `>`, `<`, `>=`, `=>`, `<=`, `=<`, `~`, `~>`, `^`, none;
 * wildcards `x`, `X`, `*` and missing parts (`1.2`); hyphen ranges `1 - 2`;
 * AND by spaces or commas; OR by `||`. Throws a {@link SemverError} with code
 * `CONSTRAINT_INVALID` and Masterminds' message (`improper constraint: …`
 * or `constraint parser error`).
 *
 * @example
 * ```ts
 * import { parseConstraints, parseVersion } from "@kubeimg/policy/semver";
 *
 * const c = parseConstraints(">= 1.2, < 2 || ^3.x-0");
 * c.check(parseVersion("1.5.0"));       // true
 * c.check(parseVersion("3.1.0-rc.1"));  // true: its group carries a pre-release
 * c.check(parseVersion("1.5.0-rc.1"));  // false
 * ```
 */
export function parseConstraints(
  input: string,
  options: { includePrerelease?: boolean; semver?: SemverRelease | undefined } = {},
): Constraints {
  const release = semverRelease(options.semver);
  const limited = release === "v3.5.0";
  if (limited && exceedsBytes(input, maxConstraintBytes)) {
    throw new SemverError(
      "CONSTRAINT_INVALID",
      input,
      `constraint string is too long (max ${maxConstraintBytes} bytes)`,
    );
  }
  const rewritten = rewriteRanges(input);
  const split = rewritten.split("||");
  if (limited && split.length > maxConstraintGroups) {
    throw new SemverError(
      "CONSTRAINT_INVALID",
      input,
      `too many constraint groups (max ${maxConstraintGroups})`,
    );
  }
  const groups: Constraint[][] = [];
  const containsPrerelease: boolean[] = [];
  for (const group of split) {
    if (!isAndGroup(group)) throw improper(input, group, release);
    const found = findConstraintsInGroup(group);
    const texts = found === null ? [group] : found.map((m) => group.slice(m[0], m[1]));
    const parsed = texts.map((text) => parseSingleConstraint(input, text, release));
    groups.push(parsed);
    containsPrerelease.push(parsed.some((c) => c.version.prerelease !== ""));
  }
  return new ParsedConstraints(
    input,
    groups,
    containsPrerelease,
    options.includePrerelease ?? false,
    release,
  );
}

class ParsedConstraints implements Constraints {
  readonly source: string;
  readonly groups: readonly (readonly Constraint[])[];
  readonly containsPrerelease: readonly boolean[];
  readonly includePrerelease: boolean;
  readonly release: SemverRelease;

  constructor(
    source: string,
    groups: readonly (readonly Constraint[])[],
    containsPrerelease: readonly boolean[],
    includePrerelease: boolean,
    release: SemverRelease,
  ) {
    this.source = source;
    this.groups = groups;
    this.containsPrerelease = containsPrerelease;
    this.includePrerelease = includePrerelease;
    this.release = release;
  }

  check(version: Version): boolean {
    const groups = this.groups;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g] as readonly Constraint[];
      const includePre = this.includePrerelease || (this.containsPrerelease[g] as boolean);
      let ok = true;
      for (let i = 0; i < group.length; i++) {
        const c = group[i] as Constraint;
        if (comparators[c.operator](version, c, includePre) !== undefined) {
          ok = false;
          break;
        }
      }
      if (ok) return true;
    }
    return false;
  }

  validate(
    version: Version,
    maxReasons = Number.POSITIVE_INFINITY,
  ): { ok: boolean; reasons: string[]; omitted?: number } {
    const reasons: string[] = [];
    let omitted = 0;
    const push = (reason: () => string) => {
      if (reasons.length < maxReasons) reasons.push(reason());
      else omitted++;
    };
    let reportedPrerelease = false;
    for (let g = 0; g < this.groups.length; g++) {
      const group = this.groups[g] as readonly Constraint[];
      const includePre = this.includePrerelease || (this.containsPrerelease[g] as boolean);
      let ok = true;
      for (const c of group) {
        if (!includePre && version.prerelease !== "") {
          if (!reportedPrerelease) {
            push(() => describeMiss("PRERELEASE", version, c.original, this.release));
            reportedPrerelease = true;
          }
          ok = false;
          continue;
        }
        const miss = comparators[c.operator](version, c, includePre);
        if (miss !== undefined) {
          push(() => describeMiss(miss, version, c.original, this.release));
          ok = false;
        }
      }
      if (ok) return { ok: true, reasons: [] };
    }
    return omitted > 0 ? { ok: false, reasons, omitted } : { ok: false, reasons };
  }

  toString(): string {
    return this.groups
      .map((group) => group.map((c) => c.operator + c.original).join(" "))
      .join(" || ");
  }
}
