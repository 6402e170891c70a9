/**
 * What `@kubeimg/core/reference` costs a browser or edge bundle: bundled
 * alone with esbuild (minified, ESM, platform neutral), gzipped. The limit
 * keeps zod and the regexp engine off the reference and platform paths, and
 * the regexp engine itself (with its Unicode tables) small.
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

/** The most gzip bytes the reference subpath may weigh. */
const REFERENCE_GZIP_LIMIT = 10 * 1024;
/** The most gzip bytes the regexp subpath may weigh: Go's engine and Unicode 13 tables (re2js took 51 KB). */
const REGEXP_GZIP_LIMIT = 25 * 1024;
/** The most gzip bytes the platform subpath may weigh: a node agent or a browser picks manifests with it. */
const PLATFORM_GZIP_LIMIT = 8 * 1024;

async function bundle(entry: string): Promise<{ minified: number; gzipped: number; text: string }> {
  const result = await build({
    stdin: { contents: `export * from "${entry}";`, resolveDir: repoRoot, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    conditions: ["@kubeimg/source"],
    write: false,
    logLevel: "silent",
  });
  const text = result.outputFiles[0]?.text ?? "";
  return { minified: Buffer.byteLength(text), gzipped: gzipSync(text, { level: 9 }).length, text };
}

describe("bundle size", () => {
  it(`@kubeimg/core/reference stays under ${REFERENCE_GZIP_LIMIT} bytes gzipped`, async () => {
    const { minified, gzipped, text } = await bundle("@kubeimg/core/reference");
    console.log(`@kubeimg/core/reference: ${minified} B minified, ${gzipped} B gzipped`);
    expect(gzipped).toBeLessThan(REFERENCE_GZIP_LIMIT);
    expect(text).not.toMatch(/error parsing regexp|ZodError/);
  });

  it(`@kubeimg/core/platform stays under ${PLATFORM_GZIP_LIMIT} bytes gzipped`, async () => {
    const { minified, gzipped, text } = await bundle("@kubeimg/core/platform");
    console.log(`@kubeimg/core/platform: ${minified} B minified, ${gzipped} B gzipped`);
    expect(gzipped).toBeLessThan(PLATFORM_GZIP_LIMIT);
    expect(text).not.toMatch(/error parsing regexp|ZodError/);
  });

  it(`@kubeimg/core/regexp stays under ${REGEXP_GZIP_LIMIT} bytes gzipped`, async () => {
    const { minified, gzipped } = await bundle("@kubeimg/core/regexp");
    console.log(`@kubeimg/core/regexp: ${minified} B minified, ${gzipped} B gzipped`);
    expect(gzipped).toBeLessThan(REGEXP_GZIP_LIMIT);
  });
});
