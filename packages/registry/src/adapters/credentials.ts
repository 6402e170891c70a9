/**
 * Credentials for the adapters: the node keyring, plus a pod's pull Secret
 * when a check names one, combined exactly as the kubelet combines them.
 */
import { type DockerKeyring, makeDockerKeyring } from "@kubeimg/core/keyring";
import type { SecretRef } from "@kubeimg/core/ports";
import { checkTimeout } from "../client/check-options.js";
import { keyringCredentials } from "../client/credentials.js";
import type { CredentialProvider } from "../client/index.js";
import { RegistryError } from "../errors/index.js";

/** Returns the Secret object a reference names, or `undefined` when it does not exist. */
export type PullSecretGetter = (
  ref: SecretRef,
  options: { signal?: AbortSignal },
) => Promise<unknown>;

/** Where adapters take credentials from. */
export interface AdapterCredentials {
  /** The node's keyring (its config.json, credential providers). Default: none. */
  readonly keyring?: DockerKeyring;
  /** Fetches pull Secrets named by availability checks (e.g. from the Kubernetes API). */
  readonly getSecret?: PullSecretGetter;
}

/**
 * Throws `INVALID_OPTION` unless `options` holds a registry client and
 * well-typed credentials sources: checked when an adapter is created, not at
 * its first call.
 */
export function checkAdapterOptions(where: string, options: unknown): void {
  const o = options as Record<string, unknown> | null;
  const client = o?.client as Record<string, unknown> | undefined;
  const fail = (option: string, rule: string) => {
    throw new RegistryError("INVALID_OPTION", `${where}: option ${option} ${rule}`);
  };
  if (typeof o !== "object" || o === null) fail("(options)", "must be an object");
  if (client === undefined && typeof o?.headManifest === "function") {
    fail("client", "is missing: pass { client }, not the client itself");
  }
  if (typeof client !== "object" || client === null || typeof client.headManifest !== "function") {
    fail("client", "must be a registry client (createRegistryClient)");
  }
  if (o?.getSecret !== undefined && typeof o.getSecret !== "function")
    fail("getSecret", "must be a function");
  const keyring = o?.keyring as { lookup?: unknown } | undefined;
  if (keyring !== undefined && typeof keyring?.lookup !== "function")
    fail("keyring", "must be a keyring");
  if (o?.exclude !== undefined && typeof o.exclude !== "function")
    fail("exclude", "must be a function");
  checkTimeout(`${where}: timeoutMs`, o?.timeoutMs);
}

/** The credential provider for one call: the Secret's credentials first, then the node keyring's. */
export async function credentialsFor(
  source: AdapterCredentials,
  secretRef: SecretRef | undefined,
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
