/**
 * A genuine multi-platform image for the platform tests, built by hand the
 * way BuildKit lays one out: an OCI index over per-platform images (with CPU
 * variants and a Windows build), a BuildKit attestation manifest
 * (`unknown/unknown`, in-toto layer, `vnd.docker.reference.*`
 * annotations), and a nested index that states no platform. Each config
 * carries its platform, a `created` time and labels. Also writes the same
 * image as an OCI image layout directory, for `skopeo copy`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import {
  type Blob,
  type BuiltImage,
  OCI_INDEX,
  OCI_MANIFEST,
  pushImage,
  putManifest,
  sha256,
  tarOneFile,
} from "./image-fixtures.js";

export interface FixturePlatform {
  readonly os: string;
  readonly architecture: string;
  readonly variant?: string;
  readonly osVersion?: string;
}

const blob = (bytes: Buffer): Blob => ({ digest: sha256(bytes), bytes });

/** A one-layer OCI image whose config declares `platform`, `created` and labels. */
export function buildPlatformImage(
  platform: FixturePlatform,
  created: string,
): BuiltImage & { config: Blob } {
  const name = [platform.os, platform.architecture, platform.variant].filter(Boolean).join("/");
  const tar = tarOneFile("platform.txt", `${name}\n`);
  const layer = blob(gzipSync(tar, { level: 9 }));
  const config = blob(
    Buffer.from(
      JSON.stringify({
        created,
        architecture: platform.architecture,
        os: platform.os,
        ...(platform.variant ? { variant: platform.variant } : {}),
        ...(platform.osVersion ? { "os.version": platform.osVersion } : {}),
        config: { Cmd: ["/hello"], Labels: { "org.opencontainers.image.title": name } },
        rootfs: { type: "layers", diff_ids: [sha256(tar)] },
      }),
    ),
  );
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: {
          mediaType: "application/vnd.oci.image.config.v1+json",
          digest: config.digest,
          size: config.bytes.length,
        },
        layers: [
          {
            mediaType: "application/vnd.oci.image.layer.v1.tar+gzip",
            digest: layer.digest,
            size: layer.bytes.length,
          },
        ],
      }),
    ),
  );
  return { manifest, mediaType: OCI_MANIFEST, blobs: [layer, config], config };
}

/** BuildKit's attestation manifest for `subject`: an in-toto statement as its one layer. */
export function buildAttestation(subject: string): BuiltImage {
  const statement = blob(
    Buffer.from(
      JSON.stringify({
        _type: "https://in-toto.io/Statement/v0.1",
        predicateType: "https://slsa.dev/provenance/v0.2",
        subject: [{ name: "fixture", digest: { sha256: subject.slice("sha256:".length) } }],
        predicate: {},
      }),
    ),
  );
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: "unknown",
        os: "unknown",
        config: {},
        rootfs: { type: "layers", diff_ids: [] },
      }),
    ),
  );
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: {
          mediaType: "application/vnd.oci.image.config.v1+json",
          digest: config.digest,
          size: config.bytes.length,
        },
        layers: [
          {
            mediaType: "application/vnd.in-toto+json",
            digest: statement.digest,
            size: statement.bytes.length,
            annotations: { "in-toto.io/predicate-type": "https://slsa.dev/provenance/v0.2" },
          },
        ],
      }),
    ),
  );
  return { manifest, mediaType: OCI_MANIFEST, blobs: [statement, config] };
}

interface IndexChild {
  readonly image: BuiltImage;
  readonly platform?: FixturePlatform | { os: string; architecture: string };
  readonly annotations?: Record<string, string>;
}

/** An OCI index over `children`, in the given order. */
export function buildOciIndex(children: readonly IndexChild[]): Blob {
  return blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_INDEX,
        manifests: children.map(({ image, platform, annotations }) => ({
          mediaType: image.mediaType,
          digest: image.manifest.digest,
          size: image.manifest.bytes.length,
          ...(platform
            ? {
                platform: {
                  os: platform.os,
                  architecture: platform.architecture,
                  ...("variant" in platform && platform.variant
                    ? { variant: platform.variant }
                    : {}),
                  ...("osVersion" in platform && platform.osVersion
                    ? { "os.version": platform.osVersion }
                    : {}),
                },
              }
            : {}),
          ...(annotations ? { annotations } : {}),
        })),
      }),
    ),
  );
}

/** The multi-platform fixture: every piece, and the digests the tests look for. */
export interface MultiPlatformImage {
  readonly index: Blob;
  /** The same index without the nested one (skopeo 1.9 cannot copy nested indexes). */
  readonly flatIndex: Blob;
  readonly nested: Blob;
  /** Per-platform images by `os/arch[/variant]` (and `windows/amd64:<build>`). */
  readonly images: Readonly<Record<string, BuiltImage & { config: Blob }>>;
  readonly attestation: BuiltImage;
  /** Every image and index, children before the indexes that name them. */
  readonly manifests: readonly BuiltImage[];
}

