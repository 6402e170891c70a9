import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import {
  HOSTILE_KEYS,
  jsonWithKeyAt,
  objectPaths,
} from "../../objects/hostile-keys.test-support.js";
import type { PolicyIssue } from "./errors.js";
import {
  parseImagePolicy,
  parseImagePolicySpec,
  parseImageRepository,
  safeParseImagePolicy,
} from "./objects.js";

const policyYaml = (apiVersion: string, extra = "") =>
  parseYaml(`apiVersion: ${apiVersion}
kind: ImagePolicy
metadata: { name: podinfo, namespace: flux-system, labels: { a: b } }
spec:
  imageRepositoryRef: { name: podinfo }
  filterTags: { pattern: '^v(?P<v>.*)$', extract: '$v' }
  policy: { semver: { range: 5.1.x } }
${extra}`);

describe("Flux ImagePolicy versions (converted to v1 as the API server does)", () => {
  it.each(["v1", "v1beta2", "v1beta1"])("%s is read and converted to v1", (version) => {
    const policy = parseImagePolicy(policyYaml(`image.toolkit.fluxcd.io/${version}`));
    expect(policy.apiVersion).toBe("image.toolkit.fluxcd.io/v1");
    expect(policy.spec.digestReflectionPolicy).toBe("Never");
    expect(policy.spec.policy.semver?.range).toBe("5.1.x");
    expect(policy.spec.filterTags).toEqual({ pattern: "^v(?P<v>.*)$", extract: "$v" });
  });

  it("v1beta2 has v1's fields (digestReflectionPolicy, interval)", () => {
    const policy = parseImagePolicy(
      policyYaml(
        "image.toolkit.fluxcd.io/v1beta2",
        "  digestReflectionPolicy: Always\n  interval: 10m\n",
      ),
    );
    expect(policy.spec.digestReflectionPolicy).toBe("Always");
    expect(policy.spec.interval).toBe("10m");
  });

  it("v1beta1 lacks digestReflectionPolicy: an unknown field there", () => {
    const r = safeParseImagePolicy(
      policyYaml("image.toolkit.fluxcd.io/v1beta1", "  digestReflectionPolicy: IfNotPresent\n"),
    );
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.code).toBe("UNKNOWN_FIELD");
      expect(r.error.issues.map((i) => i.path)).toEqual(["spec.digestReflectionPolicy"]);
    }
  });

  it("a v1beta1 status (latestImage) is pruned in the conversion", () => {
    const object = {
      ...(policyYaml("image.toolkit.fluxcd.io/v1beta1") as object),
      status: { latestImage: "ghcr.io/x:5.1.0", observedGeneration: 2 },
    };
    expect(parseImagePolicy(object).status).toBeUndefined();
  });

  it("refuses a version Flux never served", () => {
    const r = safeParseImagePolicy(policyYaml("image.toolkit.fluxcd.io/v2"));
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.code).toBe("INVALID_IMAGE_POLICY");
      expect(r.error.message).toContain("image.toolkit.fluxcd.io/v1beta2");
    }
  });
});

describe("Flux ImageRepository versions", () => {
  const repo = (apiVersion: string, spec: Record<string, unknown>) => ({
    apiVersion,
    kind: "ImageRepository",
    metadata: { name: "podinfo" },
    spec: { image: "ghcr.io/stefanprodan/podinfo", interval: "5m", ...spec },
  });

  it("fills v1's defaults, for every version", () => {
    for (const v of ["v1", "v1beta2", "v1beta1"]) {
      const r = parseImageRepository(repo(`image.toolkit.fluxcd.io/${v}`, {}));
      expect(r.apiVersion).toBe("image.toolkit.fluxcd.io/v1");
      expect(r.spec.exclusionList).toEqual(["^.*\\.sig$"]);
      expect(r.spec.insecure).toBe(false);
      expect(r.spec.provider).toBe("generic");
    }
  });

  it("reads insecure (v1, v1beta2) and refuses it in v1beta1, which lacks it", () => {
    expect(
      parseImageRepository(repo("image.toolkit.fluxcd.io/v1beta2", { insecure: true })).spec
        .insecure,
    ).toBe(true);
    expect(() =>
      parseImageRepository(repo("image.toolkit.fluxcd.io/v1beta1", { insecure: true })),
    ).toThrow(expect.objectContaining({ code: "UNKNOWN_FIELD" }));
  });

  it("checks the CRD's limits", () => {
    expect(() =>
      parseImageRepository(
        repo("image.toolkit.fluxcd.io/v1", { exclusionList: Array(26).fill("x") }),
      ),
    ).toThrow(expect.objectContaining({ code: "INVALID_IMAGE_REPOSITORY" }));
    expect(() =>
      parseImageRepository(repo("image.toolkit.fluxcd.io/v1", { timeout: "1h" })),
    ).toThrow(expect.objectContaining({ code: "INVALID_IMAGE_REPOSITORY" }));
  });
});

