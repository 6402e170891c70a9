import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import { memoryIo } from "../../io/memory-io.test-support.js";
import { unsafeCharacters } from "../../output/unsafe-chars.test-support.js";
import {
  type ScriptedRegistry,
  startScriptedRegistry,
} from "../../registry/scripted-registry.test-support.js";
import { runCli } from "../../run.js";

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
        `\r\u001b[2Kkubeimg tags: listing ${registry.host}/team/app: page 1`,
        `\r\u001b[2Kkubeimg tags: listing ${registry.host}/team/app: page 2`,
        "\r\u001b[2K",
      ].join(""),
    );
  });
});

/** A fetch that answers every request itself: `/v2/` and a huge, lazily made tags page. */
function hugePageFetch(totalBytes: number): {
  fetch: typeof globalThis.fetch;
  pulled: () => number;
} {
  let pulled = 0;
  const chunk = new TextEncoder().encode(`"${"a".repeat(64 * 1024 - 3)}",`);
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes("/tags/list")) return new Response("{}", { status: 200 });
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          controller.enqueue(new TextEncoder().encode('{"name":"team/app","tags":['));
        } else if (sent >= totalBytes) {
          controller.enqueue(new TextEncoder().encode('"1.0.0"]}'));
          controller.close();
          return;
        } else {
          controller.enqueue(chunk);
        }
        sent += chunk.byteLength;
        pulled = sent;
      },
    });
    return new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
  };
  return { fetch, pulled: () => pulled };
}

describe("kubeimg tags --registry and a huge tags page", () => {
  it("stops at the client's page-size cap: the progress report never reads the body", async () => {
    const huge = hugePageFetch(64 * 1024 * 1024);
    const { io, out, err } = memoryIo({ tty: false, cwd: files.dir, fetch: huge.fetch });
    const code = await runCli(
      ["tags", "-f", "policy.yaml", "--registry", "--image", "registry.example.com/team/app"],
      io,
    );
    expect(code).toBe(2);
    expect(out()).toBe("");
    expect(err()).toMatch(/\[RESPONSE_TOO_LARGE\]\n$/);
    // The client's cap is 4 MiB; a copy read for progress would pull all 64 MiB.
    expect(huge.pulled()).toBeLessThan(8 * 1024 * 1024);
  });
});

describe("kubeimg tags and hostile registry text", () => {
  it("prints a registry's error text without its escape sequences", async () => {
    const hostile: typeof globalThis.fetch = async (input) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes("/tags/list")) return new Response("{}", { status: 200 });
      return new Response(
        JSON.stringify({
          errors: [
            {
              code: "DENIED",
              message: "\u001b]0;owned\u0007\u001b[2K\rselected: 9.9.9\u001b[8m",
            },
          ],
        }),
        { status: 403, headers: { "Content-Type": "application/json" } },
      );
    };
    const { io, err } = memoryIo({ tty: true, cwd: files.dir, fetch: hostile });
    const code = await runCli(
      ["tags", "-f", "policy.yaml", "--registry", "--image", "registry.example.com/team/app"],
      io,
    );
    expect(code).toBe(2);
    // No control character at all is left in what reached stderr.
    expect(unsafeCharacters(err(), { newlines: true })).toEqual([]);
  });
});
