import * as hex from "../internal/hex.js";
import { type DigestAlgorithm, digestAlgorithms, isDigestAlgorithm } from "./algorithms.js";
import { DigestError } from "./errors.js";
import { type Digest, digestFromValidated } from "./parse.js";

/** The one WebCrypto operation used, typed structurally so no DOM or Node types leak out. */
interface SubtleDigest {
  digest(algorithm: string, data: Uint8Array | ArrayBuffer): Promise<ArrayBuffer>;
}

/**
 * Returns the digest of `bytes` (`sha256:<hex>` by default), computed with
 * WebCrypto's `crypto.subtle`, so it runs in Node, Deno, Bun, browsers
 * (secure contexts) and edge runtimes alike.
 *
 * Throws a {@link DigestError}: `DIGEST_UNSUPPORTED` for an algorithm other
 * than `sha256`, `sha384` or `sha512`; `WEBCRYPTO_UNAVAILABLE` when the
 * runtime has no `crypto.subtle`.
 *
 * @example
 * ```ts
 * import { computeDigest } from "@kubeimg/core/digest";
 *
 * const d = await computeDigest(new TextEncoder().encode("hello"));
 * d.string; // "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
 * ```
 */
export async function computeDigest(
  bytes: Uint8Array | ArrayBuffer,
  algorithm: DigestAlgorithm = "sha256",
): Promise<Digest> {
  if (!isDigestAlgorithm(algorithm)) throw new DigestError("DIGEST_UNSUPPORTED", String(algorithm));
  const subtle = (globalThis as { crypto?: { subtle?: SubtleDigest } }).crypto?.subtle;
  if (subtle === undefined) throw new DigestError("WEBCRYPTO_UNAVAILABLE", algorithm);
  const hash = await subtle.digest(digestAlgorithms[algorithm].webCryptoName, bytes);
  return digestFromValidated(`${algorithm}:${hex.EncodeToString(new Uint8Array(hash))}`);
}
