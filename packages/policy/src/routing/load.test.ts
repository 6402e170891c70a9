import { describe, expect, it } from "vitest";
import { isRoutingError } from "./errors.js";
import { parseRoutingResource, safeParseRoutingResource } from "./load.js";
import { loadRoutingResources } from "./yaml/index.js";

const cism = (spec: Record<string, unknown>) => ({
  apiVersion: "kuik.enix.io/v1alpha1",
  kind: "ClusterImageSetMirror",
  metadata: { name: "m" },
  spec,
});
const cris = (spec: Record<string, unknown>) => ({
  apiVersion: "kuik.enix.io/v1alpha1",
  kind: "ClusterReplicatedImageSet",
  metadata: { name: "r" },
  spec,
});

function errorOf(run: () => unknown): {
  code?: string;
  path?: string;
  value?: unknown;
  document?: number;
} {
  try {
    run();
  } catch (e) {
    expect(isRoutingError(e)).toBe(true);
    return e as { code: string; path: string; value: unknown; document: number };
  }
  throw new Error("expected an error");
}

describe("loadRoutingResources", () => {
  it("reads several documents, skips empty ones and expands kind: List", () => {
    const resources = loadRoutingResources(`
---
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata:
  name: global-mirror
spec:
  priority: -1
  filter:
    include:
      - image: ".*"
  mirrors:
    - registry: harbor.example.com
      path: /global-mirror
      credentialSecret:
        name: harbor-secret
        namespace: kuik-system
---
# a comment-only document
---
apiVersion: v1
kind: List
items:
  - apiVersion: kuik.enix.io/v1alpha1
    kind: ReplicatedImageSet
    metadata: { name: team, namespace: my-app }
    spec:
      upstreams:
        - { registry: docker.io, path: /bitnami, imageFilter: { include: ["/bitnami/.+"] } }
        - { registry: public.ecr.aws, path: /bitnami, priority: 1 }
`);
    expect(resources.map((r) => `${r.kind}/${r.metadata.name}`)).toEqual([
      "ClusterImageSetMirror/global-mirror",
      "ReplicatedImageSet/team",
    ]);
    const [mirror, replicated] = resources;
    expect(mirror?.spec.priority).toBe(-1);
    if (replicated?.kind !== "ReplicatedImageSet") throw new Error("kind");
    expect(replicated.spec.upstreams[1]).toEqual({
      registry: "public.ecr.aws",
      path: "/bitnami",
      priority: 1,
      discardAlternative: false,
    });
  });

  it("names the document, the field path and the value of a bad object", () => {
    const e = errorOf(() =>
      loadRoutingResources(`
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: ok }
---
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: bad }
spec:
  mirrors:
    - registry: harbor.example.com
      priority: -3
`),
    );
    expect(e).toMatchObject({
      code: "INVALID_RESOURCE",
      path: "spec.mirrors[0].priority",
      value: -3,
      document: 1,
    });
  });

  it("reads scalars as kubectl does (YAML 1.1 booleans)", () => {
    const [r] = loadRoutingResources(`
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterReplicatedImageSet
metadata: { name: r }
spec:
  upstreams:
    - { registry: docker.io, path: /bitnami, discardAlternative: yes }
`);
    if (r?.kind !== "ClusterReplicatedImageSet") throw new Error("kind");
    expect(r.spec.upstreams[0]?.discardAlternative).toBe(true);
  });

  it("reports YAML syntax errors with the document index", () => {
    expect(errorOf(() => loadRoutingResources("a: 1\n---\nkind: [\n"))).toMatchObject({
      code: "INVALID_YAML",
      document: 1,
    });
  });

  it("says on which line and column of which document the YAML breaks", () => {
    const error = errorOf(() => loadRoutingResources("a: 1\n---\nb: {c: 1 d: 2}\n"));
    expect(error).toMatchObject({ code: "INVALID_YAML", document: 1 });
    expect((error as Error).message).toMatch(/^document 1, line \d+, column \d+: /);
  });

  it("gives namespaced objects the default namespace, and refuses them without one", () => {
    const text = `
apiVersion: kuik.enix.io/v1alpha1
kind: ImageSetMirror
metadata: { name: team }
spec: { mirrors: [] }
`;
    expect(loadRoutingResources(text, { defaultNamespace: "apps" })[0]?.metadata.namespace).toBe(
      "apps",
    );
    expect(errorOf(() => loadRoutingResources(text))).toMatchObject({ path: "metadata.namespace" });
  });

  it("refuses or ignores other kinds as asked", () => {
    const text = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
---
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterReplicatedImageSet
metadata: { name: r }
spec: { upstreams: [{ registry: a.io, path: "" }] }
`;
    // Blamed on its kind (what it is), not on its apiVersion.
    const error = errorOf(() => loadRoutingResources(text));
    expect(error).toMatchObject({ path: "kind", value: "Deployment" });
    expect((error as Error).message).toMatch(/not a kuik object .*otherKinds: "ignore"/);
    expect(loadRoutingResources(text, { otherKinds: "ignore" })).toHaveLength(1);
  });
});

describe("parseRoutingResource", () => {
  it.each([
    {
      name: "a filter item setting two keys",
      object: cism({ filter: { include: [{ image: ".*", label: "a=b" }] } }),
      path: "spec.filter.include[0]",
    },
    {
      name: "an image item on a replicated set",
      object: cris({ filter: { include: [{ image: ".*" }] }, upstreams: [] }),
      path: "spec.filter.include[0]",
    },
    {
      name: "an imageFilter pattern that is not a regex",
      object: cism({ imageFilter: { include: ["["] } }),
      path: "spec.imageFilter.include[0]",
    },
    {
      name: "filter and imageFilter both with items",
      object: cism({ filter: { include: [{ image: "a" }] }, imageFilter: { include: ["b"] } }),
      path: "spec",
    },
    {
      name: "an upstream without path",
      object: cris({ upstreams: [{ registry: "docker.io" }] }),
      path: "spec.upstreams[0].path",
    },
    {
      name: "more than 16 filter items",
      object: cism({ filter: { include: Array.from({ length: 17 }, () => ({ image: "a" })) } }),
      path: "spec.filter.include",
    },
    {
      name: "a regex longer than 128 characters",
      object: cism({ filter: { include: [{ image: "a".repeat(129) }] } }),
      path: "spec.filter.include[0].image",
    },
  ])("refuses $name under CRD validation, accepts it leniently", ({ object, path }) => {
    expect(errorOf(() => parseRoutingResource(object))).toMatchObject({
      code: "INVALID_RESOURCE",
      path,
    });
    expect(safeParseRoutingResource(object, { validation: "lenient" }).success).toBe(true);
  });

  it.each([
    { object: cism({ mirrors: [{ priority: -1 }] }), path: "spec.mirrors[0].priority", value: -1 },
    { object: cism({ priority: 1.5 }), path: "spec.priority", value: 1.5 },
    {
      object: cism({ cleanup: { retention: "tomorrow" } }),
      path: "spec.cleanup.retention",
      value: "tomorrow",
    },
    {
      object: { ...cism({}), apiVersion: "kuik.enix.io/v1" },
      path: "apiVersion",
      value: "kuik.enix.io/v1",
    },
    { object: { ...cism({}), kind: "ImageMirror" }, path: "kind", value: "ImageMirror" },
    { object: { ...cism({}), metadata: {} }, path: "metadata.name", value: undefined },
    { object: "nope", path: "", value: "nope" },
  ])("always refuses what kuik cannot decode: $path", ({ object, path, value }) => {
    const result = safeParseRoutingResource(object, { validation: "lenient" });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.error).toMatchObject({ code: "INVALID_RESOURCE", path, value });
  });

  it.each(["https://h.example.com", "h.example.com/team"])(
    "refuses a mirror registry that is not a host[:port]: %s",
    (registry) => {
      const result = safeParseRoutingResource(cism({ mirrors: [{ registry, path: "/x" }] }));
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(result.error).toMatchObject({
          code: "INVALID_RESOURCE",
          path: "spec.mirrors[0].registry",
          value: registry,
        });
        expect(result.error.message).toMatch(/host\[:port\]/);
      }
    },
  );

  it("applies kuik's defaults", () => {
    const r = parseRoutingResource(cism({ mirrors: [{ registry: "h" }] }));
    expect(r.spec).toEqual({ priority: 0, mirrors: [{ registry: "h", path: "", priority: 0 }] });
  });
});
