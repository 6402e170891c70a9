export type {
  BlobDescriptor,
  ImageConfigSummary,
  IndexEntry,
} from "./documents.js";
export {
  type ImagePlatforms,
  type ListedEntry,
  type ListPlatformsOptions,
  listImagePlatforms,
} from "./list.js";
export {
  type PlatformResolution,
  type ResolvedIndex,
  type ResolvePlatformOptions,
  resolveImagePlatform,
} from "./resolve.js";
export { imageServesPlatforms, type PlatformsServed } from "./serves.js";
