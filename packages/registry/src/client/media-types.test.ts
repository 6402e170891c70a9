import { describe, expect, it } from "vitest";
import { MANIFEST_ACCEPT, MANIFEST_MEDIA_TYPES, mediaTypeOf } from "./media-types.js";

describe("manifest media types", () => {
  it("Accept holds all four types, index and list first, in one header", () => {
    expect(MANIFEST_ACCEPT.split(", ")).toEqual([
      MANIFEST_MEDIA_TYPES.ociIndex,
      MANIFEST_MEDIA_TYPES.dockerManifestList,
      MANIFEST_MEDIA_TYPES.ociManifest,
      MANIFEST_MEDIA_TYPES.dockerManifest,
    ]);
  });
  it("ignores Content-Type parameters", () => {
    expect(mediaTypeOf("Application/vnd.oci.image.index.v1+json; charset=utf-8")).toBe(
      MANIFEST_MEDIA_TYPES.ociIndex,
    );
    expect(mediaTypeOf(null)).toBeUndefined();
  });
});
