/**
 * The static server takes requests from whatever reaches its port: a target
 * that does not decode, is not a path, or leaves the folder is answered,
 * never a crash. Loopback only.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "./serve.js";

let dir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-playground-serve-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>ok</title>");
  const started = await serve(dir);
  server = started.server;
  port = Number(new URL(started.url).port);
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** The status of `GET <target>`, the target sent exactly as written. */
function status(target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: target, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to GET ${target}`)));
    req.on("error", reject);
    req.end();
  });
}

describe("playground static server", () => {
  it.each([
    { target: "/%", want: 400 }, // decodeURIComponent throws URIError
    { target: "/%E0%A4%A", want: 400 },
    { target: "//", want: 400 }, // new URL throws on an empty host
    { target: "/%00", want: 400 },
    { target: "/../../etc/passwd", want: 404 }, // the URL resolves it inside the folder
    { target: "/a/%2e%2e%2f%2e%2e%2fetc/passwd", want: 400 }, // leaves the folder once decoded
    { target: "/missing.js", want: 404 },
  ])("GET $target is answered $want", async ({ target, want }) => {
    expect(await status(target)).toBe(want);
    // And the server still serves the page.
    expect(await status("/")).toBe(200);
  });
});
