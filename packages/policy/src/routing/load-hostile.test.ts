import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Document, stringify } from "yaml";
import { HOSTILE_KEYS, jsonWithKeyAt, objectPaths } from "../objects/hostile-keys.test-support.js";
import { parseKuikConfig } from "./config-schema.js";
import { isRoutingError } from "./errors.js";
import { safeParseRoutingResource } from "./load.js";
import { loadKuikConfig, loadRoutingResources } from "./yaml/index.js";

const resources = [
  {
    apiVersion: "kuik.enix.io/v1alpha1",
    kind: "ClusterImageSetMirror",
    metadata: { name: "all", labels: { team: "a" } },
    spec: {
      priority: 1,
      filter: { include: [{ namespace: "team-.*" }], exclude: [{ label: "x=y" }] },
      mirrors: [
        { registry: "harbor.example.com", path: "/m", priority: 2 },
        { registry: "b.example.com", path: "/n" },
      ],
    },
  },
  {
    apiVersion: "kuik.enix.io/v1alpha1",
    kind: "ImageSetMirror",
    metadata: { name: "team", namespace: "my-app" },
    spec: {
      imageFilter: { include: ["quay\\.io/.*"] },
      mirrors: [{ registry: "harbor.example.com", path: "/team", cleanup: { enabled: true } }],
    },
  },
  {
    apiVersion: "kuik.enix.io/v1alpha1",
    kind: "ClusterReplicatedImageSet",
    metadata: { name: "r" },
    spec: {
      filter: { include: [{ namespace: ".*" }] },
      upstreams: [
        { registry: "docker.io", path: "bitnami", imageFilter: { include: [".*"] } },
        { registry: "quay.io", path: "bitnami" },
      ],
    },
  },
  {
    apiVersion: "kuik.enix.io/v1alpha1",
    kind: "ReplicatedImageSet",
    metadata: { name: "r", namespace: "ns" },
    spec: {
      filter: { include: [{ label: "app=x" }] },
      upstreams: [{ registry: "docker.io", path: "library", credentialSecret: { name: "s" } }],
    },
  },
];

const cases = resources.flatMap((resource) =>
  objectPaths(resource).flatMap((path) =>
    HOSTILE_KEYS.map((key) => ({
      resource,
      path,
      key,
      label: `${resource.kind} ${[...path, key].join(".")}`,
    })),
  ),
);

function parsedClean(resource: unknown) {
  const r = safeParseRoutingResource(resource);
  if (!r.success) throw r.error;
  return r.data;
}

