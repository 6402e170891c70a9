/**
 * The `AvailabilityChecker` port of `@kubeimg/core/ports`, over the registry
 * client: one manifest HEAD per image under a short deadline. 404, 401 and
 * 403 all mean "not usable, try the next alternative" (Docker Hub answers
 * 401 for repositories that do not exist); the reason keeps which it was.
 */
import { DockerConfigError } from "@kubeimg/core/keyring";
import {
  type HostPlatform,
  PlatformError,
  type PlatformInput,
  type PlatformsRelease,
  platformsReleases,
} from "@kubeimg/core/platform";
import type {
  Availability,
  AvailabilityChecker,
  AvailabilityCheckOptions,
  SecretRef,
} from "@kubeimg/core/ports";
import type { NamedReference } from "@kubeimg/core/reference";
import type { RegistryClient } from "../client/index.js";
import { isRegistryError, RegistryError } from "../errors/index.js";
import { parseRegistryImage } from "../image/image-name.js";
import { imageServesPlatforms, missingPlatformsReason } from "../platform/serves.js";
import { type AdapterCredentials, checkAdapterOptions, credentialsFor } from "./credentials.js";

/** Refuses a platform list that is not a list of `{ os, architecture, … }` objects with string parts. */
function checkPlatforms(where: string, platforms: unknown): void {
  if (platforms === undefined) return;
  const ok =
    Array.isArray(platforms) &&
    platforms.every(
      (p) =>
        p !== null &&
        typeof p === "object" &&
        typeof (p as { os?: unknown }).os === "string" &&
        typeof (p as { architecture?: unknown }).architecture === "string",
    );
  if (!ok)
    throw new RegistryError(
      "INVALID_OPTION",
      `${where} must be a list of platforms ({ os, architecture })`,
    );
}

/** Options of {@link createAvailabilityChecker}. */
export interface AvailabilityCheckerOptions extends AdapterCredentials {
  readonly client: RegistryClient;
  /** Budget of one check in ms (an admission webhook has ~10 s for all alternatives). Default 3000. */
  readonly timeoutMs?: number;
  /**
   * The platforms every check must serve (a node pool's), unless a call
   * passes its own. Off by default: without platforms a check is
   * kube-image-keeper's manifest HEAD. With them, a check reads the index
   * (a GET, which Docker Hub counts as a pull) and answers unavailable,
   * `available, but no linux/arm64 manifest`, when a platform has nothing.
   */
  readonly platforms?: readonly PlatformInput[];
  /** Completes a platform with an empty OS (see `@kubeimg/core/platform`). */
  readonly host?: HostPlatform;
  /** The containerd/platforms release whose matching decides what serves a platform; default the newest. */
  readonly platformsRelease?: PlatformsRelease;
}

/**
 * Turns a failure into an availability answer with its reason; never throws.
 */
export function availabilityFromError(error: unknown): Availability {
  if (isRegistryError(error)) {
    const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
    return {
      available: false,
      reason: `${error.code}${status}: ${error.message}`,
      retryable: error.retryable,
    };
  }
  if (error instanceof DockerConfigError || error instanceof PlatformError) {
    return { available: false, reason: `${error.code}: ${error.message}`, retryable: false };
  }
  // Anything else is a misconfiguration or a bug: asking again will not help.
  const message =
    error instanceof Error ? error.message : typeof error === "string" ? error : typeof error;
  return { available: false, reason: `ERROR: ${message}`, retryable: false };
}

/**
 * Returns an availability checker: `check(image, secretRef)` answers
 * `{ available: true }` when the registry has a manifest for the image.
 * The image is a parsed reference (used as it is), or, for a caller
 * without one, an image string (read once here).
 *
 * @example
 * ```ts no-run
 * import { parseNormalizedNamed } from "@kubeimg/core/reference";
 * import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
 * import { createRegistryClient } from "@kubeimg/registry/client";
 *
 * // Needs the registry, and a Secret reader (e.g. the Kubernetes API).
 * declare function readSecret(namespace: string, name: string): Promise<unknown>;
 * const checker = createAvailabilityChecker({
 *   client: createRegistryClient(),
 *   getSecret: (ref) => readSecret(ref.namespace, ref.name),
 * });
 * const image = parseNormalizedNamed("quay.io/team/app:1.0");
 * await checker.check(image, { namespace: "team", name: "regcred" }, {});
 * // → { available: true }, or { available: false, reason: "NOT_FOUND (HTTP 404): …", retryable: false }
 * ```
 */
export function createAvailabilityChecker(
  options: AvailabilityCheckerOptions,
): AvailabilityChecker & {
  /** Also takes an image string, not only a parsed reference. */
  check(
    image: NamedReference | string,
    credentialSecret: SecretRef | undefined,
    options: AvailabilityCheckOptions,
  ): Promise<Availability>;
} {
  checkAdapterOptions("createAvailabilityChecker", options);
  checkPlatforms("createAvailabilityChecker: option platforms", options.platforms);
  const release = options.platformsRelease;
  if (release !== undefined && !platformsReleases.includes(release)) {
    throw new RegistryError(
      "INVALID_OPTION",
      `createAvailabilityChecker: option platformsRelease ${JSON.stringify(release)} is not one of ${platformsReleases.join(", ")}`,
    );
  }
  return {
    async check(
      image: NamedReference | string,
      credentialSecret: SecretRef | undefined,
      callOptions: AvailabilityCheckOptions,
    ): Promise<Availability> {
      try {
        const name = typeof image === "string" ? parseRegistryImage(image) : image;
        const credentials = await credentialsFor(options, credentialSecret, callOptions.signal);
        const call = {
          timeoutMs: options.timeoutMs ?? 3000,
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          ...(credentials ? { credentials } : {}),
        };
        const platforms = callOptions.platforms ?? options.platforms;
        if (callOptions.platforms !== undefined)
          checkPlatforms("check: option platforms", callOptions.platforms);
        if (platforms === undefined) {
          await options.client.headManifest(name, call);
          return { available: true };
        }
        const { missing } = await imageServesPlatforms(options.client, name, platforms, {
          ...call,
          ...(options.host ? { host: options.host } : {}),
          ...(options.platformsRelease ? { platformsRelease: options.platformsRelease } : {}),
        });
        if (missing.length > 0) {
          return { available: false, reason: missingPlatformsReason(missing), retryable: false };
        }
        return { available: true };
      } catch (error) {
        return availabilityFromError(error);
      }
    },
  };
}
