/**
 * Blobs: the content-addressed parts of an image. kubeimg reads only small
 * ones (an image's config, to learn its platform and creation time), so a
 * blob is read whole under a size cap and its digest checked against the
 * bytes before anyone sees them: a registry, a proxy or a cache that serves
 * the wrong content is an error, never a silently wrong answer.
 */
import { RegistryError } from "../errors/index.js";
import { redactUrl } from "../http/redact.js";
import type { CallOptions } from "./options.js";

/** The most bytes of a blob read by default: 4 MiB, far above any image config. */
export const DEFAULT_BLOB_BYTES = 4 * 1024 * 1024;

/** Options of {@link RegistryClient.getBlob}. */
export interface GetBlobOptions extends CallOptions {
  /** The most bytes to read; a larger blob is `RESPONSE_TOO_LARGE`. Default 4 MiB. */
  readonly maxBytes?: number;
}

/** A fetched blob: its digest (verified) and bytes. */
export interface FetchedBlob {
  readonly digest: string;
  readonly size: number;
  readonly bytes: Uint8Array;
}

const WEB_CRYPTO_ALGORITHMS: Readonly<Record<string, string>> = {
  sha256: "SHA-256",
  sha512: "SHA-512",
};

/**
 * Checks that `bytes` hash to `digest`; throws `DIGEST_MISMATCH` when they
 * do not and `UNSUPPORTED` for an algorithm other than sha256 or sha512.
 */
export async function verifyBlobDigest(
  bytes: Uint8Array,
  digest: string,
  context: { readonly reference: string; readonly url: string },
): Promise<void> {
  const [algorithm = "", expected = ""] = digest.split(":");
  const name = Object.hasOwn(WEB_CRYPTO_ALGORITHMS, algorithm)
    ? WEB_CRYPTO_ALGORITHMS[algorithm]
    : undefined;
  if (name === undefined) {
    throw new RegistryError(
      "UNSUPPORTED",
      `${context.reference}: cannot verify digest algorithm ${algorithm}`,
      {
        reference: context.reference,
        url: redactUrl(context.url),
      },
    );
  }
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest(name, new Uint8Array(bytes)));
  const actual = [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
  if (actual !== expected) {
    throw new RegistryError(
      "DIGEST_MISMATCH",
      `${context.reference}: blob content hashes to ${algorithm}:${actual}`,
      {
        reference: context.reference,
        url: redactUrl(context.url),
      },
    );
  }
}