describe("routing loaders and prototype keys (a key never supplies a value)", () => {
  it.each(cases)("$label", ({ resource, path, key }) => {
    const text = jsonWithKeyAt(resource, path, key);
    const hostile: unknown = JSON.parse(text);
    const where = [...path, key]
      .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`))
      .join("");
    // Strict (the default): an unknown-field error naming the path.
    const strict = safeParseRoutingResource(hostile);
    expect(strict.success).toBe(false);
    if (!strict.success) {
      expect(strict.error.code).toBe("UNKNOWN_FIELD");
      expect(strict.error.path).toBe(where);
    }
    // Ignored: exactly the object without the key.
    const ignored = safeParseRoutingResource(hostile, { unknownFields: "ignore" });
    expect(ignored.success && ignored.data).toEqual(parsedClean(resource));
    // Warned: the same object, one warning naming the path.
    const warned = safeParseRoutingResource(hostile, { unknownFields: "warn" });
    expect(warned.success && warned.data).toEqual(parsedClean(resource));
    expect(warned.success && warned.warnings.map((w) => w.path)).toEqual([where]);
    // The same through YAML text (JSON is YAML), all documents at once.
    expect(() => loadRoutingResources(text)).toThrow(
      expect.objectContaining({ code: "UNKNOWN_FIELD" }),
    );
    expect(loadRoutingResources(text, { unknownFields: "ignore" })).toEqual([
      parsedClean(resource),
    ]);
  });

  it("the reported case: spec.__proto__ and mirrors[0].__proto__ supply nothing", () => {
    const text = `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: m }
spec:
  __proto__: { filter: { include: [{ image: "quay\\\\.io/.*" }] } }
  mirrors:
    - registry: mirror.example.com
      path: /m
      __proto__: { credentialSecret: { name: leaked, namespace: kube-system } }
`;
    const [resource] = loadRoutingResources(text, { unknownFields: "ignore" });
    expect(resource?.kind === "ClusterImageSetMirror" && resource.spec.filter).toBeUndefined();
    expect(
      resource?.kind === "ClusterImageSetMirror" && resource.spec.mirrors[0]?.credentialSecret,
    ).toBeUndefined();
    expect(() => loadRoutingResources(text)).toThrow(
      expect.objectContaining({ code: "UNKNOWN_FIELD", path: "spec.__proto__" }),
    );
  });

  it("every level of the kuik configuration", () => {
    const config = {
      skipLabels: ["a=b"],
      routing: { activeCheck: { timeout: "2s", staleMirrorCleanup: { maxConcurrent: 3 } } },
      monitoring: { registries: { items: { "quay.io": { interval: "1h" } } } },
    };
    const clean = parseKuikConfig(config);
    for (const path of objectPaths(config)) {
      for (const key of HOSTILE_KEYS) {
        const text = jsonWithKeyAt(config, path, key);
        expect(() => loadKuikConfig(text)).toThrow(
          expect.objectContaining({ code: "UNKNOWN_FIELD" }),
        );
        expect(loadKuikConfig(text, { unknownFields: "ignore" })).toEqual(clean);
        expect(parseKuikConfig(JSON.parse(text), { unknownFields: "ignore" })).toEqual(clean);
      }
    }
  });

  it("random placements never change the result", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.constantFrom(...HOSTILE_KEYS),
        ({ resource, path }, key) => {
          const hostile = JSON.parse(jsonWithKeyAt(resource, path, key));
          const r = safeParseRoutingResource(hostile, { unknownFields: "ignore" });
          expect(r.success && r.data).toEqual(parsedClean(resource));
          expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("unknown fields in routing objects", () => {
  it("carry the value found in value and the field meant in suggestion", () => {
    const mirror = {
      apiVersion: "kuik.enix.io/v1alpha1",
      kind: "ClusterImageSetMirror",
      metadata: { name: "m" },
      spec: { mirrors: [{ registy: "h.example.com" }] },
    };
    const routing = safeParseRoutingResource(mirror);
    expect(routing.success ? undefined : routing.error).toMatchObject({
      code: "UNKNOWN_FIELD",
      value: "h.example.com",
      suggestion: "registry",
    });
    expect(() => parseKuikConfig({ skipLabel: ["a=b"] })).toThrowError(
      expect.objectContaining({ code: "UNKNOWN_FIELD", value: ["a=b"], suggestion: "skipLabels" }),
    );
  });

  it.each([
    {
      yaml: {
        spec: {
          imageFilters: { include: [".*"] },
          mirrors: [{ registry: "h.example.com", path: "/x" }],
        },
      },
      path: "spec.imageFilters",
      suggestion: "imageFilter",
    },
    {
      yaml: { spec: { mirrors: [{ registy: "h.example.com", path: "/x" }] } },
      path: "spec.mirrors[0].registy",
      suggestion: "registry",
    },
    { yaml: { metadata: { name: "m", nmae: "x" } }, path: "metadata.nmae", suggestion: "name" },
    { yaml: { spec: { mirrors: [], bogus: 1 } }, path: "spec.bogus", suggestion: undefined },
  ])("$path", ({ yaml, path, suggestion }) => {
    const object = {
      apiVersion: "kuik.enix.io/v1alpha1",
      kind: "ClusterImageSetMirror",
      metadata: { name: "m" },
      ...yaml,
    };
    const text = stringify(object);
    let caught: unknown;
    try {
      loadRoutingResources(text);
    } catch (e) {
      caught = e;
    }
    expect(isRoutingError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "UNKNOWN_FIELD", path, document: 0, suggestion });
    expect((caught as Error).message).toContain(`unknown field "${path}"`);
    if (suggestion) expect((caught as Error).message).toContain(`did you mean "${suggestion}"?`);
    const warnings: string[] = [];
    loadRoutingResources(text, { unknownFields: "warn", onWarning: (w) => warnings.push(w.path) });
    expect(warnings).toEqual([path]);
  });

  it("accepts a manifest read back from the cluster (status, managed metadata)", () => {
    const text = stringify({
      apiVersion: "kuik.enix.io/v1alpha1",
      kind: "ClusterImageSetMirror",
      metadata: {
        name: "m",
        uid: "u",
        creationTimestamp: "2024-01-01T00:00:00Z",
        managedFields: [],
        annotations: { a: "b" },
      },
      spec: { mirrors: [{ registry: "h.example.com", path: "/x" }] },
      status: { matchingImages: [] },
    });
    expect(loadRoutingResources(text)).toHaveLength(1);
  });

  it("lenient validation warns instead (kuik's webhook decodes without strict checks)", () => {
    const r = safeParseRoutingResource(
      {
        apiVersion: "kuik.enix.io/v1alpha1",
        kind: "ClusterImageSetMirror",
        metadata: { name: "m" },
        spec: { typo: 1 },
      },
      { validation: "lenient" },
    );
    expect(r.success && r.warnings.map((w) => w.path)).toEqual(["spec.typo"]);
  });
});

describe("YAML alias amplification", () => {
  const bomb = (aliases: number, items: number) =>
    `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: m }
spec:
  mirrors: [{ registry: h.example.com, path: /x }]
  filter:
    include: &big [${Array.from({ length: items }, () => "{ image: a }").join(", ")}]
x: [${Array.from({ length: aliases }, () => "*big").join(", ")}]
`;

  it("refuses a document that expands past the bound, with a typed error, before building it", () => {
    const build = vi.spyOn(Document.prototype, "toJS");
    expect(() => loadRoutingResources(bomb(99, 20_000))).toThrow(
      expect.objectContaining({ name: "RoutingError", code: "YAML_TOO_LARGE", document: 0 }),
    );
    expect(() =>
      loadKuikConfig(`a: &a [${"1,".repeat(20_000)}1]\nb: [${"*a,".repeat(99)}*a]\n`),
    ).toThrow(expect.objectContaining({ code: "YAML_TOO_LARGE" }));
    // Refused from the sizes counted over the parsed tree: no value was built, so no expansion ran.
    expect(build).not.toHaveBeenCalled();
    build.mockRestore();
  });

  it("the bound is an option; a small expansion passes it", () => {
    expect(() => loadRoutingResources(bomb(3, 10), { maxExpandedNodes: 50 })).toThrow(
      expect.objectContaining({ code: "YAML_TOO_LARGE" }),
    );
    // Under the bound, the aliased list is read (and `x` is an unknown field).
    expect(() => loadRoutingResources(bomb(3, 10))).toThrow(
      expect.objectContaining({ code: "UNKNOWN_FIELD", path: "x" }),
    );
  });

  it("an alias with no anchor is INVALID_YAML with a position and no text", () => {
    let caught: unknown;
    try {
      loadRoutingResources("apiVersion: *S3CRET-VALUE\n");
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: "INVALID_YAML", value: { line: 1, col: 13 } });
    expect((caught as Error).message).not.toContain("S3CRET");
  });
});
