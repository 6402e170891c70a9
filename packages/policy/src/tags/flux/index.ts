export { parseIntervalMillis } from "./duration.js";
export {
  isTagPolicyError,
  type PolicyIssue,
  TagPolicyError,
  type TagPolicyErrorCode,
} from "./errors.js";
export { excludeTags } from "./exclusion.js";
export {
  explainTagSelection,
  type TagExplanation,
  type TagSelectionExplanation,
  type TagVerdict,
} from "./explain.js";
export { compileTagFilter, type TagFilter } from "./filter.js";
export {
  type Condition,
  conditionSchema,
  FLUX_IMAGE_API_VERSIONS,
  type FluxImageApiVersion,
  type ImagePolicy,
  type ImagePolicySpec,
  type ImagePolicyStatus,
  type ImageRef,
  imagePolicySchema,
  imagePolicySpecSchema,
  imagePolicyStatusSchema,
  imagePolicyV1beta1Schema,
  imagePolicyV1beta2Schema,
  imageRefSchema,
} from "./image-policy-schema.js";
export {
  type ImageRepository,
  type ImageRepositorySpec,
  imageRepositorySchema,
  imageRepositorySpecSchema,
  imageRepositoryV1beta1Schema,
  imageRepositoryV1beta2Schema,
} from "./image-repository-schema.js";
export { MemoryRegistry } from "./memory.js";
export {
  type FluxObjectOptions,
  parseImagePolicy,
  parseImagePolicySpec,
  parseImageRepository,
  safeParseImagePolicy,
} from "./objects.js";
export { type KeyVerdict, type Policer, policerFromSpec } from "./policers.js";
export {
  type DigestResolver,
  type ImagePolicyResolution,
  type ResolveImagePolicyOptions,
  resolveImagePolicy,
  type TagLister,
} from "./resolve.js";
export {
  type CompiledTagPolicy,
  compileTagPolicy,
  safeSelectLatestTag,
  selectLatestTag,
} from "./select.js";
export {
  composeReadyMessage,
  conditionReasons,
  type DigestReflectionPolicy,
  nextConditions,
  nextImageRefs,
  planDigestReflection,
  type ReconcileOutcome,
} from "./status.js";
export type {
  ImagePolicyChoice,
  OrderPolicySpec,
  SemverPolicySpec,
  TagFilterSpec,
  TagSelectionPolicy,
} from "./types.js";
