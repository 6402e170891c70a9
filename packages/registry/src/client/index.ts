export { RegistryError } from "../errors/index.js";
export type { RegistryImage } from "../image/index.js";
export type { GetBlobOptions } from "./blobs.js";
export {
  type CredentialProvider,
  keyringCredentials,
  type RegistryCredential,
} from "./credentials.js";
export type { Manifest } from "./manifests.js";
export type {
  RegistryCallOptions,
  RegistryClientOptions,
  RegistryHostOptions,
} from "./options.js";
export {
  createRegistryClient,
  type ListTagsOptions,
  type RegistryClient,
} from "./registry-client.js";
