import { describe, expect, it } from "vitest";
import { activeCheckTimeoutMs, parseKuikConfig } from "./config-schema.js";
import { loadKuikConfig } from "./yaml/index.js";

describe("parseKuikConfig", () => {
  it("fills kuik's defaults", () => {
    const config = parseKuikConfig({});
    expect(config.skipLabels).toEqual([]);
    expect(config.routing).toEqual({
      activeCheck: {
        timeout: "1s",
        resolveDigest: false,
        staleMirrorCleanup: { maxConcurrent: 10, timeout: "5s" },
      },
      rewriteOnNeverImagePullPolicy: false,
      honorPrioritiesOnAlwaysImagePullPolicy: false,
    });
    expect(config.mirroring.platforms).toEqual([{ architecture: "amd64" }]);
    expect(config.monitoring.registries.default).toMatchObject({
      method: "HEAD",
      interval: "3h",
      maxPerInterval: 25,
    });
    expect(config.monitoring.registries.items["docker.io"]).toEqual({
      interval: "1h",
      maxPerInterval: 6,
    });
  });

  it("merges a partial file over the defaults", () => {
    const config = loadKuikConfig(`
skipLabels: ["kube-image-keeper.enix.io/image-caching-policy=ignore"]
routing:
  honorPrioritiesOnAlwaysImagePullPolicy: true
  activeCheck:
    timeout: 2s
monitoring:
  registries:
    items:
      quay.io: { interval: 2h }
`);
    expect(config.routing.honorPrioritiesOnAlwaysImagePullPolicy).toBe(true);
    expect(config.routing.activeCheck.timeout).toBe("2s");
    expect(config.routing.activeCheck.staleMirrorCleanup.timeout).toBe("5s");
    expect(Object.keys(config.monitoring.registries.items).sort()).toEqual([
      "docker.io",
      "quay.io",
    ]);
  });

  it("gives the probe timeout in milliseconds", () => {
    expect(activeCheckTimeoutMs(parseKuikConfig({}))).toBe(1000);
    expect(
      activeCheckTimeoutMs(loadKuikConfig("routing: { activeCheck: { timeout: 1m30s } }")),
    ).toBe(90_000);
  });

  it("treats an empty file as the defaults", () => {
    expect(loadKuikConfig("")).toEqual(parseKuikConfig({}));
  });

  it.each([
    { input: { skipLabels: ["app in web"] }, path: "skipLabels[0]", value: "app in web" },
    {
      input: { routing: { activeCheck: { timeout: "soon" } } },
      path: "routing.activeCheck.timeout",
      value: "soon",
    },
    {
      input: { routing: { rewriteOnNeverImagePullPolicy: "yes" } },
      path: "routing.rewriteOnNeverImagePullPolicy",
      value: "yes",
    },
    { input: { mirroring: { platforms: [] } }, path: "mirroring.platforms", value: [] },
  ])("refuses $path", ({ input, path, value }) => {
    expect(() => parseKuikConfig(input)).toThrowError(
      expect.objectContaining({ code: "INVALID_CONFIG", path, value }),
    );
  });

  it("reports YAML syntax errors with their line and column", () => {
    expect(() => loadKuikConfig("routing: {a: 1 b: 2}\n")).toThrowError(
      /^config: document 0, line 1, column \d+: /,
    );
  });

  it("reports YAML syntax errors", () => {
    expect(() => loadKuikConfig("routing: [")).toThrowError(
      expect.objectContaining({ code: "INVALID_YAML" }),
    );
  });
});
