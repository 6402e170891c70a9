/**
 * Newest-build and digest selection of the Argo CD and Kargo dialects over
 * a real registry (Debian's docker-registry on 127.0.0.1): the registry's
 * `TagMetadataSource` fills the tag list, the policy's selectors pick. The
 * images' configs carry distinct `created` times, and one tag is a
 * multi-platform index whose platforms were built at different times.
 * Fails (never skips) when the registry is not installed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { selectArgoTag } from "@kubeimg/policy/tags/argocd";
import { collectTagInfo, needsTagMetadata, type TagInfo } from "@kubeimg/policy/tags/dialects";
import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { createTagMetadataSource } from "@kubeimg/registry/adapters";
import { createRegistryClient } from "@kubeimg/registry/client";
import {
  buildImage,
  buildIndex,
  OCI_INDEX,
  pushImage,
  putManifest,
  type RunningRegistry,
  requireRegistryBinary,
  startRegistry,
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const amd64 = { os: "linux", architecture: "amd64" };
let dir: string;
let registry: RunningRegistry;
let domain: string;
const digests = new Map<string, string>();
const TAGS = ["0.9.0", "1.0.0", "1.1.0", "1.2.0"];

beforeAll(async () => {
  requireRegistryBinary();
  dir = mkdtempSync(join(tmpdir(), "kubeimg-tag-metadata-it-"));
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "anon" });
  domain = registry.host;
  // The newest build carries the lowest version.
  for (const [tag, created] of [
    ["1.0.0", "2024-01-01T00:00:00Z"],
    ["1.1.0", "2024-03-01T00:00:00Z"],
    ["0.9.0", "2024-05-01T00:00:00.5Z"],
  ] as const) {
    const image = buildImage(amd64, "oci", { created });
    await pushImage(registry.url, "team/app", image, [tag]);
    digests.set(tag, image.manifest.digest);
  }
  // 1.2.0: amd64 built early, arm64 built last of all.
  const { index, children } = buildIndex([
    { image: buildImage(amd64, "oci", { created: "2024-02-01T00:00:00Z" }), ...amd64 },
    {
      image: buildImage({ os: "linux", architecture: "arm64" }, "oci", {
        created: "2024-07-01T00:00:00Z",
      }),
      os: "linux",
      architecture: "arm64",
    },
  ]);
  for (const child of children) await pushImage(registry.url, "team/app", child, []);
  await putManifest(registry.url, "team/app", "1.2.0", index, OCI_INDEX);
  digests.set("1.2.0", index.digest);
});

afterAll(async () => {
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function tagsFor(needed: boolean, platform?: string): Promise<TagInfo[]> {
  const client = createRegistryClient({
    registries: { [domain]: { insecure: true, allowPrivateAddress: true } },
  });
  const source = createTagMetadataSource({ client, ...(platform ? { platform } : {}) });
  return collectTagInfo(TAGS, {
    source,
    repository: parseNormalizedNamed(`${domain}/team/app`),
    needed,
    signal: AbortSignal.timeout(30_000),
  });
}

describe("dialect selection over a real registry", () => {
  it("fills created, digest, a single manifest's platform and the index's platforms", async () => {
    const tags = await tagsFor(true);
    const single = { platform: "linux/amd64" };
    expect(tags).toEqual([
      { name: "0.9.0", digest: digests.get("0.9.0"), created: "2024-05-01T00:00:00.5Z", ...single },
      { name: "1.0.0", digest: digests.get("1.0.0"), created: "2024-01-01T00:00:00Z", ...single },
      { name: "1.1.0", digest: digests.get("1.1.0"), created: "2024-03-01T00:00:00Z", ...single },
      {
        name: "1.2.0",
        digest: digests.get("1.2.0"),
        created: "2024-02-01T00:00:00Z",
        platforms: ["linux/amd64", "linux/arm64"],
      },
    ]);
  });

  it("Argo CD `latest` and Kargo `NewestBuild` pick the newest build, not the greatest version", async () => {
    const argo = {
      imageName: `${domain}/team/app`,
      settings: { image: { updateStrategy: "latest" } },
    };
    expect(needsTagMetadata({ dialect: "argocd-image-updater", strategy: "newest-build" })).toBe(
      true,
    );
    const tags = await tagsFor(true);
    expect(selectArgoTag(argo, tags).tag).toBe("0.9.0");
    const kargo = { repoURL: `${domain}/team/app`, imageSelectionStrategy: "NewestBuild" };
    const picked = selectKargoTag(kargo, tags);
    expect(picked.tag).toBe("0.9.0");
    expect(picked.digest).toBe(digests.get("0.9.0"));
    expect(picked.discovered).toEqual(["0.9.0", "1.1.0", "1.2.0", "1.0.0"]);
  });

  it("Kargo NewestBuild on linux/arm64 keeps the index alone, dated by its arm64 build", async () => {
    const tags = await tagsFor(true, "linux/arm64");
    expect(tags[3]?.created).toBe("2024-07-01T00:00:00Z");
    const picked = selectKargoTag(
      {
        repoURL: `${domain}/team/app`,
        imageSelectionStrategy: "NewestBuild",
        platform: "linux/arm64",
      },
      tags,
      { explain: true },
    );
    expect(picked.tag).toBe("1.2.0");
    expect(picked.tags.find((t) => t.tag === "0.9.0")?.verdict).toBe("wrong-platform");
  });

  it("the digest strategies return the registry's digest of the named tag", async () => {
    const tags = await tagsFor(true);
    const argo = selectArgoTag(
      { imageName: `${domain}/team/app:1.2.0`, settings: { image: { updateStrategy: "digest" } } },
      tags,
    );
    expect(argo.tag).toBe("1.2.0");
    expect(argo.digest).toBe(digests.get("1.2.0"));
    const kargo = selectKargoTag(
      { repoURL: `${domain}/team/app`, imageSelectionStrategy: "Digest", constraint: "1.1.0" },
      tags,
    );
    expect(kargo.tag).toBe("1.1.0");
    expect(kargo.digest).toBe(digests.get("1.1.0"));
  });
});
