/**
 * Where the client's credentials come from. The client asks per repository
 * (the kubelet's key: `docker.io/library/nginx`) and tries the answers in
 * order, as the kubelet does.
 */
import type { DockerKeyring } from "@kubeimg/core/keyring";
import { checkArgument } from "../errors/registry-error.js";

/** A username/password pair for one registry. */
export interface RegistryCredential {
  readonly username: string;
  readonly password: string;
}

/** Returns the credentials to try for a repository name, in order; empty for anonymous access. */
export type CredentialProvider = (
  repositoryName: string,
) => readonly RegistryCredential[] | Promise<readonly RegistryCredential[]>;

/**
 * Returns a {@link CredentialProvider} backed by a kubelet keyring, so that
 * the client uses exactly the credentials (and order) the kubelet would.
 *
 * @example
 * ```ts
 * import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
 * import { createRegistryClient, keyringCredentials } from "@kubeimg/registry/client";
 *
 * const keyring = createDockerKeyring([
 *   { config: parseDockerConfigJson({ auths: { "ghcr.io": { username: "bot", password: "…" } } }) },
 * ]);
 * const credentials = keyringCredentials(keyring);
 * await credentials("ghcr.io/org/app"); // → [{ username: "bot", password: "…" }]
 * const client = createRegistryClient({ credentials });
 * ```
 */
export function keyringCredentials(keyring: DockerKeyring): CredentialProvider {
  checkArgument(
    typeof (keyring as { lookup?: unknown } | null)?.lookup === "function",
    "keyringCredentials",
    keyring,
    "the keyring must have a lookup function",
  );
  return (repositoryName) =>
    keyring
      .lookup(repositoryName)
      .filter((c) => c.username !== "" || c.password !== "")
      .map((c) => ({ username: c.username, password: c.password }));
}

/**
 * Returns an `Authorization` value for Basic auth (UTF-8, as browsers and Go send it).
 */
export function basicAuthorization(credential: RegistryCredential): string {
  checkArgument(
    typeof credential?.username === "string" && typeof credential?.password === "string",
    "basicAuthorization",
    credential,
    "the credential must have a string username and password",
  );
  const bytes = new TextEncoder().encode(`${credential.username}:${credential.password}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}
