/**
 * `kubeimg inspect` and `kubeimg route --check --platform`, run as the built
 * program against a real registry (Debian's docker-registry) seeded with the
 * registry package's multi-platform fixture. Fails, never skips, when the
 * registry is missing (`scripts/setup.d/registry.sh`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKubeimg } from "../../run-program.test-support.js";

let dir: string;
let registry: RunningRegistry;
let fixture: MultiPlatformImage;

interface InspectJson {
  platform: string;
  digest: string;
  entries: { try: number | null; platform: string | null; chosen: boolean; attestation: boolean }[];
  manifest: { digest: string } | null;
  config: { created: string | null; platform: string } | null;
  error?: string;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-cli-platform-"));
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "cli-platform" });
  fixture = buildMultiPlatformImage();
  await pushMultiPlatformImage(registry.url, "team/multi", fixture, ["1.0"]);
  const amd64 = fixture.images["linux/amd64"];
  if (!amd64) throw new Error("fixture lacks linux/amd64");
  await pushImage(registry.url, "mirror/team/multi", amd64, []);
  const mirrorIndex = buildOciIndex([
    { image: amd64, platform: { os: "linux", architecture: "amd64" } },
  ]);
  await putManifest(registry.url, "mirror/team/multi", "1.0", mirrorIndex, OCI_INDEX);
  writeFileSync(
    join(dir, "mirror.yaml"),
    `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: local }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${registry.host}
      path: /mirror
`,
  );
}, 60_000);

afterAll(async () => {
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inspect = (...args: string[]) =>
  runKubeimg(["inspect", "-o", "json", "--insecure-registry", registry.host, ...args], {
    cwd: dir,
  });

describe("kubeimg inspect", () => {
  it("lists the platforms in the order an arm64 node tries them, and what it pulls", async () => {
    const run = await inspect(`${registry.host}/team/multi:1.0`, "--platform", "linux/arm64");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as InspectJson;
    expect(json.platform).toBe("linux/arm64");
    expect(json.digest).toBe(fixture.index.digest);
    expect(json.entries.map((e) => [e.try, e.platform, e.chosen])).toEqual([
      [1, "linux/arm64/v8", true],
      [2, "linux/arm/v7", false],
      [3, "linux/arm/v6", false],
      [4, null, false],
      [null, "unknown/unknown", false],
      [null, "linux/amd64", false],
      [null, "windows(10.0.17763.6893)/amd64", false],
      [null, "windows(10.0.20348.3207)/amd64", false],
    ]);
    expect(json.entries[4]?.attestation).toBe(true);
    expect(json.manifest?.digest).toBe(fixture.images["linux/arm64/v8"]?.manifest.digest);
    expect(json.config).toMatchObject({
      created: "2025-03-01T10:01:00Z",
      platform: "linux/arm64/v8",
    });
  });

  it("prints a table for people", async () => {
    const run = await runKubeimg(
      [
        "inspect",
        "-o",
        "table",
        "--insecure-registry",
        registry.host,
        `${registry.host}/team/multi:1.0`,
        "--platform",
        "linux/arm/v7",
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /1\s+linux\/arm\/v7\s+sha256:\S+\s+application\/vnd\.oci\.image\.manifest\.v1\+json\s+chosen/,
    );
    expect(run.stdout).toMatch(/attestation, never chosen/);
    expect(run.stdout).toMatch(/created:\s+2025-03-01T10:02:00Z/);
  });

  it("exits 1 with the offer when nothing fits the node", async () => {
    const run = await inspect(`${registry.host}/team/multi:1.0`, "--platform", "linux/riscv64");
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as InspectJson;
    expect(json.manifest).toBeNull();
    expect(json.error).toMatch(/no match for platform/);
  });

  it("names the wrong part of a bad --platform", async () => {
    const run = await inspect(`${registry.host}/team/multi:1.0`, "--platform", "linux/arm 64");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^kubeimg inspect: --platform "linux\/arm 64": the architecture part "arm 64" is wrong: /,
    );
  });
});

describe("kubeimg route --check --platform", () => {
  const route = (...args: string[]) =>
    runKubeimg(
      [
        "route",
        "-o",
        "json",
        "-f",
        "mirror.yaml",
        "-n",
        "default",
        "--image",
        `${registry.host}/team/multi:1.0`,
        "--check",
        "--insecure-registry",
        registry.host,
        ...args,
      ],
      { cwd: dir },
    );

  it("skips the amd64-only mirror for an arm64 node, and says why", async () => {
    const run = await route("--platform", "linux/arm64");
    expect(run.stderr).toBe("");
    const json = JSON.parse(run.stdout) as {
      winner: string;
      alternatives: { image: string; check?: { state: string; reason?: string } }[];
    };
    expect(json.winner).toBe(`${registry.host}/team/multi:1.0`);
    expect(json.alternatives[0]?.check).toMatchObject({
      state: "unavailable",
      reason: "available, but no linux/arm64 manifest",
    });
  });

  it("uses the mirror for an amd64 node, and without --platform", async () => {
    for (const args of [["--platform", "linux/amd64"], []]) {
      const run = await route(...args);
      const json = JSON.parse(run.stdout) as { winner: string };
      expect(json.winner).toBe(`${registry.host}/mirror/team/multi:1.0`);
    }
  });

  it("matches Windows builds as the --upstream platforms release does", async () => {
    // A host past the newest LTSC runs Windows Server 2022 images under rc.5
    // (containerd/platforms#34), not under rc.4; the mirror holds linux/amd64 only.
    const node = ["--platform", "windows(10.0.26200.1)/amd64"];
    const rc5 = JSON.parse((await route(...node)).stdout) as { winner: string | null };
    expect(rc5.winner).toBe(`${registry.host}/team/multi:1.0`);
    const rc4 = await route(...node, "--upstream", "platforms=rc.4");
    expect(rc4.stderr).toBe("");
    expect((JSON.parse(rc4.stdout) as { winner: string | null }).winner).toBeNull();
  });
});
