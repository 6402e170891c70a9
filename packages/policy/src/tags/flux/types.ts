/**
 * The parts of a Flux `ImagePolicy` spec that tag selection reads, as plain
 * data. Field names are the CRD's (`image.toolkit.fluxcd.io/v1`).
 */
import type { SemverRelease } from "../../semver/index.js";

/** `spec.policy.semver`.
 *
 * @inline
 */
export interface SemverPolicySpec {
  /** A Masterminds/semver v3 constraint, such as `>=1.0.0 <2.0.0`. */
  readonly range: string;
}

/** `spec.policy.alphabetical` and `spec.policy.numerical`.
 *
 * @inline
 */
export interface OrderPolicySpec {
  /** `asc` (the default) selects the greatest tag, `desc` the smallest. Case is ignored. */
  readonly order?: string | undefined;
}

/** `spec.policy`: exactly one of the three is meant to be set.
 *
 * @inline
 */
export interface ImagePolicyChoice {
  readonly semver?: SemverPolicySpec | undefined;
  readonly alphabetical?: OrderPolicySpec | undefined;
  readonly numerical?: OrderPolicySpec | undefined;
}

/** `spec.filterTags`.
 *
 * @inline
 */
export interface TagFilterSpec {
  /** A Go (RE2) regular expression; a tag is kept when it matches anywhere. `""` keeps every tag. */
  readonly pattern?: string | undefined;
  /** A Go `Expand` template (`$name`, `${1}`) building the key the policy ranks; `""` ranks the tag itself. */
  readonly extract?: string | undefined;
}

/** What {@link selectLatestTag} needs: `spec.policy` and `spec.filterTags`. */
export interface TagSelectionPolicy {
  readonly policy: ImagePolicyChoice;
  readonly filterTags?: TagFilterSpec | undefined;
  /**
   * The Masterminds/semver release the controller builds with: `"v3.5.0"`
   * (image-reflector-controller 1.2.x, the default) or `"v3.4.0"` (1.1.x),
   * which quote range errors differently and differ on very long ranges.
   */
  readonly semver?: SemverRelease | undefined;
}
