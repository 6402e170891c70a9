/**
 * The `AvailabilityChecker` of `@kubeimg/policy/routing`, over the registry
 * client: one manifest HEAD per image under a short deadline. 404, 401 and
 * 403 all mean "not usable, try the next alternative" (Docker Hub answers
 * 401 for repositories that do not exist); the reason keeps which it was.
 */
import { isDockerConfigError } from "@kubeimg/core/keyring";
import type { RegistryClient } from "../client/index.js";
import { isRegistryError } from "../errors/index.js";
import { parseRegistryImage } from "../image/image-name.js";
import { type AdapterCredentials, checkAdapterOptions, credentialsFor } from "./credentials.js";
import type {
  AdapterCallOptions,
  ImageAvailability,
  ImageAvailabilityChecker,
  PullSecretRef,
} from "./types.js";

/** Options of {@link createAvailabilityChecker}. */
export interface AvailabilityCheckerOptions extends AdapterCredentials {
  readonly client: RegistryClient;
  /** Budget of one check in ms (an admission webhook has ~10 s for all alternatives). Default 3000. */
  readonly timeoutMs?: number;
}

/**
 * Turns a failure into an availability answer with its reason; never throws.
 *
 * @example
 * ```ts
 * availabilityFromError(new RegistryError("NOT_FOUND", "gone", { status: 404 }));
 * // { available: false, reason: "NOT_FOUND (HTTP 404): gone", retryable: false }
 * ```
 */
export function availabilityFromError(error: unknown): ImageAvailability {
  if (isRegistryError(error)) {
    const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
    return {
      available: false,
      reason: `${error.code}${status}: ${error.message}`,
      retryable: error.retryable,
    };
  }
  if (isDockerConfigError(error)) {
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
 *
 * @example
 * ```ts
 * const checker = createAvailabilityChecker({ client, keyring: nodeKeyring, getSecret });
 * await checker.check("quay.io/team/app:1.0", { namespace: "team", name: "regcred" }, { signal });
 * ```
 */
export function createAvailabilityChecker(
  options: AvailabilityCheckerOptions,
): ImageAvailabilityChecker {
  checkAdapterOptions("createAvailabilityChecker", options);
  return {
    async check(
      image: string,
      credentialSecret: PullSecretRef | undefined,
      callOptions: AdapterCallOptions,
    ): Promise<ImageAvailability> {
      try {
        const name = parseRegistryImage(image);
        const credentials = await credentialsFor(options, credentialSecret, callOptions.signal);
        await options.client.headManifest(name, {
          timeoutMs: options.timeoutMs ?? 3000,
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          ...(credentials ? { credentials } : {}),
        });
        return { available: true };
      } catch (error) {
        return availabilityFromError(error);
      }
    },
  };
}