describe("unknown fields in Flux objects", () => {
  it.each([
    { extra: "  filterTag: { pattern: 'x' }\n", path: "spec.filterTag", suggestion: "filterTags" },
    { extra: "  polcy: {}\n", path: "spec.polcy", suggestion: "policy" },
    { extra: "  suspended: true\n", path: "spec.suspended", suggestion: "suspend" },
  ])("$path", ({ extra, path, suggestion }) => {
    const object = policyYaml("image.toolkit.fluxcd.io/v1", extra);
    const r = safeParseImagePolicy(object);
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.code).toBe("UNKNOWN_FIELD");
      expect(r.error.issues[0]?.path).toBe(path);
      expect(r.error.message).toContain(`did you mean "${suggestion}"?`);
    }
    const warnings: PolicyIssue[] = [];
    parseImagePolicy(object, { unknownFields: "warn", onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => w.path)).toEqual([path]);
    expect(() => parseImagePolicy(object, { unknownFields: "ignore" })).not.toThrow();
  });

  it("an unknown field's issue holds the value found and, apart, the suggestion", () => {
    const r = safeParseImagePolicy(
      policyYaml("image.toolkit.fluxcd.io/v1", "  filterTag: { pattern: 'x' }\n"),
    );
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.issues[0]).toMatchObject({
        path: "spec.filterTag",
        value: { pattern: "x" },
        suggestion: "filterTags",
      });
    }
    let caught: unknown;
    try {
      parseImagePolicySpec({ imageRepositoryRef: { name: "a" }, policy: {}, polcy: 3 });
    } catch (error) {
      caught = error;
    }
    expect((caught as { issues: unknown[] }).issues[0]).toMatchObject({
      path: "spec.polcy",
      value: 3,
      suggestion: "policy",
    });
  });

  it("filterTag: no longer silently drops the filter (the reported case)", () => {
    const object = parseYaml(`apiVersion: image.toolkit.fluxcd.io/v1
kind: ImagePolicy
metadata: { name: app }
spec:
  imageRepositoryRef: { name: app }
  filterTag: { pattern: '^main-' }
  policy: { alphabetical: {} }
`);
    expect(() => parseImagePolicy(object)).toThrow(
      /unknown field "spec.filterTag" \(did you mean "filterTags"\?\)/,
    );
  });
});

describe("prototype keys in Flux objects (a key never supplies a value)", () => {
  const policy = policyYaml("image.toolkit.fluxcd.io/v1") as Record<string, unknown>;
  const repository = {
    apiVersion: "image.toolkit.fluxcd.io/v1",
    kind: "ImageRepository",
    metadata: { name: "podinfo" },
    spec: {
      image: "ghcr.io/x/y",
      accessFrom: { namespaceSelectors: [{ matchLabels: { a: "b" } }] },
    },
  };
  const cases = [
    ...objectPaths(policy).map((path) => ({ kind: "ImagePolicy" as const, object: policy, path })),
    ...objectPaths(repository).map((path) => ({
      kind: "ImageRepository" as const,
      object: repository,
      path,
    })),
  ].flatMap((c) =>
    HOSTILE_KEYS.map((key) => ({ ...c, key, label: `${c.kind} ${[...c.path, key].join(".")}` })),
  );

  it.each(cases)("$label", ({ kind, object, path, key }) => {
    const hostile: unknown = JSON.parse(jsonWithKeyAt(object, path, key));
    const parse = kind === "ImagePolicy" ? parseImagePolicy : parseImageRepository;
    expect(() => parse(hostile)).toThrow(expect.objectContaining({ code: "UNKNOWN_FIELD" }));
    expect(parse(hostile, { unknownFields: "ignore" })).toEqual(parse(object));
  });

  it("parseImagePolicySpec too", () => {
    const spec = policy.spec as Record<string, unknown>;
    for (const path of objectPaths(spec)) {
      for (const key of HOSTILE_KEYS) {
        const hostile: unknown = JSON.parse(jsonWithKeyAt(spec, path, key));
        expect(() => parseImagePolicySpec(hostile)).toThrow(
          expect.objectContaining({ code: "UNKNOWN_FIELD" }),
        );
        expect(parseImagePolicySpec(hostile, { unknownFields: "ignore" })).toEqual(
          parseImagePolicySpec(spec),
        );
      }
    }
  });
});
