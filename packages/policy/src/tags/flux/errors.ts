import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * The codes a {@link TagPolicyError} can carry: the failures of Flux's
 * `applyPolicy` (see the tagpolicy conformance suite), plus
 * `INVALID_IMAGE_POLICY` / `INVALID_IMAGE_REPOSITORY` for an object that
 * fails its schema and `UNKNOWN_FIELD` for a field its CRD does not know.
 *
 * @inline
 */
export type TagPolicyErrorCode =
  | "INVALID_POLICY"
  | "NO_TAGS"
  | "INVALID_PATTERN"
  | "ALL_TAGS_FILTERED"
  | "NO_MATCHING_VERSION"
  | "INVALID_NUMBER"
  | "INVALID_IMAGE_POLICY"
  /** An `ImageRepository` object that fails the schema (`issues` name each field). */
  | "INVALID_IMAGE_REPOSITORY"
  /**
   * A Flux object holds fields its CRD does not know (under the default
   * strict validation); `issues` name each, with the closest known field.
   */
  | "UNKNOWN_FIELD";

/**
 * Thrown when a tag policy cannot be built or cannot select a tag. `message`
 * is the text Flux's reconciler reports for the same failure (for example
 * `unable to determine latest version from provided list`).
 *
 * @example
 * ```ts
 * import { selectLatestTag, TagPolicyError } from "@kubeimg/policy/tags";
 *
 * try { selectLatestTag([], { policy: { alphabetical: {} } }) } catch (e) {
 *   if (e instanceof TagPolicyError) console.log(e.code); // NO_TAGS
 * }
 * ```
 */
export class TagPolicyError extends KubeimgError {
  override readonly name = "TagPolicyError";
  readonly code: TagPolicyErrorCode;
  /** The offending input: the range, order, pattern or tag, when there is one. */
  readonly input: string | undefined;
  /** For `INVALID_IMAGE_POLICY`: each problem with its field path and bad value. */
  readonly issues: readonly PolicyIssue[];

  constructor(
    code: TagPolicyErrorCode,
    message: string,
    options: { input?: string; issues?: readonly PolicyIssue[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.input = options.input;
    this.issues = options.issues ?? [];
  }
}

/** One schema problem of an `ImagePolicy` object.
 *
 * @inline
 */
export interface PolicyIssue {
  /** The field path, such as `spec.policy.semver.range`. */
  readonly path: string;
  /** The value found there (undefined when the field is missing). */
  readonly value: unknown;
  /** What is wrong with it. */
  readonly message: string;
  /** For an unknown field: the known field whose name is closest, when one is close. */
  readonly suggestion?: string;
}

const codes: ReadonlySet<string> = new Set<TagPolicyErrorCode>([
  "INVALID_POLICY",
  "NO_TAGS",
  "INVALID_IMAGE_REPOSITORY",
  "UNKNOWN_FIELD",
  "INVALID_PATTERN",
  "ALL_TAGS_FILTERED",
  "NO_MATCHING_VERSION",
  "INVALID_NUMBER",
  "INVALID_IMAGE_POLICY",
]);

/**
 * Returns true when `value` is a {@link TagPolicyError} from any copy of the
 * package: it checks `name` and `code`.
 */
export const isTagPolicyError = errorGuard<TagPolicyError>("TagPolicyError", codes);

/** Flux's `Latest([])` error, shared by every policer. */
export function allTagsFiltered(): TagPolicyError {
  return new TagPolicyError("ALL_TAGS_FILTERED", "version list argument cannot be empty");
}
