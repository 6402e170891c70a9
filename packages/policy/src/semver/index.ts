export { type Constraints, parseConstraints } from "./constraints.js";
export { isSemverError, SemverError, type SemverErrorCode } from "./errors.js";
export {
  type Comparator,
  type Constraint,
  type ConstraintMiss,
  comparators,
  describeMiss,
  type Operator,
} from "./operators.js";
export { type SemverRelease, semverReleases } from "./release.js";
export {
  comparePrerelease,
  compareVersions,
  parseStrictVersion,
  parseTagVersion,
  parseVersion,
  type SemverOptions,
  tryParseTagVersion,
  tryParseVersion,
  Version,
} from "./version.js";
