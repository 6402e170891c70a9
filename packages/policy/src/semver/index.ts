export { type Constraints, parseConstraints } from "./constraints.js";
export { SemverError, type SemverErrorCode } from "./errors.js";
export {
  type Comparator,
  type Constraint,
  type ConstraintMiss,
  describeMiss,
  type Operator,
} from "./operators.js";
export { type SemverRelease, semverReleases } from "./release.js";
export {
  compareVersions,
  parseStrictVersion,
  parseTagVersion,
  parseVersion,
  type SemverOptions,
  tryParseTagVersion,
  Version,
} from "./version.js";
