export { type AvailabilityCheckerOptions, createAvailabilityChecker } from "./availability.js";
export type { AdapterCredentials, PullSecretGetter } from "./credentials.js";
export {
  createDigestResolver,
  createTagLister,
  type TagAdapterOptions,
} from "./tag-lister.js";
export { createTagMetadataSource, type TagMetadataSourceOptions } from "./tag-metadata.js";
