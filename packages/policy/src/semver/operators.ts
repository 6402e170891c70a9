/**
 * The constraint operators of Masterminds/semver v3, one comparator each.
 *
 * Every comparator answers for one version against one parsed constraint and
 * returns `undefined` when the version satisfies it, or the reason it does
 * not (a {@link ConstraintMiss}, turned into Masterminds' own `Validate`
 * message by {@link describeMiss}). Returning a constant instead of building
 * a message keeps the check allocation-free on the hot path.
 *
 * The pre-release rule is the same in every comparator: a version with a
 * pre-release fails unless `includePrerelease` is set, which the caller sets
 * for a whole AND group when any constraint of that group has a pre-release
 * (Masterminds' `containsPre`, unlike npm's same-tuple rule).
 */
import { strconv } from "@kubeimg/core/internal";
import { type SemverRelease, semverRelease } from "./release.js";
import { compareDigits, comparePrerelease, compareVersions, type Version } from "./version.js";

/** The operators a constraint may start with (`""` is no operator).
 *
 * @inline
 */
export type Operator = "" | "=" | "!=" | ">" | "<" | ">=" | "=>" | "<=" | "=<" | "~" | "~>" | "^";

/** One parsed constraint such as `>=1.2`, `~1.x` or `!=2.0.0-rc.1`. */
export interface Constraint {
  /** The operator as written. */
  readonly operator: Operator;
  /** The version as written after the operator (Masterminds `orig`). */
  readonly original: string;
  /** The version compared against, wildcards and missing parts as 0. */
  readonly version: Version;
  /** True when the version had a wildcard or missing part anywhere. */
  readonly dirty: boolean;
  /** True when the minor (and so the patch) was a wildcard or missing: `1`, `1.x`. */
  readonly minorDirty: boolean;
  /** True when only the patch was a wildcard or missing: `1.2`, `1.2.x`. */
  readonly patchDirty: boolean;
}

/** Why a version does not satisfy a constraint.
 *
 * @inline
 */
export type ConstraintMiss =
  | "PRERELEASE"
  | "EQUAL"
  | "NOT_EQUAL"
  | "LESS"
  | "LESS_OR_EQUAL"
  | "GREATER"
  | "GREATER_OR_EQUAL"
  | "MAJOR_DIFFERS"
  | "MAJOR_MINOR_DIFFERS"
  | "MINOR_DIFFERS"
  | "MINOR_DIFFERS_MAJOR_ZERO"
  | "PATCH_DIFFERS_MAJOR_MINOR_ZERO";

/** Checks one version against one constraint.
 *
 * @inline
 */
export type Comparator = (
  v: Version,
  c: Constraint,
  includePrerelease: boolean,
) => ConstraintMiss | undefined;

/** `!=`: anything but the version; a wildcard excludes its whole range. */
function notEqual(v: Version, c: Constraint, includePre: boolean): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  const con = c.version;
  if (c.dirty) {
    if (con.majorDigits !== v.majorDigits) return undefined;
    if (con.minorDigits !== v.minorDigits && !c.minorDirty) return undefined;
    if (c.minorDirty) return "EQUAL";
    if (con.patchDigits !== v.patchDigits && !c.patchDirty) return undefined;
    if (c.patchDirty) {
      if (v.prerelease !== "" || con.prerelease !== "") {
        return comparePrerelease(v.prerelease, con.prerelease) !== 0 ? undefined : "EQUAL";
      }
      return "EQUAL";
    }
  }
  return compareVersions(v, con) === 0 ? "EQUAL" : undefined;
}

/** `>`: strictly greater; `>1` means 2.0.0 or more and `>1.2` means 1.3.0 or more. */
function greaterThan(v: Version, c: Constraint, includePre: boolean): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  const con = c.version;
  if (c.dirty) {
    const major = compareDigits(v.majorDigits, con.majorDigits);
    if (major > 0) return undefined;
    if (major < 0 || c.minorDirty) return "LESS_OR_EQUAL";
    if (c.patchDirty) {
      return compareDigits(v.minorDigits, con.minorDigits) > 0 ? undefined : "LESS_OR_EQUAL";
    }
  }
  return compareVersions(v, con) === 1 ? undefined : "LESS_OR_EQUAL";
}

/** `<`: strictly lower. */
function lessThan(v: Version, c: Constraint, includePre: boolean): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  return compareVersions(v, c.version) < 0 ? undefined : "GREATER_OR_EQUAL";
}

/** `>=` and `=>`: greater or equal. */
function greaterThanOrEqual(
  v: Version,
  c: Constraint,
  includePre: boolean,
): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  return compareVersions(v, c.version) >= 0 ? undefined : "LESS";
}

/** `<=` and `=<`: lower or equal; `<=1.2` admits all of 1.2.x. */
function lessThanOrEqual(
  v: Version,
  c: Constraint,
  includePre: boolean,
): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  const con = c.version;
  if (!c.dirty) return compareVersions(v, con) <= 0 ? undefined : "GREATER";
  const major = compareDigits(v.majorDigits, con.majorDigits);
  if (major > 0) return "GREATER";
  if (major === 0 && compareDigits(v.minorDigits, con.minorDigits) > 0 && !c.minorDirty) {
    return "GREATER";
  }
  return undefined;
}

/**
 * `~` and `~>`: patch-level changes (`~1.2.3` is `>=1.2.3 <1.3.0`), minor-level
 * when the minor is missing (`~1` is `>=1.0.0 <2.0.0`); `~0.0.0` matches all.
 */
