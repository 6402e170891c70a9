/**
 * The manifest media types the client accepts, as data.
 */
export const MANIFEST_MEDIA_TYPES = /*#__PURE__*/ Object.freeze({
  ociIndex: "application/vnd.oci.image.index.v1+json",
  dockerManifestList: "application/vnd.docker.distribution.manifest.list.v2+json",
  ociManifest: "application/vnd.oci.image.manifest.v1+json",
  dockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
});

/**
 * The `Accept` header of every manifest request: all four types in one
 * comma-separated value. Without the OCI types an OCI image reads as
 * missing (404 MANIFEST_UNKNOWN); without the list/index types the
 * registry answers with one platform's manifest and its digest; with
 * neither it down-converts to schema 1 with yet another digest.
 */
export const MANIFEST_ACCEPT =
  "application/vnd.oci.image.index.v1+json, " +
  "application/vnd.docker.distribution.manifest.list.v2+json, " +
  "application/vnd.oci.image.manifest.v1+json, " +
  "application/vnd.docker.distribution.manifest.v2+json";

/** Returns a `Content-Type` without parameters, lower-cased (the spec says to ignore parameters). */
export function mediaTypeOf(contentType: string | null): string | undefined {
  if (typeof contentType !== "string") return undefined;
  const base = contentType?.split(";")[0]?.trim().toLowerCase();
  return base ? base : undefined;
}
