export { type Constraints, parseConstraints } from "./constraints.js";
export { SemverError } from "./errors.js";
export { type Constraint, describeMiss } from "./operators.js";
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
