/**
 * Structural copies of the interfaces `@kubeimg/policy` declares, so the
 * registry implements them without depending on policy at runtime (imports
 * point down only: policy never imports registry, and registry does not
 * import policy). A test checks that they stay assignable.
 */
import type { PlatformInput } from "@kubeimg/core/platform";
import type { RegistryImage } from "../image/index.js";

/** Whether an image can be pulled, as `@kubeimg/policy/routing` `Availability`. */
export type ImageAvailability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string; readonly retryable: boolean };

/** A reference to a pull Secret, as `@kubeimg/policy/routing` `CredentialSecretRef`. */
export interface PullSecretRef {
  readonly namespace: string;
  readonly name: string;
}

/** Per-call options of the adapters. */
export interface AdapterCallOptions {
  readonly signal?: AbortSignal;
  /** For the availability checker: the platforms the image must serve (see `createAvailabilityChecker`). */
  readonly platforms?: readonly PlatformInput[];
}

/** As `@kubeimg/policy/routing` `AvailabilityChecker`. */
export interface ImageAvailabilityChecker {
  check(
    image: string,
    credentialSecret: PullSecretRef | undefined,
    options: AdapterCallOptions,
  ): Promise<ImageAvailability>;
}

/** As `@kubeimg/policy/tags` `TagLister`. */
export interface RepositoryTagLister {
  listTags(repository: RegistryImage, options: AdapterCallOptions): Promise<string[]>;
}

/** As `@kubeimg/policy/tags` `DigestResolver`. */
export interface ImageDigestResolver {
  resolveDigest(image: RegistryImage, options: AdapterCallOptions): Promise<string>;
}

/** As `@kubeimg/policy/tags` `MetadataRepository`. */
export interface MetadataRepository {
  readonly domain: string;
  readonly path: string;
}

/** As `@kubeimg/policy/tags` `TagImageMetadata`. */
export interface TagImageMetadata {
  readonly created: string | undefined;
  readonly digest: string;
  readonly platforms: readonly string[] | undefined;
}

/** As `@kubeimg/policy/tags` `TagMetadataCallOptions`. */
export interface TagMetadataCallOptions {
  readonly signal?: AbortSignal;
}

/** As `@kubeimg/policy/tags` `TagMetadataSource`. */
export interface TagMetadataSource {
  tagMetadata(
    repository: MetadataRepository,
    tag: string,
    options: TagMetadataCallOptions,
  ): Promise<TagImageMetadata>;
}