function tilde(v: Version, c: Constraint, includePre: boolean): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  const con = c.version;
  if (compareVersions(v, con) < 0) return "LESS";
  if (
    con.majorDigits === "0" &&
    con.minorDigits === "0" &&
    con.patchDigits === "0" &&
    !c.minorDirty &&
    !c.patchDirty
  ) {
    return undefined;
  }
  if (v.majorDigits !== con.majorDigits) return "MAJOR_DIFFERS";
  if (v.minorDigits !== con.minorDigits && !c.minorDirty) return "MAJOR_MINOR_DIFFERS";
  return undefined;
}

/** No operator and `=`: equality, or `~` when the version has a wildcard or missing part. */
function tildeOrEqual(v: Version, c: Constraint, includePre: boolean): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  if (c.dirty) return tilde(v, c, includePre);
  return compareVersions(v, c.version) === 0 ? undefined : "NOT_EQUAL";
}

/**
 * `^`: changes that do not modify the left-most non-zero number (`^1.2.3` is
 * `>=1.2.3 <2.0.0`, `^0.2.3` is `>=0.2.3 <0.3.0`, `^0.0.3` is `=0.0.3`).
 */
function caret(v: Version, c: Constraint, includePre: boolean): ConstraintMiss | undefined {
  if (v.prerelease !== "" && !includePre) return "PRERELEASE";
  const con = c.version;
  if (compareVersions(v, con) < 0) return "LESS";
  if (con.majorDigits !== "0" || c.minorDirty) {
    return v.majorDigits === con.majorDigits ? undefined : "MAJOR_DIFFERS";
  }
  if (v.majorDigits !== "0") return "MAJOR_DIFFERS";
  if (con.minorDigits !== "0" || c.patchDirty) {
    return v.minorDigits === con.minorDigits ? undefined : "MINOR_DIFFERS_MAJOR_ZERO";
  }
  if (v.minorDigits !== "0") return "MINOR_DIFFERS";
  return con.patchDigits === v.patchDigits ? undefined : "PATCH_DIFFERS_MAJOR_MINOR_ZERO";
}

/**
 * The operator table (Masterminds `constraintOps`): one comparator per
 * operator, aliases sharing theirs. A comparator returns the code of the
 * miss (`~1.2` against 1.3.0 is `"MAJOR_MINOR_DIFFERS"`), or undefined.
 */
export const comparators: Readonly<Record<Operator, Comparator>> = Object.freeze({
  "": tildeOrEqual,
  "=": tildeOrEqual,
  "!=": notEqual,
  ">": greaterThan,
  "<": lessThan,
  ">=": greaterThanOrEqual,
  "=>": greaterThanOrEqual,
  "<=": lessThanOrEqual,
  "=<": lessThanOrEqual,
  "~": tilde,
  "~>": tilde,
  "^": caret,
});

/**
 * Masterminds' `Validate` message templates, by miss; {@link describeMiss}
 * passes both texts quoted (v3.5.0) or bare (v3.4.0).
 */
const missMessages: Readonly<Record<ConstraintMiss, (v: string, c: string) => string>> = {
  PRERELEASE: (v) =>
    `${v} is a prerelease version and the constraint is only looking for release versions`,
  EQUAL: (v, c) => `${v} is equal to ${c}`,
  NOT_EQUAL: (v, c) => `${v} is not equal to ${c}`,
  LESS: (v, c) => `${v} is less than ${c}`,
  LESS_OR_EQUAL: (v, c) => `${v} is less than or equal to ${c}`,
  GREATER: (v, c) => `${v} is greater than ${c}`,
  GREATER_OR_EQUAL: (v, c) => `${v} is greater than or equal to ${c}`,
  MAJOR_DIFFERS: (v, c) => `${v} does not have same major version as ${c}`,
  MAJOR_MINOR_DIFFERS: (v, c) => `${v} does not have same major and minor version as ${c}`,
  MINOR_DIFFERS: (v, c) => `${v} does not have same minor version as ${c}`,
  MINOR_DIFFERS_MAJOR_ZERO: (v, c) =>
    `${v} does not have same minor version as ${c}. Expected minor versions to match when constraint major version is 0`,
  PATCH_DIFFERS_MAJOR_MINOR_ZERO: (v, c) =>
    `${v} does not equal ${c}. Expect version and constraint to equal when major and minor versions are 0`,
};

/**
 * Returns Masterminds' message for a miss, such as `"1.0.0" is less than "2.0"`:
 * v3.5.0 (the default) quotes both texts as Go's `%q` does
 * (Masterminds/semver#278), v3.4.0 prints them as they are (`%s`).
 *
 * @example
 * ```ts
 * import { describeMiss, parseVersion } from "@kubeimg/policy/semver";
 *
 * describeMiss("LESS", parseVersion("1.0.0"), "2.0"); // '"1.0.0" is less than "2.0"'
 * describeMiss("LESS", parseVersion("1.0.0"), "2.0", "v3.4.0"); // "1.0.0 is less than 2.0"
 * ```
 */
export function describeMiss(
  miss: ConstraintMiss,
  v: Version,
  constraintText: string,
  release: SemverRelease = "v3.5.0",
): string {
  return semverRelease(release) === "v3.4.0"
    ? missMessages[miss](v.toString(), constraintText)
    : missMessages[miss](strconv.Quote(v.toString()), strconv.Quote(constraintText));
}
