/**
 * Platform resolution against a real registry (Debian's docker-registry):
 * a BuildKit-shaped multi-platform index (variants, Windows builds, an
 * attestation manifest listed first, a nested index without a platform),
 * pushed by the test fixtures and, as a second, independent producer,
 * copied from an OCI layout by `skopeo`. Fails (never skips) when the
 * registry or skopeo is missing; `scripts/setup.d/` installs both.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onlyStrict, ordered } from "@kubeimg/core/platform";
import {
  buildMultiPlatformImage,
  buildOciIndex,
  type MultiPlatformImage,
  OCI_INDEX,
  pushImage,
  pushMultiPlatformImage,
  putManifest,
  type RunningRegistry,
  startRegistry,
  writeOciLayout,
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAvailabilityChecker } from "../adapters/index.js";
import { createRegistryClient, type RegistryClient } from "../client/index.js";
import { isRegistryError } from "../errors/index.js";
import { listImagePlatforms, resolveImagePlatform } from "./index.js";

const SKOPEO = "/usr/bin/skopeo";

let dir: string;
let registry: RunningRegistry;
let client: RegistryClient;
let fixture: MultiPlatformImage;

const image = (path: string, tag: string) => ({ domain: registry.host, path, tag });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-platform-it-"));
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "platform" });
  client = createRegistryClient({
    registries: { [registry.host]: { insecure: true, allowPrivateAddress: true } },
  });
  fixture = buildMultiPlatformImage();
  await pushMultiPlatformImage(registry.url, "team/multi", fixture, ["1.0"]);
  // A broken index: its only entry states a size that is not the manifest's.
  const amd64 = fixture.images["linux/amd64"];
  if (!amd64) throw new Error("fixture lacks linux/amd64");
  await pushImage(registry.url, "team/broken", amd64, []);
  const index = JSON.parse(
    buildOciIndex([
      { image: amd64, platform: { os: "linux", architecture: "amd64" } },
    ]).bytes.toString(),
  );
  index.manifests[0].size += 1;
  const bytes = Buffer.from(JSON.stringify(index));
  await putManifest(registry.url, "team/broken", "1.0", { digest: "", bytes }, OCI_INDEX);
  // A single-platform image (no index).
  await pushImage(registry.url, "team/single", amd64, ["1.0"]);
  // A mirror that copied only the amd64 image of the multi-platform tag, index included.
  const mirrorIndex = buildOciIndex([
    { image: amd64, platform: { os: "linux", architecture: "amd64" } },
  ]);
  await pushImage(registry.url, "mirror/multi", amd64, []);
  await putManifest(registry.url, "mirror/multi", "1.0", mirrorIndex, OCI_INDEX);
}, 60_000);

afterAll(async () => {
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const digestOf = (key: string) => {
  const found = fixture.images[key];
  if (!found) throw new Error(`fixture lacks ${key}`);
  return found.manifest.digest;
};

describe("resolveImagePlatform over a real registry", () => {
  it.each([
    { platform: "linux/amd64", want: "linux/amd64", created: "2025-03-01T10:00:00Z" },
    { platform: "linux/arm64", want: "linux/arm64/v8", created: "2025-03-01T10:01:00Z" },
    // An armv7 node prefers v7 over the v6 entry listed before it.
    { platform: "linux/arm/v7", want: "linux/arm/v7", created: "2025-03-01T10:02:00Z" },
    { platform: "linux/arm/v6", want: "linux/arm/v6", created: "2025-03-01T10:03:00Z" },
    // A 2022 Windows host runs only the 20348 image.
    {
      platform: "windows(10.0.20348.3000)/amd64",
      want: "windows/amd64:20348",
      created: "2025-03-01T10:05:00Z",
    },
    // Found in the nested index, which states no platform.
    { platform: "linux/s390x", want: "linux/s390x", created: "2025-03-01T10:06:00Z" },
  ])("a $platform node pulls $want", async ({ platform, want, created }) => {
    const r = await resolveImagePlatform(client, image("team/multi", "1.0"), { platform });
    expect(r.digest).toBe(fixture.index.digest);
    expect(r.manifest.digest).toBe(digestOf(want));
    expect(r.config.created).toBe(created);
    expect(r.config.digest).toBe(fixture.images[want]?.config.digest);
    expect(r.configMatches).toBe(true);
    expect(r.config.labels["org.opencontainers.image.title"]).toBe(want.split(":")[0]);
  });

  it("orders the candidates as the node tries them, without the attestation", async () => {
    const r = await resolveImagePlatform(client, image("team/multi", "1.0"), {
      platform: "linux/arm64/v8",
    });
    const top = r.indexes[0];
    // arm64 first, then 32-bit arm v7 and v6, then the nested index (no platform).
    expect(top?.candidates).toEqual([4, 3, 1, 7]);
    expect(top?.entries[0]?.attestation).toBe(true);
  });

  it("never picks the attestation manifest, even for a comparer that matches everything", async () => {
    const r = await resolveImagePlatform(client, image("team/multi", "1.0"), {
      matcher: ordered([
        { os: "unknown", architecture: "unknown" },
        { os: "linux", architecture: "amd64" },
      ]),
    });
    expect(r.manifest.digest).toBe(digestOf("linux/amd64"));
  });

  it("says NO_MATCHING_PLATFORM, not not-found, when the index has nothing for the node", async () => {
    const error = await resolveImagePlatform(client, image("team/multi", "1.0"), {
      platform: "linux/riscv64",
    }).catch((e: unknown) => e);
    expect(isRegistryError(error) && error.code).toBe("NO_MATCHING_PLATFORM");
    // The message lists what the index and its nested index offer, attestation left out.
    expect((error as Error).message).toContain("linux/arm64/v8");
    expect((error as Error).message).toContain("linux/ppc64le");
    expect((error as Error).message).not.toContain("unknown");
    const strict = await resolveImagePlatform(client, image("team/multi", "1.0"), {
      matcher: onlyStrict({ os: "linux", architecture: "arm", variant: "v5" }),
    }).catch((e: unknown) => e);
    expect(isRegistryError(strict) && strict.code).toBe("NO_MATCHING_PLATFORM");
  });

  it("bounds the depth of nested indexes", async () => {
    const error = await resolveImagePlatform(client, image("team/multi", "1.0"), {
      platform: "linux/s390x",
      maxIndexDepth: 1,
    }).catch((e: unknown) => e);
    expect(isRegistryError(error) && error.code).toBe("INDEX_TOO_DEEP");
  });

  it("refuses an index entry whose size is not the manifest's", async () => {
    const error = await resolveImagePlatform(client, image("team/broken", "1.0"), {
      platform: "linux/amd64",
    }).catch((e: unknown) => e);
    expect(isRegistryError(error) && error.code).toBe("DIGEST_MISMATCH");
  });

  it("caps the config read", async () => {
    const error = await resolveImagePlatform(client, image("team/multi", "1.0"), {
      platform: "linux/amd64",
      maxConfigBytes: 10,
    }).catch((e: unknown) => e);
    expect(isRegistryError(error) && error.code).toBe("RESPONSE_TOO_LARGE");
  });

  it("takes a single-manifest image as it is and says whether its config fits", async () => {
    const amd = await resolveImagePlatform(client, image("team/single", "1.0"), {
      platform: "linux/amd64",
    });
    expect([amd.indexes.length, amd.configMatches]).toEqual([0, true]);
    const arm = await resolveImagePlatform(client, image("team/single", "1.0"), {
      platform: "linux/arm64",
    });
    expect(arm.configMatches).toBe(false);
  });
});

describe("listImagePlatforms over a real registry", () => {
  it("lists the index with one request per index, nested index included", async () => {
    let requests = 0;
    const counting = createRegistryClient({
      registries: { [registry.host]: { insecure: true, allowPrivateAddress: true } },
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const listed = await listImagePlatforms(counting, image("team/multi", "1.0"));
    expect(listed.kind).toBe("index");
    if (listed.kind !== "index") return;
    expect(requests).toBe(2);
    expect(
      listed.entries.map((e) => (e.platform ? `${e.platform.os}/${e.platform.architecture}` : "-")),
    ).toEqual([
      "unknown/unknown",
      "linux/arm",
      "linux/amd64",
      "linux/arm",
      "linux/arm64",
      "windows/amd64",
      "windows/amd64",
      "-",
    ]);
    expect(listed.entries[7]?.children?.map((e) => e.platform?.architecture)).toEqual([
      "s390x",
      "ppc64le",
    ]);
    expect(listed.entries[6]?.platform?.osVersion).toBe("10.0.20348.3207");
  });

  it("reads a single-manifest image's platform from its config", async () => {
    const listed = await listImagePlatforms(client, image("team/single", "1.0"));
    expect(listed.kind === "manifest" && [listed.config.os, listed.config.architecture]).toEqual([
      "linux",
      "amd64",
    ]);
  });
});

describe("platform-aware availability over a real registry", () => {
  it("is off by default: platform-blind, as kube-image-keeper", async () => {
    const checker = createAvailabilityChecker({ client });
    const mirror = `${registry.host}/mirror/multi:1.0`;
    expect(await checker.check(mirror, undefined, {})).toEqual({ available: true });
    expect(
      await checker.check(mirror, undefined, {
        platforms: [{ os: "linux", architecture: "arm64" }],
      }),
    ).toEqual({
      available: false,
      reason: "available, but no linux/arm64 manifest",
      retryable: false,
    });
  });

  it("needs every platform of a node pool, from the checker's own option too", async () => {
    const checker = createAvailabilityChecker({
      client,
      platforms: [
        { os: "linux", architecture: "amd64" },
        { os: "linux", architecture: "arm64" },
      ],
    });
    const mirror = await checker.check(`${registry.host}/mirror/multi:1.0`, undefined, {});
    expect(mirror).toEqual({
      available: false,
      reason: "available, but no linux/arm64 manifest",
      retryable: false,
    });
    const upstream = await checker.check(`${registry.host}/team/multi:1.0`, undefined, {});
    expect(upstream.available).toBe(true);
    // A single-manifest image serves what its config declares.
    const single = await checker.check(`${registry.host}/team/single:1.0`, undefined, {
      platforms: [{ os: "linux", architecture: "s390x" }],
    });
    expect(single).toEqual({
      available: false,
      reason: "available, but no linux/s390x manifest",
      retryable: false,
    });
  });
});

describe("skopeo as a second producer", () => {
  it("copies the OCI layout into the registry, and the copy resolves the same", async () => {
    if (!existsSync(SKOPEO)) {
      throw new Error(`${SKOPEO} is missing: install it with \`bash scripts/setup.d/skopeo.sh\``);
    }
    const layout = join(dir, "layout");
    writeOciLayout(layout, fixture, "1.0");
    execFileSync(
      SKOPEO,
      [
        "--insecure-policy",
        "copy",
        "--all",
        "--preserve-digests",
        "--dest-tls-verify=false",
        `oci:${layout}:1.0`,
        `docker://${registry.host}/team/copied:1.0`,
      ],
      { stdio: "pipe", timeout: 60_000 },
    );
    for (const [platform, want] of [
      ["linux/arm64", "linux/arm64/v8"],
      ["linux/arm/v6", "linux/arm/v6"],
      ["windows(10.0.17763.1)/amd64", "windows/amd64:17763"],
    ] as const) {
      const r = await resolveImagePlatform(client, image("team/copied", "1.0"), { platform });
      expect(r.digest).toBe(fixture.flatIndex.digest);
      expect(r.manifest.digest).toBe(digestOf(want));
    }
  }, 90_000);
});
