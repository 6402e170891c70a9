/**
 * The kubelet's two hashes, from the one implementation in
 * `@kubeimg/core/internal` (shared with the keyring, so a record written
 * from a keyring lookup and one written from a credential object agree):
 * the credential hash of a pod secret's credential, and the file name a
 * record is stored under. Pure and synchronous underneath, so the module
 * runs unchanged in Node, Deno, Bun, browsers and edge runtimes.
 */
import { credentialprovider, hex, sha256 } from "@kubeimg/core/internal";

/**
 * The part of a keyring entry the kubelet hashes: username, password, email.
 * (`auth`, server address and tokens never reach the hash.)
 *
 * @example
 * ```ts
 * import { type HashableCredential, hashCredential } from "@kubeimg/policy/pull-credentials";
 *
 * // From a dockerconfigjson entry; its `auth` and server address never reach the hash.
 * const c: HashableCredential = { username: "user", password: "password" };
 * console.log(await hashCredential(c));
 * // a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d
 * ```
 */
export interface HashableCredential {
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly email?: string | undefined;
}

/**
 * Returns the exact text the kubelet hashes for a credential: Go's
 * `json.Marshal` of the auth config with only username, password and email,
 * empty fields omitted, HTML-safe escaping.
 */
export function credentialHashInput(credential: HashableCredential): string {
  return credentialprovider.hashAuthConfigInput(credential);
}

/**
 * Returns the credential hash the kubelet records for a pod secret's
 * credential (`credentialHash` in `ImagePullSecret`): lowercase hex SHA-256 of
 * Go's `json.Marshal` of username, password and email (`credentialHashInput`). Records written by kubeimg and by a kubelet
 * agree.
 *
 * @example
 * ```ts
 * import { hashCredential } from "@kubeimg/policy/pull-credentials";
 *
 * await hashCredential({ username: "user", password: "password" });
 * // "a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d"
 * ```
 */
export async function hashCredential(credential: HashableCredential): Promise<string> {
  return credentialprovider.hashAuthConfig(credential);
}

/**
 * Returns the file name the kubelet stores an intent (keyed by the pod image
 * string) or a record (keyed by imageRef) under: `sha256-` + lowercase hex
 * SHA-256 of the UTF-8 bytes.
 *
 * @example
 * ```ts
 * import { storageFileName } from "@kubeimg/policy/pull-credentials/fs";
 *
 * console.log(storageFileName("testimageref1"));
 * // sha256-d77ed7480bc819274ea7a4dba5b2699b2d3f73c6e578762df42e5a8224771096
 * ```
 */
export function storageFileName(imageOrImageRef: string): string {
  return `sha256-${hex.EncodeToString(sha256.Sum256(new TextEncoder().encode(imageOrImageRef)))}`;
}
