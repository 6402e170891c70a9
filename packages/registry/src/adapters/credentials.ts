/**
 * Credentials for the adapters: the node keyring, plus a pod's pull Secret
 * when a check names one, combined exactly as the kubelet combines them.
 */
import { type DockerKeyring, makeDockerKeyring } from "@kubeimg/core/keyring";
import { keyringCredentials } from "../client/credentials.js";
import type { CredentialProvider } from "../client/index.js";
import { RegistryError } from "../errors/index.js";
import type { PullSecretRef } from "./types.js";

/** Returns the Secret object a reference names, or `undefined` when it does not exist. */
export type PullSecretGetter = (
  ref: PullSecretRef,
  options: { signal?: AbortSignal },
) => Promise<unknown>;

/** Where adapters take credentials from. */
export interface AdapterCredentials {
  /** The node's keyring (its config.json, credential providers). Default: none. */
  readonly keyring?: DockerKeyring;
  /** Fetches pull Secrets named by availability checks (e.g. from the Kubernetes API). */
  readonly getSecret?: PullSecretGetter;
}

/** The credential provider for one call: the Secret's credentials first, then the node keyring's. */
export async function credentialsFor(
  source: AdapterCredentials,
  secretRef: PullSecretRef | undefined,
  signal: AbortSignal | undefined,
): Promise<CredentialProvider | undefined> {
  if (!secretRef) return source.keyring ? keyringCredentials(source.keyring) : undefined;
  if (!source.getSecret) {
    throw new RegistryError(
      "INVALID_OPTION",
      `a pull secret (${secretRef.namespace}/${secretRef.name}) was named but no getSecret was configured`,
    );
  }
  const secret = await source.getSecret(secretRef, signal ? { signal } : {});
  const secrets = secret === undefined || secret === null ? [] : [secret];
  return keyringCredentials(makeDockerKeyring(secrets, source.keyring));
}
