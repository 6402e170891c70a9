/**
 * Runs the example program against a local real registry (Debian's
 * docker-registry, started here with a hand-built image) and an address
 * where nothing listens.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildImage, pushImage, type RunningRegistry, startRegistry } from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** A loopback port that was free a moment ago and has nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, "..", "..", "node_modules", ".bin", "tsx");
let dir: string;
let registry: RunningRegistry;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-example-"));
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "example" });
  await pushImage(
    registry.url,
    "team/app",
    buildImage({ os: "linux", architecture: "amd64" }, "oci"),
    ["1.0.0"],
  );
});

afterAll(async () => {
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("examples/registry-availability", () => {
  it("prints each image's alternatives and picks the first available", async () => {
    const run = promisify(execFile);
    const nowhere = `http://127.0.0.1:${await closedPort()}`; // nothing listens: connection refused
    let stdout = "";
    let code = 0;
    try {
      ({ stdout } = await run(
        tsx,
        [
          "--conditions=@kubeimg/source",
          "main.ts",
          "--json",
          "--timeout-ms",
          "2000",
          "--registry",
          nowhere,
          "--registry",
          registry.url,
          "team/app:1.0.0",
          "team/app:9.9.9",
        ],
        { cwd: here },
      ));
    } catch (error) {
      const failed = error as { stdout: string; code: number };
      stdout = failed.stdout;
      code = failed.code;
    }
    expect(code).toBe(1); // team/app:9.9.9 has no available alternative
    const reports = JSON.parse(stdout);
    expect(reports[0].selected).toBe(`${registry.host}/team/app:1.0.0`);
    expect(reports[0].alternatives[0].availability).toMatchObject({
      available: false,
      retryable: true,
    });
    expect(reports[0].alternatives[1].availability).toEqual({ available: true });
    expect(reports[1].selected).toBeUndefined();
    expect(reports[1].alternatives[1].availability).toMatchObject({
      available: false,
      retryable: false,
    });
  });
});
