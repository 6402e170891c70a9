import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../run.js";
import { memoryIo } from "../../testing/memory-io.js";
import { type ScriptedRegistry, startScriptedRegistry } from "../../testing/scripted-registry.js";
import { type TempFiles, tempFiles } from "../../testing/temp-files.js";

let registry: ScriptedRegistry;
let files: TempFiles;
beforeAll(async () => {
  registry = await startScriptedRegistry({
    repositories: { "team/app": ["1.0.0", "1.1.0", "1.2.0", "2.0.0"] },
    pageSize: 2,
  });
  files = tempFiles({
    "policy.yaml": `apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: app, namespace: default }
spec:
  imageRepositoryRef: { name: app }
  policy: { semver: { range: 1.x } }
`,
  });
});
afterAll(async () => {
  await registry.close();
  files.remove();
});

describe("kubeimg tags --registry on a terminal (in-process)", () => {
  it("rewrites one progress line per page, then clears it", async () => {
    const { io, out, err } = memoryIo({ tty: true, cwd: files.dir, fetch: globalThis.fetch });
    const code = await runCli(
      [
        "tags",
        "-f",
        "policy.yaml",
        "--registry",
        "--image",
        `${registry.host}/team/app`,
        "--insecure-registry",
        registry.host,
      ],
      io,
    );
    expect(code).toBe(0);
    expect(out()).toMatch(/selected:.*1\.2\.0/);
    expect(err()).toBe(
      [
        `\r\u001b[2Kkubeimg tags: listing ${registry.host}/team/app: page 1, 2 tags so far`,
        `\r\u001b[2Kkubeimg tags: listing ${registry.host}/team/app: page 2, 4 tags so far`,
        "\r\u001b[2K",
      ].join(""),
    );
  });
});
