/**
 * What a manifest is, once fetched: its digest computed from the bytes (in
 * the algorithm of the digest the image was named by, so a `sha512:`
 * reference is verified with SHA-512 and answered in `sha512:`; SHA-256
 * otherwise, as registries compute it), its JSON, and a media type that the
 * header and the body agree on.
 */
import { computeDigest, type DigestAlgorithm, parseDigest } from "@kubeimg/core/digest";
import { RegistryError } from "../errors/index.js";
import { redactUrl } from "../http/redact.js";
import type { RegistryImage } from "../image/image-name.js";
import { mediaTypeOf } from "./media-types.js";

/** What a manifest HEAD (or GET) tells about an image.
 *
 * @inline
 */
export interface ManifestDescriptor {
  /**
   * The manifest digest, e.g. `sha256:…`; for an image named by digest, in
   * that digest's algorithm (`sha512:…` stays `sha512:…`).
   */
  readonly digest: string;
  /** The manifest media type (parameters dropped), when the registry said. */
  readonly mediaType: string | undefined;
  /** The manifest size in bytes, when known. */
  readonly size: number | undefined;
}

/** A fetched manifest: its descriptor, raw bytes and parsed JSON. */
export interface Manifest extends ManifestDescriptor {
  readonly bytes: Uint8Array;
  readonly manifest: unknown;
}

/** The algorithm of a digest already checked by `checkRegistryImage` or `isDigest`. */
export function algorithmOf(digest: string): DigestAlgorithm {
  return parseDigest(digest).algorithm as DigestAlgorithm;
}

/** Verifies and reads the bytes of a manifest fetched for `image`. */
export async function manifestFromBytes(
  bytes: Uint8Array,
  image: RegistryImage,
  response: Response,
  url: string,
  reference: string,
): Promise<Manifest> {
  const algorithm = image.digest ? algorithmOf(image.digest) : "sha256";
  const digest = (await computeDigest(bytes, algorithm)).string;
  if (image.digest && image.digest !== digest) {
    throw new RegistryError(
      "DIGEST_MISMATCH",
      `${reference}: manifest content hashes to ${digest}`,
      { url: redactUrl(url), reference: reference, status: response.status },
    );
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new RegistryError("INVALID_RESPONSE", `${reference}: manifest is not JSON`, {
      url: redactUrl(url),
      reference: reference,
    });
  }
  const headerType = mediaTypeOf(response.headers.get("content-type"));
  const bodyType =
    manifest !== null &&
    typeof manifest === "object" &&
    typeof (manifest as { mediaType?: unknown }).mediaType === "string"
      ? (manifest as { mediaType: string }).mediaType
      : undefined;
  if (bodyType && headerType && headerType !== "application/json" && bodyType !== headerType) {
    throw new RegistryError(
      "INVALID_RESPONSE",
      `${reference}: Content-Type ${headerType} does not match the manifest mediaType ${bodyType}`,
      { url: redactUrl(url), reference: reference },
    );
  }
  return { digest, mediaType: bodyType ?? headerType, size: bytes.byteLength, bytes, manifest };
}
