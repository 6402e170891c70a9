import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { isTagPolicyError } from "./errors.js";
import { parseImagePolicy, parseImagePolicySpec, safeParseImagePolicy } from "./objects.js";

const base = {
  apiVersion: "image.toolkit.fluxcd.io/v1",
  kind: "ImagePolicy",
  metadata: { name: "podinfo", namespace: "default" },
};

function issues(spec: unknown): { path: string; value: unknown }[] {
  const r = safeParseImagePolicy({ ...base, spec });
  if (r.success) return [];
  return r.error.issues.map(({ path, value }) => ({ path, value }));
}

describe("parseImagePolicy", () => {
  it("accepts the YAML users already have and fills in the CRD defaults", () => {
    const policy = parseImagePolicy(
      parseYaml(`
apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata:
  name: podinfo
  namespace: default
spec:
  imageRepositoryRef:
    name: podinfo
  filterTags:
    pattern: '^RELEASE\\.(?P<timestamp>.*)Z$'
    extract: '$timestamp'
  policy:
    alphabetical: {}
`),
    );
    expect(policy.spec.policy.alphabetical?.order).toBe("asc");
    expect(
      parseImagePolicySpec({ imageRepositoryRef: { name: "app" }, policy: { numerical: {} } })
        .policy.numerical?.order,
    ).toBe("asc");
    expect(policy.spec.digestReflectionPolicy).toBe("Never");
    expect(policy.spec.filterTags?.extract).toBe("$timestamp");
  });

  it("accepts Always with an interval", () => {
    const spec = parseImagePolicySpec({
      imageRepositoryRef: { name: "app", namespace: "flux-system" },
      policy: { semver: { range: ">=1.0.0" } },
      digestReflectionPolicy: "Always",
      interval: "1h30m",
    });
    expect(spec.interval).toBe("1h30m");
  });

  it.each([
    {
      spec: { policy: { semver: { range: "1.x" } } },
      path: "spec.imageRepositoryRef",
      value: undefined,
    },
    {
      spec: { imageRepositoryRef: { name: "" }, policy: { numerical: {} } },
      path: "spec.imageRepositoryRef.name",
      value: "",
    },
    { spec: { imageRepositoryRef: { name: "a" }, policy: {} }, path: "spec.policy", value: {} },
    {
      spec: {
        imageRepositoryRef: { name: "a" },
        policy: { semver: { range: "1.x" }, numerical: {} },
      },
      path: "spec.policy",
      value: { semver: { range: "1.x" }, numerical: {} },
    },
    {
      spec: { imageRepositoryRef: { name: "a" }, policy: { semver: { range: "*-*" } } },
      path: "spec.policy.semver.range",
      value: "*-*",
    },
    {
      spec: { imageRepositoryRef: { name: "a" }, policy: { semver: { range: 5 } } },
      path: "spec.policy.semver.range",
      value: 5,
    },
    {
      spec: { imageRepositoryRef: { name: "a" }, policy: { alphabetical: { order: "Desc" } } },
      path: "spec.policy.alphabetical.order",
      value: "Desc",
    },
    {
      spec: {
        imageRepositoryRef: { name: "a" },
        policy: { numerical: {} },
        filterTags: { pattern: "[=" },
      },
      path: "spec.filterTags.pattern",
      value: "[=",
    },
    {
      spec: {
        imageRepositoryRef: { name: "a" },
        policy: { numerical: {} },
        digestReflectionPolicy: "Sometimes",
      },
      path: "spec.digestReflectionPolicy",
      value: "Sometimes",
    },
    {
      spec: { imageRepositoryRef: { name: "a" }, policy: { numerical: {} }, interval: "10m" },
      path: "spec.interval",
      value: "10m",
    },
    {
      spec: {
        imageRepositoryRef: { name: "a" },
        policy: { numerical: {} },
        digestReflectionPolicy: "Always",
      },
      path: "spec.interval",
      value: undefined,
    },
    {
      spec: {
        imageRepositoryRef: { name: "a" },
        policy: { numerical: {} },
        digestReflectionPolicy: "Always",
        interval: "10",
      },
      path: "spec.interval",
      value: "10",
    },
  ])("rejects $path = $value", ({ spec, path, value }) => {
    expect(issues(spec)).toContainEqual({ path, value });
  });

  it("names the field and the value in the message", () => {
    try {
      parseImagePolicy({
        ...base,
        spec: { imageRepositoryRef: { name: "a" }, policy: { semver: { range: "*-*" } } },
      });
      expect.unreachable();
    } catch (error) {
      expect(isTagPolicyError(error) && error.code).toBe("INVALID_IMAGE_POLICY");
      expect((error as Error).message).toBe(
        'invalid ImagePolicy: spec.policy.semver.range: not a semver range: improper constraint: "*-*" (got "*-*")',
      );
    }
  });

  it("checks apiVersion and kind", () => {
    const r = safeParseImagePolicy({
      ...base,
      apiVersion: "image.toolkit.fluxcd.io/v1alpha1",
      spec: {},
    });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues.map((i) => i.path)).toContain("apiVersion");
  });
});
