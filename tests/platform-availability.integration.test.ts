/**
 * Platform-aware routing over a real registry (Debian's docker-registry):
 * kube-image-keeper's first-available choice through the availability gate
 * and the registry's checker, with the node's platform. A mirror that
 * copied only the amd64 image of a multi-platform tag is skipped for an
 * arm64 node (the trace says why) and used for an amd64 one. Fails, never
 * skips, when the registry is missing (`scripts/setup.d/registry.sh`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { createAvailabilityGate, resolveFirstAvailable } from "@kubeimg/policy/availability";
import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
import { createRegistryClient, type RegistryClient } from "@kubeimg/registry/client";
import {
  buildMultiPlatformImage,
  buildOciIndex,
  OCI_INDEX,
  pushImage,
  pushMultiPlatformImage,
  putManifest,
  type RunningRegistry,
  startRegistry,
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
let registry: RunningRegistry;
let client: RegistryClient;

const timers = {
  now: () => performance.now(),
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-platform-routing-it-"));
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "platform-routing" });
  client = createRegistryClient({
    registries: { [registry.host]: { insecure: true, allowPrivateAddress: true } },
  });
  const fixture = buildMultiPlatformImage();
  await pushMultiPlatformImage(registry.url, "team/multi", fixture, ["1.0"]);
  const amd64 = fixture.images["linux/amd64"];
  if (!amd64) throw new Error("fixture lacks linux/amd64");
  await pushImage(registry.url, "mirror/multi", amd64, []);
  const mirrorIndex = buildOciIndex([
    { image: amd64, platform: { os: "linux", architecture: "amd64" } },
  ]);
  await putManifest(registry.url, "mirror/multi", "1.0", mirrorIndex, OCI_INDEX);
}, 60_000);

afterAll(async () => {
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const alternatives = () => [
  { image: `${registry.host}/mirror/multi:1.0` },
  { image: `${registry.host}/team/multi:1.0` },
];

describe("platform-aware routing", () => {
  it("skips a mirror holding only amd64 for an arm64 node, and says why", async () => {
    const gate = createAvailabilityGate(createAvailabilityChecker({ client }), {
      timers,
      probeTimeoutMs: 5000,
    });
    const result = await resolveFirstAvailable(alternatives(), gate, {
      timers,
      platforms: [{ os: "linux", architecture: "arm64" }],
    });
    expect(result.winner?.image).toBe(`${registry.host}/team/multi:1.0`);
    expect(result.outcomes[0]).toMatchObject({
      state: "unavailable",
      reason: "available, but no linux/arm64 manifest",
      retryable: false,
    });
  });

  it("uses the same mirror for an amd64 node", async () => {
    const gate = createAvailabilityGate(createAvailabilityChecker({ client }), {
      timers,
      probeTimeoutMs: 5000,
    });
    const result = await resolveFirstAvailable(alternatives(), gate, {
      timers,
      platforms: [{ os: "linux", architecture: "amd64" }],
    });
    expect(result.winner?.image).toBe(`${registry.host}/mirror/multi:1.0`);
  });

  it("is off by default: the mirror wins, as with kube-image-keeper", async () => {
    const gate = createAvailabilityGate(createAvailabilityChecker({ client }), {
      timers,
      probeTimeoutMs: 5000,
    });
    const result = await resolveFirstAvailable(alternatives(), gate, { timers });
    expect(result.winner?.image).toBe(`${registry.host}/mirror/multi:1.0`);
  });

  it("keeps arm64, amd64 and platform-blind verdicts of one image apart in the gate's cache", async () => {
    const gate = createAvailabilityGate(createAvailabilityChecker({ client }), {
      timers,
      probeTimeoutMs: 5000,
    });
    const image = `${registry.host}/mirror/multi:1.0`;
    const arm = await gate.check(parseNormalizedNamed(image), undefined, {
      platforms: [{ os: "linux", architecture: "arm64" }],
    });
    const amd = await gate.check(parseNormalizedNamed(image), undefined, {
      platforms: [{ os: "linux", architecture: "amd64" }],
    });
    const blind = await gate.check(parseNormalizedNamed(image), undefined, {});
    const armAgain = await gate.check(parseNormalizedNamed(image), undefined, {
      platforms: [{ os: "linux", architecture: "arm64" }],
    });
    expect([arm.available, amd.available, blind.available, armAgain.available]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(gate.stats()).toMatchObject({ probes: 3, cacheHits: 1 });
  });
});
