import { describe, expect, it } from "vitest";
import { isRegistryError } from "../errors/index.js";
import { readImageConfig, readIndex, readManifestConfig } from "./documents.js";
import { documentKind } from "./resolve.js";

const ctx = { reference: "example.com/app:1" };
const digest = `sha256:${"a".repeat(64)}`;
const entry = (extra: Record<string, unknown> = {}) => ({
  mediaType: "application/vnd.oci.image.manifest.v1+json",
  digest,
  size: 10,
  ...extra,
});

function codeAndMessage(run: () => unknown): [string, string] {
  try {
    run();
  } catch (e) {
    if (isRegistryError(e)) return [e.code, e.message];
    throw e;
  }
  throw new Error("did not throw");
}

describe("readIndex", () => {
  it("reads platforms with all five parts and flags attestations", () => {
    const entries = readIndex(
      {
        manifests: [
          entry({ platform: { os: "linux", architecture: "arm64", variant: "v8" } }),
          entry({
            platform: { os: "unknown", architecture: "unknown" },
            annotations: { "vnd.docker.reference.type": "attestation-manifest" },
          }),
          entry({
            platform: {
              os: "windows",
              architecture: "amd64",
              "os.version": "10.0.1.2",
              "os.features": ["win32k"],
            },
          }),
          entry(),
        ],
      },
      ctx,
    );
    expect(entries[0]?.platform).toEqual({
      os: "linux",
      architecture: "arm64",
      variant: "v8",
      osVersion: "",
      osFeatures: [],
    });
    expect(entries.map((e) => e.attestation)).toEqual([false, true, false, false]);
    expect(entries[2]?.platform?.osFeatures).toEqual(["win32k"]);
    expect(entries[3]?.platform).toBeUndefined();
  });

  it("keeps __proto__ as an ordinary annotation key", () => {
    const [e] = readIndex(
      JSON.parse(
        `{"manifests":[{"mediaType":"x","digest":"${digest}","size":1,"annotations":{"__proto__":"p"}}]}`,
      ),
      ctx,
    );
    expect(Object.getPrototypeOf(e?.annotations)).toBeNull();
    expect(Object.entries(e?.annotations ?? {})).toEqual([["__proto__", "p"]]);
  });

  it.each([
    { doc: [], want: "index is not a JSON object" },
    { doc: { manifests: {} }, want: "index manifests must be a list" },
    {
      doc: { manifests: [entry({ digest: "sha256:abc" })] },
      want: "index manifests[0].digest is not a valid digest",
    },
    {
      doc: { manifests: [entry({ size: -1 })] },
      want: "index manifests[0].size must be a non-negative integer",
    },
    {
      doc: { manifests: [entry({ platform: { os: "linux" } })] },
      want: "index manifests[0].platform.architecture must be a string",
    },
    {
      doc: {
        manifests: [entry({ platform: { os: "linux", architecture: "x", "os.features": [1] } })],
      },
      want: 'index manifests[0].platform["os.features"] must be a list of strings',
    },
    {
      doc: { manifests: [entry({ annotations: { a: 1 } })] },
      want: 'index manifests[0].annotations["a"] must be a string',
    },
  ])("refuses: $want", ({ doc, want }) => {
    expect(codeAndMessage(() => readIndex(doc, ctx))).toEqual([
      "INVALID_RESPONSE",
      `example.com/app:1: ${want}`,
    ]);
  });
});

describe("readImageConfig", () => {
  const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  it("reads platform, created and labels", () => {
    const c = readImageConfig(
      bytes({
        os: "linux",
        architecture: "arm",
        variant: "v7",
        created: "2025-01-01T00:00:00Z",
        config: { Labels: { a: "b" } },
      }),
      ctx,
    );
    expect([c.os, c.architecture, c.variant, c.created, c.labels.a]).toEqual([
      "linux",
      "arm",
      "v7",
      "2025-01-01T00:00:00Z",
      "b",
    ]);
    expect(
      readImageConfig(bytes({ os: "linux", architecture: "amd64", config: { Labels: null } }), ctx)
        .labels,
    ).toEqual({});
  });
  it.each([
    { bytes: new TextEncoder().encode("{"), want: "image config is not JSON" },
    { bytes: bytes({ os: 1 }), want: "image config os must be a string" },
    { bytes: bytes({ created: 5 }), want: "image config created must be a string" },
    {
      bytes: bytes({ config: { Labels: [] } }),
      want: "image config config.Labels must be an object of strings",
    },
  ])("refuses: $want", ({ bytes: b, want }) => {
    expect(codeAndMessage(() => readImageConfig(b, ctx))).toEqual([
      "INVALID_RESPONSE",
      `example.com/app:1: ${want}`,
    ]);
  });
  it("needs a config descriptor in a manifest", () => {
    expect(codeAndMessage(() => readManifestConfig({ layers: [] }, ctx))[1]).toBe(
      "example.com/app:1: manifest config must be an object",
    );
  });
});

describe("documentKind", () => {
  it("goes by media type, then by shape when the type is missing", () => {
    expect(
      documentKind({
        mediaType: "application/vnd.docker.distribution.manifest.list.v2+json",
        manifest: {},
      }),
    ).toBe("index");
    expect(documentKind({ mediaType: undefined, manifest: { manifests: [] } })).toBe("index");
    expect(documentKind({ mediaType: undefined, manifest: { config: {} } })).toBe("manifest");
    expect(
      documentKind({
        mediaType: "application/vnd.docker.distribution.manifest.v1+prettyjws",
        manifest: {},
      }),
    ).toBeUndefined();
  });
});
