/**
 * Hand-built images for the integration suite: a one-file tar layer,
 * a config, OCI and Docker manifests and an OCI index, pushed over HTTP
 * with plain fetch (monolithic blob uploads). No internet, no tools.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
export const OCI_INDEX = "application/vnd.oci.image.index.v1+json";
export const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";

export const sha256 = (bytes: Uint8Array | string): string =>
  `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** A minimal ustar archive holding one file (deterministic: mtime 0, root-owned). */
export function tarOneFile(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const header = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number) =>
    header.write(text, offset, length, "ascii");
  put(name, 0, 100);
  put("0000644\0", 100, 8);
  put("0000000\0", 108, 8);
  put("0000000\0", 116, 8);
  put(`${data.length.toString(8).padStart(11, "0")}\0`, 124, 12);
  put("00000000000\0", 136, 12);
  put("        ", 148, 8);
  put("0", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding, Buffer.alloc(1024)]);
}

export interface Blob {
  readonly digest: string;
  readonly bytes: Buffer;
}

export interface BuiltImage {
  readonly manifest: Blob;
  readonly mediaType: string;
  readonly blobs: readonly Blob[];
}

const blob = (bytes: Buffer): Blob => ({ digest: sha256(bytes), bytes });

/**
 * Builds a one-layer image for a platform, as an OCI or a Docker v2
 * manifest; `created` goes into the config (and makes the image distinct).
 */
export function buildImage(
  platform: { os: string; architecture: string },
  format: "oci" | "docker",
  options: { readonly created?: string } = {},
): BuiltImage {
  const tar = tarOneFile("hello.txt", `hello from ${platform.os}/${platform.architecture}\n`);
  const layer = blob(gzipSync(tar, { level: 9 }));
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: platform.architecture,
        os: platform.os,
        ...(options.created !== undefined ? { created: options.created } : {}),
        config: { Cmd: ["/hello"] },
        rootfs: { type: "layers", diff_ids: [sha256(tar)] },
        history: [{ created_by: "kubeimg fixture" }],
      }),
    ),
  );
  const oci = format === "oci";
  const mediaType = oci ? OCI_MANIFEST : DOCKER_MANIFEST;
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType,
        config: {
          mediaType: oci
            ? "application/vnd.oci.image.config.v1+json"
            : "application/vnd.docker.container.image.v1+json",
          digest: config.digest,
          size: config.bytes.length,
        },
        layers: [
          {
            mediaType: oci
              ? "application/vnd.oci.image.layer.v1.tar+gzip"
              : "application/vnd.docker.image.rootfs.diff.tar.gzip",
            digest: layer.digest,
            size: layer.bytes.length,
          },
        ],
      }),
    ),
  );
  return { manifest, mediaType, blobs: [layer, config] };
}

/** Builds an OCI index over per-platform OCI images. */
export function buildIndex(
  children: readonly { image: BuiltImage; os: string; architecture: string }[],
) {
  const index = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_INDEX,
        manifests: children.map(({ image, os, architecture }) => ({
          mediaType: image.mediaType,
          digest: image.manifest.digest,
          size: image.manifest.bytes.length,
          platform: { os, architecture },
        })),
      }),
    ),
  );
  return { index, children: children.map((c) => c.image) };
}

/** Pushes blobs (monolithic upload) to `baseUrl` (`http://host:port`). */
async function pushBlob(baseUrl: string, repository: string, item: Blob): Promise<void> {
  const head = await fetch(`${baseUrl}/v2/${repository}/blobs/${item.digest}`, { method: "HEAD" });
  if (head.ok) return;
  const start = await fetch(`${baseUrl}/v2/${repository}/blobs/uploads/`, { method: "POST" });
  await start.body?.cancel();
  const location = start.headers.get("location");
  if (start.status !== 202 || !location)
    throw new Error(`blob upload did not start: ${start.status}`);
  const url = new URL(location, baseUrl);
  url.searchParams.set("digest", item.digest);
  const put = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: item.bytes,
  });
  await put.body?.cancel();
  if (put.status !== 201) throw new Error(`blob upload failed: ${put.status}`);
}

/** Puts a manifest under a tag or digest. */
export async function putManifest(
  baseUrl: string,
  repository: string,
  reference: string,
  item: Blob,
  mediaType: string,
): Promise<void> {
  const put = await fetch(`${baseUrl}/v2/${repository}/manifests/${reference}`, {
    method: "PUT",
    headers: { "content-type": mediaType },
    body: item.bytes,
  });
  const text = await put.text();
  if (put.status !== 201)
    throw new Error(`manifest put ${repository}:${reference} failed: ${put.status} ${text}`);
}

/** Pushes an image and tags it. */
export async function pushImage(
  baseUrl: string,
  repository: string,
  image: BuiltImage,
  tags: readonly string[],
): Promise<void> {
  for (const item of image.blobs) await pushBlob(baseUrl, repository, item);
  await putManifest(baseUrl, repository, image.manifest.digest, image.manifest, image.mediaType);
  for (const tag of tags)
    await putManifest(baseUrl, repository, tag, image.manifest, image.mediaType);
}
