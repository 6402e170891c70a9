export { TagPolicyError } from "./errors.js";
export { excludeTags } from "./exclusion.js";
export {
  explainTagSelection,
  type TagExplanation,
  type TagSelectionExplanation,
  type TagVerdict,
} from "./explain.js";
export {
  FLUX_IMAGE_API_VERSIONS,
  type ImagePolicy,
  type ImagePolicySpec,
  type ImagePolicyStatus,
} from "./image-policy-schema.js";
export type { ImageRepository, ImageRepositorySpec } from "./image-repository-schema.js";
export { MemoryRegistry } from "./memory.js";
export {
  type FluxObjectOptions,
  parseImagePolicy,
  parseImageRepository,
  safeParseImagePolicy,
} from "./objects.js";
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
export type { TagSelectionPolicy } from "./types.js";
