export {
  ATTESTATION_REFERENCE_TYPE,
  type BlobDescriptor,
  type ImageConfigSummary,
  type IndexEntry,
} from "./documents.js";
export {
  DEFAULT_MAX_INDEX_DOCUMENTS,
  DEFAULT_MAX_LISTED_ENTRIES,
  type ImagePlatforms,
  type ListedEntry,
  type ListPlatformsOptions,
  listImagePlatforms,
} from "./list.js";
export {
  DEFAULT_MAX_CONFIG_BYTES,
  DEFAULT_MAX_INDEX_DEPTH,
  type PlatformResolution,
  type ResolvedIndex,
  type ResolvePlatformOptions,
  resolveImagePlatform,
} from "./resolve.js";
export {
  imageServesPlatforms,
  missingPlatformsReason,
  nodeComparer,
  type PlatformsServed,
} from "./serves.js";
