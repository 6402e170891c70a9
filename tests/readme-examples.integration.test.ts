/**
 * The README blocks that need a server, run as pasted against a real
 * registry and redis-server on the workspace's sources (linked into a
 * scratch project, nothing built): those declaring a name whose value in
 * scripts/examples-assumed.ts `needs` one (`registry`, `redisUrl`).
 * `pnpm check:packages` compiles and runs every README block against the
 * packed tarballs with the same runner and servers.
 * Fails, never skips, when the registry or redis-server is missing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractExamples } from "../scripts/check-examples.js";
import {
  type ExampleServers,
  linkWorkspacePackages,
  planExample,
  runExamples,
  startExampleServers,
} from "../scripts/run-examples.js";

const online = extractExamples().readme.filter((e) => planExample(e).where === "online");

let dir: string;
let nodeOptions: string[];
let servers: ExampleServers | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-readme-examples-"));
  nodeOptions = linkWorkspacePackages(dir);
  servers = await startExampleServers(join(dir, "servers"));
}, 120_000);

afterAll(async () => {
  await servers?.stop();
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
        online: servers?.online,
        runDir: `run${i}`,
      });
      expect(failures).toEqual([]);
    },
  );
});
