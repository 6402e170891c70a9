export {
  DISTRIBUTION_ERROR_CODES,
  isRegistryError,
  RegistryError,
  type RegistryErrorCode,
  type RegistryErrorDetails,
} from "../errors/index.js";
export type { AuthChallenge } from "../http/challenge.js";
export type { RegistryImage } from "../image/index.js";
export {
  DEFAULT_BLOB_BYTES,
  type FetchedBlob,
  type GetBlobOptions,
} from "./blobs.js";
export {
  basicAuthorization,
  type CredentialProvider,
  keyringCredentials,
  type RegistryCredential,
} from "./credentials.js";
export type { Manifest, ManifestDescriptor } from "./manifests.js";
export { MANIFEST_ACCEPT, MANIFEST_MEDIA_TYPES } from "./media-types.js";
export {
  DEFAULT_REGISTRY_LIMITS,
  type RateLimitInfo,
  type RegistryCallOptions,
  type RegistryClientOptions,
  type RegistryHostOptions,
  type RegistryLimits,
} from "./options.js";
export {
  createRegistryClient,
  type ListTagsOptions,
  type PingResult,
  type RegistryClient,
} from "./registry-client.js";
export { type CleanTagsOptions, cleanTags, excludeSignatureTags } from "./tags.js";
