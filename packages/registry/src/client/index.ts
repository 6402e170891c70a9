export {
  RegistryError,
  type RegistryErrorCode,
  type RegistryErrorDetails,
} from "../errors/index.js";
export type { AuthChallenge } from "../http/challenge.js";
export type { RegistryImage } from "../image/index.js";
export type { FetchedBlob, GetBlobOptions } from "./blobs.js";
export {
  type CredentialProvider,
  keyringCredentials,
  type RegistryCredential,
} from "./credentials.js";
export type { Manifest, ManifestDescriptor } from "./manifests.js";
export type {
  RateLimitInfo,
  RegistryCallOptions,
  RegistryClientOptions,
  RegistryHostOptions,
  RegistryLimits,
} from "./options.js";
export {
  createRegistryClient,
  type ListTagsOptions,
  type PingResult,
  type RegistryClient,
} from "./registry-client.js";
