export {
  ARGOCD_ANNOTATION_PREFIX,
  type ArgoAnnotationsConfig,
  type ArgoConfig,
  type ArgoImageUpdaterConfig,
  type ArgoUpdateSettings,
} from "./argocd/config.js";
export { argoVersionConstraint } from "./argocd/constraint.js";
export {
  type ArgoSelectOptions,
  type ArgoStrategy,
  argoStrategy,
  selectArgoTag,
} from "./argocd/select.js";
export {
  type ComparedDialect,
  type CompareTagSelectionsInput,
  compareTagSelections,
  type DialectPick,
  type PickDifference,
  type TagSelectionComparison,
} from "./dialect/compare.js";
export { isTagDialectError, TagDialectError, type TagDialectErrorCode } from "./dialect/errors.js";
export {
  type GuardedSelection,
  guardSelection,
  type SelectionGuards,
  tagOrders,
} from "./dialect/guards.js";
export {
  type CollectTagInfoOptions,
  collectTagInfo,
  MemoryTagMetadataSource,
  type MetadataNeed,
  type MetadataRepository,
  needsTagMetadata,
  type TagImageMetadata,
  type TagMetadataCallOptions,
  TagMetadataError,
  type TagMetadataErrorCode,
  type TagMetadataSource,
} from "./dialect/metadata.js";
export {
  type Translation,
  translateFluxToArgo,
  translateFluxToKargo,
  translateKargoToFlux,
} from "./dialect/translate.js";
export type {
  DialectOutcome,
  DialectOutcomeCode,
  DialectSelection,
  DialectTagExplanation,
  DialectVerdict,
  TagDialect,
  TagInfo,
} from "./dialect/types.js";
export {
  type ArgoConfigObject,
  type DialectObjectKind,
  type DialectObjectOptions,
  dialectObjectKind,
  type KargoSubscriptionObject,
  readArgoApplication,
  readArgoImageUpdater,
  readKargoWarehouse,
} from "./dialect-objects.js";
export { parseIntervalMillis } from "./duration.js";
export {
  isTagPolicyError,
  type PolicyIssue,
  TagPolicyError,
  type TagPolicyErrorCode,
} from "./errors.js";
export {
  explainTagSelection,
  type TagExplanation,
  type TagSelectionExplanation,
  type TagVerdict,
} from "./explain.js";
export { compileTagFilter, type TagFilter } from "./filter.js";
export {
  type FluxObjectOptions,
  parseImagePolicy,
  parseImagePolicySpec,
  parseImageRepository,
  safeParseImagePolicy,
} from "./flux-objects.js";
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
export { type KargoSelectOptions, selectKargoTag } from "./kargo/select.js";
export {
  type DefaultedKargoSubscription,
  defaultKargoSubscription,
  type KargoImageSubscription,
  type KargoStrategy,
  validateKargoSubscription,
} from "./kargo/subscription.js";
export { MemoryRegistry } from "./memory.js";
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
