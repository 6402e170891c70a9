/**
 * The updater against a real registry (CNCF distribution, started by the
 * registry package's test harness): tags are pushed, listed, selected as Flux
 * selects them, and the digest of the selected tag is reflected.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistryClient } from "@kubeimg/registry/client";
import { buildImage, pushImage, type RunningRegistry, startRegistry } from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFluxObjects } from "./objects.js";
import { formatImagePolicies } from "./print.js";
import { checkImagePolicies } from "./update.js";

let dir: string;
let registry: RunningRegistry;
let digest: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-image-updater-"));
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "updater" });
  const image = buildImage({ os: "linux", architecture: "amd64" }, "oci");
  digest = image.manifest.digest;
  await pushImage(registry.url, "stefanprodan/podinfo", image, [
    "5.0.3",
    "5.1.0",
    "5.1.2",
    "5.1.10",
    "5.2.0",
    "6.0.0",
    "latest",
    "sha256-abc.sig",
  ]);
  await pushImage(registry.url, "minio/minio", image, [
    "RELEASE.2024-06-13T22-53-53Z",
    "RELEASE.2024-10-02T17-50-41Z",
    "RELEASE.2024-08-03T04-33-23Z",
  ]);
});
afterAll(async () => {
  await registry?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function fluxYaml(host: string): string {
  return `
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: podinfo, namespace: flux-system }
spec: { image: ${host}/stefanprodan/podinfo, interval: 5m }
---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: podinfo, namespace: flux-system }
spec:
  imageRepositoryRef: { name: podinfo }
  digestReflectionPolicy: IfNotPresent
  policy: { semver: { range: 5.1.x } }
---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: minio, namespace: flux-system }
spec: { image: ${host}/minio/minio }
---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: minio, namespace: flux-system }
spec:
  imageRepositoryRef: { name: minio }
  filterTags: { pattern: '^RELEASE\\.(?P<timestamp>.*)Z$', extract: '$timestamp' }
  policy: { alphabetical: { order: asc } }
---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: too-new, namespace: flux-system }
spec:
  imageRepositoryRef: { name: podinfo }
  policy: { semver: { range: ">=7.0.0" } }
---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImageRepository
metadata: { name: gone, namespace: flux-system }
spec: { image: ${host}/nobody/here }
---
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: gone, namespace: flux-system }
spec:
  imageRepositoryRef: { name: gone }
  policy: { semver: { range: 1.x } }
`;
}

describe("image-updater over a real registry", () => {
  it("prints what kubectl get imagepolicy would show", async () => {
    const objects = readFluxObjects(fluxYaml(registry.host));
    const client = createRegistryClient({
      registries: { [registry.host]: { insecure: true, allowPrivateAddress: true } },
    });
    const reports = await checkImagePolicies(objects, { client });
    const byName = new Map(reports.map((r) => [r.name, r.resolution]));

    expect(byName.get("podinfo")?.status.latestRef).toEqual({
      name: `${registry.host}/stefanprodan/podinfo`,
      tag: "5.1.10",
      digest,
    });
    expect(byName.get("minio")?.tag).toBe("RELEASE.2024-10-02T17-50-41Z");
    // digestReflectionPolicy Never (the default): no digest.
    expect(byName.get("minio")?.status.latestRef?.digest).toBeUndefined();
    expect(byName.get("too-new")?.tag).toBeUndefined();
    expect(byName.get("gone")?.error?.message).toMatch(/^failed to list tags: /);

    const table = formatImagePolicies(reports, { wide: true }).split("\n");
    expect(table[0]).toMatch(/^NAME +IMAGE +TAG +DIGEST +READY +STATUS$/);
    const cells = table[1]?.split(/ {2,}/);
    expect(cells).toEqual([
      "podinfo",
      `${registry.host}/stefanprodan/podinfo`,
      "5.1.10",
      digest,
      "True",
      `Latest image tag for ${registry.host}/stefanprodan/podinfo resolved to 5.1.10 with digest ${digest}`,
    ]);
    expect(table[3]).toMatch(/^too-new +False +/);
    expect(table[4]).toMatch(/^gone +False +failed to list tags: /);
  });

  it("keeps the stored digest with IfNotPresent while the tag is unchanged", async () => {
    const objects = readFluxObjects(fluxYaml(registry.host));
    const client = createRegistryClient({
      registries: { [registry.host]: { insecure: true, allowPrivateAddress: true } },
    });
    const stored = {
      name: `${registry.host}/stefanprodan/podinfo`,
      tag: "5.1.10",
      digest: `sha256:${"1".repeat(64)}`,
    };
    const [podinfo] = await checkImagePolicies(
      { ...objects, policies: objects.policies.slice(0, 1) },
      { client, previous: new Map([["flux-system/podinfo", { latestRef: stored }]]) },
    );
    expect(podinfo?.resolution.status.latestRef).toEqual(stored);
  });
});
