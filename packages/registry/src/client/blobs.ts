/**
 * Blobs: the content-addressed parts of an image. kubeimg reads only small
 * ones (an image's config, to learn its platform and creation time), so a
 * blob is read whole under a size cap and its digest checked against the
 * bytes before anyone sees them: a registry, a proxy or a cache that serves
 * the wrong content is an error, never a silently wrong answer.
 */
import { computeDigest } from "@kubeimg/core/digest";
import { RegistryError } from "../errors/index.js";
import { redactUrl } from "../http/redact.js";
import { algorithmOf } from "./manifests.js";
import type { RegistryCallOptions } from "./options.js";

/** The most bytes of a blob read by default: 4 MiB, far above any image config. */
export const DEFAULT_BLOB_BYTES = 4 * 1024 * 1024;

/** Options of {@link RegistryClient.getBlob}. */
export interface GetBlobOptions extends RegistryCallOptions {
  /** The most bytes to read; a larger blob is `RESPONSE_TOO_LARGE`. Default 4 MiB. */
  readonly maxBytes?: number;
}

/** A fetched blob: its digest (verified) and bytes.
 *
 * @inline
 */
export interface FetchedBlob {
  readonly digest: string;
  readonly size: number;
  readonly bytes: Uint8Array;
}

/** Returns the byte cap of a blob read, refusing a cap that is not a positive integer. */
export function blobByteLimit(options: GetBlobOptions | undefined): number {
  const max = options?.maxBytes;
  if (max === undefined) return DEFAULT_BLOB_BYTES;
  if (typeof max !== "number" || !Number.isSafeInteger(max) || max <= 0) {
    throw new RegistryError(
      "INVALID_OPTION",
      `invalid option maxBytes: ${String(max)} (must be a positive integer)`,
    );
  }
  return max;
}

/**
 * Checks that `bytes` hash to `digest` (in its own algorithm, as go-digest
 * verifies); throws `DIGEST_MISMATCH` when they do not.
 */
export async function verifyBlobDigest(
  bytes: Uint8Array,
  digest: string,
  context: { readonly reference: string; readonly url: string },
): Promise<void> {
  const actual = (await computeDigest(bytes, algorithmOf(digest))).string;
  if (actual !== digest) {
    throw new RegistryError(
      "DIGEST_MISMATCH",
      `${context.reference}: blob content hashes to ${actual}`,
      {
        reference: context.reference,
        url: redactUrl(context.url),
      },
    );
  }
}
