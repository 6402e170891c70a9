/**
 * The README blocks that need a server run here, as pasted, against a real
 * registry and redis-server: those declaring a name whose value in
 * scripts/examples-assumed.ts `needs` one (`registry`, `redisUrl`). The
 * others run offline in `pnpm check:packages`, which also compiles all of
 * them under strict TypeScript against the packed tarballs. Both use the
 * runner of scripts/check-examples.ts; here the packages are the
 * workspace's sources, linked into a scratch project, so nothing is built.
 * Fails, never skips, when the registry or redis-server is missing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildImage,
  buildMultiPlatformImage,
  pushImage,
  pushMultiPlatformImage,
  type RunningRedis,
  type RunningRegistry,
  startRedisServer,
  startRegistry,
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  extractExamples,
  linkWorkspacePackages,
  planExample,
  runExamples,
} from "../scripts/check-examples.js";

const online = extractExamples().readme.filter((e) => planExample(e).where === "integration");

let dir: string;
let nodeOptions: string[];
let registry: RunningRegistry;
let redis: RunningRedis;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-readme-examples-"));
  nodeOptions = linkWorkspacePackages(dir);
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "readme-examples" });
  redis = await startRedisServer();
  // What the registry README's blocks read: an image, and a multi-platform tag.
  const nginx = buildImage({ os: "linux", architecture: "amd64" }, "oci");
  await pushImage(registry.url, "library/nginx", nginx, ["1.25"]);
  await pushMultiPlatformImage(registry.url, "team/app", buildMultiPlatformImage(), ["1.0"]);
}, 120_000);

afterAll(async () => {
  await redis?.stop();
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("README examples that need a registry or redis-server", () => {
  it("finds some (the registry and redis READMEs have them)", () => {
    const files = new Set(online.map((e) => e.where.split(":")[0]));
    expect(files).toContain("packages/registry/README.md");
    expect(files).toContain("packages/redis/README.md");
  });

  it.each(online.map((e, i) => ({ where: e.where, example: e, i })))(
    "$where runs",
    ({ example, i }) => {
      const failures = runExamples(dir, [example], {
        nodeOptions,
        online: { registry: registry.host, redisUrl: redis.url },
        runDir: `run${i}`,
      });
      expect(failures).toEqual([]);
    },
  );
});
