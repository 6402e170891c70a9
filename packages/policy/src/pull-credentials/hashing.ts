/**
 * SHA-256 through WebCrypto (`globalThis.crypto.subtle`), so the pure module
 * runs unchanged in Node, Deno, Bun, browsers and edge runtimes: the
 * kubelet's credential hash and its record file names.
 */
import { quoteGoJson } from "./go-text.js";

const hexDigits = "0123456789abcdef";

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = "";
  for (const b of bytes) out += (hexDigits[b >> 4] as string) + (hexDigits[b & 0xf] as string);
  return out;
}

/**
 * Returns the lowercase hex SHA-256 of the UTF-8 bytes of `text` (a lone
 * surrogate is encoded as U+FFFD, as Go would see it).
 *
 * @example
 * ```ts
 * await sha256Hex("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(digest);
}

/**
 * Returns the file name the kubelet stores an intent (keyed by the pod image
 * string) or a record (keyed by imageRef) under: `sha256-` + lowercase hex
 * SHA-256 of the UTF-8 bytes.
 *
 * @example
 * ```ts
 * await recordStorageKey("testimageref1");
 * // "sha256-d77ed7480bc819274ea7a4dba5b2699b2d3f73c6e578762df42e5a8224771096"
 * ```
 */
export async function recordStorageKey(imageOrImageRef: string): Promise<string> {
  return `sha256-${await sha256Hex(imageOrImageRef)}`;
}

/**
 * The part of a keyring entry the kubelet hashes: username, password, email.
 * (`auth`, server address and tokens never reach the hash.)
 *
 * @example
 * ```ts
 * const c: HashableCredential = { username: "robot", password: "s3cret" };
 * ```
 */
export interface HashableCredential {
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly email?: string | undefined;
}

/**
 * Returns the exact bytes the kubelet hashes for a credential: Go's
 * `json.Marshal` of the auth config with only username, password and email,
 * empty fields omitted, HTML-safe escaping.
 *
 * @example
 * ```ts
 * credentialHashInput({ username: "user", password: "password" }); // '{"username":"user","password":"password"}'
 * ```
 */
export function credentialHashInput(credential: HashableCredential): string {
  const parts: string[] = [];
  if (credential.username) parts.push(`"username":${quoteGoJson(credential.username)}`);
  if (credential.password) parts.push(`"password":${quoteGoJson(credential.password)}`);
  if (credential.email) parts.push(`"email":${quoteGoJson(credential.email)}`);
  return `{${parts.join(",")}}`;
}

/**
 * Returns the credential hash the kubelet records for a pod secret's
 * credential (`credentialHash` in `ImagePullSecret`): lowercase hex SHA-256 of
 * {@link credentialHashInput}. Records written by kubeimg and by a kubelet
 * agree.
 *
 * @example
 * ```ts
 * await hashCredential({ username: "user", password: "password" });
 * // "a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d"
 * ```
 */
export async function hashCredential(credential: HashableCredential): Promise<string> {
  return sha256Hex(credentialHashInput(credential));
}
