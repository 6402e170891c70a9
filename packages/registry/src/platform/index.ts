export {
  type ImagePlatforms,
  type ListedEntry,
  type ListPlatformsOptions,
  listImagePlatforms,
} from "./list.js";
export {
  type PlatformResolution,
  type ResolvePlatformOptions,
  resolveImagePlatform,
} from "./resolve.js";