const CREATED = "2025-03-01T10:00:00Z";

export function buildMultiPlatformImage(): MultiPlatformImage {
  const images: Record<string, BuiltImage & { config: Blob }> = {
    "linux/amd64": buildPlatformImage({ os: "linux", architecture: "amd64" }, CREATED),
    "linux/arm64/v8": buildPlatformImage(
      { os: "linux", architecture: "arm64", variant: "v8" },
      "2025-03-01T10:01:00Z",
    ),
    "linux/arm/v7": buildPlatformImage(
      { os: "linux", architecture: "arm", variant: "v7" },
      "2025-03-01T10:02:00Z",
    ),
    "linux/arm/v6": buildPlatformImage(
      { os: "linux", architecture: "arm", variant: "v6" },
      "2025-03-01T10:03:00Z",
    ),
    "windows/amd64:17763": buildPlatformImage(
      { os: "windows", architecture: "amd64", osVersion: "10.0.17763.6893" },
      "2025-03-01T10:04:00Z",
    ),
    "windows/amd64:20348": buildPlatformImage(
      { os: "windows", architecture: "amd64", osVersion: "10.0.20348.3207" },
      "2025-03-01T10:05:00Z",
    ),
    "linux/s390x": buildPlatformImage(
      { os: "linux", architecture: "s390x" },
      "2025-03-01T10:06:00Z",
    ),
    "linux/ppc64le": buildPlatformImage(
      { os: "linux", architecture: "ppc64le" },
      "2025-03-01T10:07:00Z",
    ),
  };
  const img = (key: string) => images[key] as BuiltImage & { config: Blob };
  const nested = buildOciIndex([
    { image: img("linux/s390x"), platform: { os: "linux", architecture: "s390x" } },
    { image: img("linux/ppc64le"), platform: { os: "linux", architecture: "ppc64le" } },
  ]);
  const nestedImage: BuiltImage = { manifest: nested, mediaType: OCI_INDEX, blobs: [] };
  const attestation = buildAttestation(img("linux/amd64").manifest.digest);
  const entries: IndexChild[] = [
    // The attestation comes first, so a careless "first entry" pick would take it.
    {
      image: attestation,
      platform: { os: "unknown", architecture: "unknown" },
      annotations: {
        "vnd.docker.reference.type": "attestation-manifest",
        "vnd.docker.reference.digest": img("linux/amd64").manifest.digest,
      },
    },
    { image: img("linux/arm/v6"), platform: { os: "linux", architecture: "arm", variant: "v6" } },
    { image: img("linux/amd64"), platform: { os: "linux", architecture: "amd64" } },
    { image: img("linux/arm/v7"), platform: { os: "linux", architecture: "arm", variant: "v7" } },
    {
      image: img("linux/arm64/v8"),
      platform: { os: "linux", architecture: "arm64", variant: "v8" },
    },
    {
      image: img("windows/amd64:17763"),
      platform: { os: "windows", architecture: "amd64", osVersion: "10.0.17763.6893" },
    },
    {
      image: img("windows/amd64:20348"),
      platform: { os: "windows", architecture: "amd64", osVersion: "10.0.20348.3207" },
    },
  ];
  const index = buildOciIndex([...entries, { image: nestedImage }]);
  return {
    index,
    flatIndex: buildOciIndex(entries),
    nested,
    images,
    attestation,
    manifests: [...Object.values(images), attestation, nestedImage],
  };
}

/** Pushes the whole fixture to `repository` and tags the index. */
export async function pushMultiPlatformImage(
  baseUrl: string,
  repository: string,
  image: MultiPlatformImage,
  tags: readonly string[],
): Promise<void> {
  for (const m of image.manifests) {
    if (m.mediaType === OCI_INDEX)
      await putManifest(baseUrl, repository, m.manifest.digest, m.manifest, OCI_INDEX);
    else await pushImage(baseUrl, repository, m, []);
  }
  for (const tag of tags) await putManifest(baseUrl, repository, tag, image.index, OCI_INDEX);
}

/**
 * Writes the fixture as an OCI image layout (`oci-layout`, `index.json`,
 * `blobs/sha256/…`), its flat index tagged `tag`.
 */
export function writeOciLayout(dir: string, image: MultiPlatformImage, tag: string): void {
  mkdirSync(join(dir, "blobs", "sha256"), { recursive: true });
  const put = (b: Blob) =>
    writeFileSync(join(dir, "blobs", "sha256", b.digest.slice("sha256:".length)), b.bytes);
  for (const m of image.manifests) {
    put(m.manifest);
    for (const b of m.blobs) put(b);
  }
  put(image.flatIndex);
  writeFileSync(join(dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  writeFileSync(
    join(dir, "index.json"),
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [
        {
          mediaType: OCI_INDEX,
          digest: image.flatIndex.digest,
          size: image.flatIndex.bytes.length,
          annotations: { "org.opencontainers.image.ref.name": tag },
        },
      ],
    }),
  );
}
