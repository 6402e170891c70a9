/**
 * Runs the abort storm (`../integration/abort-storm.ts`) in a child
 * `node --unhandled-rejections=strict`, where one unobserved rejection ends
 * the process with an error, as it ends a server that uses the client.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("the registry client under --unhandled-rejections=strict", () => {
  it("survives hundreds of aborted, aborting and timed-out calls", () => {
    const script = fileURLToPath(new URL("./abort-storm.test-support.ts", import.meta.url));
    const result = spawnSync(
      process.execPath,
      ["--unhandled-rejections=strict", "--conditions=@kubeimg/source", "--import", "tsx", script],
      { encoding: "utf8", timeout: 110_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/abort-storm: 1200 calls settled/);
  }, 120_000);
});
