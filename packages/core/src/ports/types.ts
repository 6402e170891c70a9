/**
 * The declarations of `@kubeimg/core/ports` (see its `index.ts`).
 *
 * @module
 */

import type { PlatformInput } from "../platform/index.js";
import type { NamedReference } from "../reference/index.js";

/** What every port call may be given: a signal to stop and settle promptly when it aborts. */
export interface PortCallOptions {
  readonly signal?: AbortSignal | undefined;
}

// --- Secrets -----------------------------------------------------------------

/** A Kubernetes Secret named by namespace and name (a pull secret, a kuik `credentialSecret`). */
export interface SecretRef {
  readonly namespace: string;
  readonly name: string;
}

/**
 * Reads Secrets, e.g. from the Kubernetes API. The answer is the Secret
 * object as the API returns it (validated by whoever reads it, see
 * `@kubeimg/core/keyring`), or `undefined` when it does not exist.
 */
export interface SecretReader {
  getSecret(ref: SecretRef, options: PortCallOptions): Promise<unknown>;
}

// --- Availability ------------------------------------------------------------

/** The answer of one availability probe. */
export type Availability =
  | { readonly available: true }
  | {
      readonly available: false;
      /** Why (status code, timeout, refused connection, …). */
      readonly reason: string;
      /**
       * True when asking again later may succeed (timeout, refused connection,
       * 5xx, rate limit); false for a definite answer such as 404 or 401.
       */
      readonly retryable: boolean;
    };

/**
 * Checks whether an image can be pulled, with the credentials of
 * `credentialSecret` when one is named. The image arrives parsed
 * (`parseNormalizedNamed`), so an implementation reads its registry and
 * repository from it rather than from text. Implementations honour
 * `options.signal`.
 */
export interface AvailabilityChecker {
  check(
    image: NamedReference,
    credentialSecret: SecretRef | undefined,
    options: AvailabilityCheckOptions,
  ): Promise<Availability>;
}

/** Per-call options of {@link AvailabilityChecker.check}. */
export interface AvailabilityCheckOptions extends PortCallOptions {
  /**
   * The platforms the pod may land on (one node's, or every platform of a
   * node pool). When given, an image counts as available only if it can
   * serve each of them, as containerd would pick a manifest for that node;
   * otherwise the answer is unavailable with the reason
   * `available, but no linux/arm64 manifest`. Absent (the default), a
   * checker answers as kube-image-keeper does: the manifest exists.
   * Checkers that do not know platforms ignore it.
   */
  readonly platforms?: readonly PlatformInput[];
}

// --- Tags, digests, tag metadata --------------------------------------------

/** Lists the tags of a repository. */
export interface TagLister {
  /** Returns every tag of `repository`, in the order the registry lists them. */
  listTags(repository: NamedReference, options: PortCallOptions): Promise<string[]>;
}

/** Resolves a tagged reference to the digest of its manifest. */
export interface DigestResolver {
  /** Returns the digest (`sha256:…`) that `image` (a reference with a tag) points to. */
  resolveDigest(image: NamedReference, options: PortCallOptions): Promise<string>;
}

/** What a registry says about the image a tag points to, as tag dialects read it. */
export interface TagImageMetadata {
  /** The image config's `created`, RFC 3339; undefined when the config has none. */
  readonly created: string | undefined;
  /** The digest of the tag's top manifest (the index for a multi-platform image). */
  readonly digest: string;
  /** An index: its platforms (`os/arch[/variant]`); undefined for a single manifest. */
  readonly platforms: readonly string[] | undefined;
  /**
   * A single manifest: its config's platform, `os/arch`, then `/variant`
   * when the config has one (so `""` fields give `/`); absent for an index
   * or a manifest without a config. Argo CD Image Updater drops a single
   * image whose platform is not wanted.
   */
  readonly platform?: string;
}

/** Per-call options of a {@link TagMetadataSource}. */
export type TagMetadataCallOptions = PortCallOptions;

/**
 * Looks up the image metadata of one tag: what the tag dialects' newest-build,
 * digest and platform strategies need (Argo CD Image Updater, Kargo). The
 * repository is a parsed reference; its tag and digest, if any, are ignored.
 */
export interface TagMetadataSource {
  tagMetadata(
    repository: NamedReference,
    tag: string,
    options: TagMetadataCallOptions,
  ): Promise<TagImageMetadata>;
}

// --- Time ----------------------------------------------------------------------

/**
 * The time source, injected so decisions and records are reproducible:
 * milliseconds since the Unix epoch (`Date.now` in production, a fixed or
 * stepped number in tests).
 */
export interface Clock {
  now(): number;
}

/**
 * One-shot timers. `Handle` is whatever the implementation's `setTimeout`
 * returns (Node's `Timeout`, a browser's `number`, a fake's id) and
 * `clearTimeout` takes back; users of the port are generic in it, so
 * `{ setTimeout, clearTimeout }` of any runtime fits without a cast.
 */
export interface Timers<Handle> {
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): Handle;
  /** Cancels a pending `setTimeout`. */
  clearTimeout(handle: Handle): void;
}
