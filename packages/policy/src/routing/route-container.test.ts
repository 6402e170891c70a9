import { describe, expect, it } from "vitest";
import { compileRouting, createRoutingCompileCache } from "./compile.js";
import { isRoutingError } from "./errors.js";
import { parseRoutingResource } from "./load.js";
import { routeContainer } from "./route-container.js";
import { finalContainerImage, safeRouteContainer } from "./route-outcome.js";
import type { RoutedContainerRoute } from "./route-types.js";

const api = "kuik.enix.io/v1alpha1";
const pod = (
  extra: Partial<{
    namespace: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  }> = {},
) => ({
  namespace: "my-app",
  labels: {},
  annotations: {},
  ...extra,
});

const teamMirrors = [
  {
    apiVersion: api,
    kind: "ClusterImageSetMirror",
    metadata: { name: "global-mirror" },
    spec: {
      priority: -1,
      filter: { include: [{ image: ".*" }] },
      mirrors: [
        {
          registry: "harbor.example.com",
          path: "/global-mirror",
          credentialSecret: { name: "harbor-secret", namespace: "kuik-system" },
        },
      ],
    },
  },
  {
    apiVersion: api,
    kind: "ImageSetMirror",
    metadata: { name: "team-mirror", namespace: "my-app" },
    spec: {
      priority: -10,
      filter: { include: [{ image: "docker-registry.example.com/my-app/.+" }] },
      mirrors: [
        {
          registry: "fast-registry.internal",
          path: "/my-app-cache",
          priority: 1,
          credentialSecret: { name: "fast-registry-secret", namespace: "ignored" },
        },
      ],
    },
  },
];

/** Two CRs kuik skips: a bad label selector and a bad regex in `spec.filter`. */
const badFilters = [
  {
    apiVersion: api,
    kind: "ClusterImageSetMirror",
    metadata: { name: "bad-selector" },
    spec: {
      filter: { include: [{ image: ".*" }, { label: "app in web" }] },
      mirrors: [{ registry: "a.example.com" }],
    },
  },
  {
    apiVersion: api,
    kind: "ClusterImageSetMirror",
    metadata: { name: "bad-regex" },
    spec: { filter: { include: [{ image: "(" }] }, mirrors: [{ registry: "b.example.com" }] },
  },
];

function compile(objects: readonly unknown[], options: Parameters<typeof compileRouting>[1] = {}) {
  return compileRouting(
    objects.map((o) => parseRoutingResource(o, { validation: "lenient" })),
    options,
  );
}

function routed(route: ReturnType<typeof routeContainer>): RoutedContainerRoute {
  if (route.status !== "routed") throw new Error(`skipped: ${route.skipReason}`);
  return route;
}

describe("routeContainer", () => {
  it("orders by (CR priority, kind, entry priority, index) and says why each entry is there", () => {
    const route = routed(
      routeContainer(compile(teamMirrors), {
        pod: pod(),
        container: {
          name: "api",
          image: "docker-registry.example.com/my-app/api:v2",
          imagePullPolicy: "IfNotPresent",
        },
      }),
    );
    expect(route.alternatives.map((a) => [a.image, a.credentialSecret, a.reason])).toEqual([
      [
        "fast-registry.internal/my-app-cache/my-app/api:v2",
        { name: "fast-registry-secret", namespace: "my-app" }, // forced to the ISM's namespace
        {
          source: "mirror",
          key: { crPriority: -10, kindRank: 2, entryPriority: 1, entryIndex: 0 },
          resource: { kind: "ImageSetMirror", name: "team-mirror", namespace: "my-app" },
          mirrorIndex: 0,
          mirrorOf: "docker-registry.example.com/my-app/api:v2",
        },
      ],
      [
        "harbor.example.com/global-mirror/my-app/api:v2",
        { name: "harbor-secret", namespace: "kuik-system" },
        {
          source: "mirror",
          key: { crPriority: -1, kindRank: 1, entryPriority: 0, entryIndex: 0 },
          resource: { kind: "ClusterImageSetMirror", name: "global-mirror" },
          mirrorIndex: 0,
          mirrorOf: "docker-registry.example.com/my-app/api:v2",
        },
      ],
      [
        "docker-registry.example.com/my-app/api:v2",
        undefined,
        {
          source: "original",
          key: { crPriority: 0, kindRank: 0, entryPriority: 0, entryIndex: 0 },
          pinnedFirst: false,
        },
      ],
    ]);
    expect(route.probed).toBe(true);
  });

  it("pins the original first for imagePullPolicy Always unless priorities are honoured", () => {
    const input = {
      pod: pod(),
      container: { name: "app", image: "nginx", imagePullPolicy: "Always" },
    };
    const pinned = routed(routeContainer(compile(teamMirrors), input));
    expect(pinned.alternatives[0]?.image).toBe("docker.io/library/nginx");
    expect(pinned.alternatives[0]?.reason).toMatchObject({
      pinnedFirst: true,
      key: { crPriority: -Infinity },
    });
    const honoured = routed(
      routeContainer(
        compile(teamMirrors, {
          config: { routing: { honorPrioritiesOnAlwaysImagePullPolicy: true } },
        }),
        input,
      ),
    );
    expect(honoured.alternatives.map((a) => a.image)).toEqual([
      "harbor.example.com/global-mirror/library/nginx",
      "docker.io/library/nginx",
    ]);
  });

  interface SkipCase {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    image?: string;
    policy?: string;
    reason: string;
  }
  it.each<SkipCase>([
    {
      name: "a static-pod mirror",
      annotations: { "kubernetes.io/config.mirror": "x" },
      reason: "MIRROR_POD",
    },
    {
      name: "a skipLabels match",
      labels: { "cnpg.io/podRole": "instance" },
      reason: "SKIP_LABELS",
    },
    {
      name: "a skipAnnotations match",
      annotations: { "example.com/no-kuik": "" },
      reason: "SKIP_ANNOTATIONS",
    },
    {
      name: "an already processed container",
      annotations: { "kuik.enix.io/original-images": '{"app":"x"}' },
      reason: "ALREADY_PROCESSED",
    },
    { name: "an unparsable image", image: "Nginx:1", reason: "INVALID_IMAGE" },
    { name: "a digest", image: `nginx@sha256:${"a".repeat(64)}`, reason: "DIGEST" },
    { name: "tag and digest", image: `nginx:1@sha256:${"a".repeat(64)}`, reason: "DIGEST" },
    { name: "pull policy Never", policy: "Never", reason: "PULL_POLICY_NEVER" },
  ])("skips $name", ({ labels, annotations, image, policy, reason }) => {
    const routing = compile(teamMirrors, {
      config: { skipLabels: ["cnpg.io/podRole"], skipAnnotations: ["example.com/no-kuik"] },
    });
    const route = routeContainer(routing, {
      pod: pod({ labels: labels ?? {}, annotations: annotations ?? {} }),
      container: {
        name: "app",
        image: image ?? "nginx:1.25",
        imagePullPolicy: policy ?? "IfNotPresent",
      },
    });
    expect(route).toMatchObject({
      status: "skipped",
      skipReason: reason,
      image: image ?? "nginx:1.25",
    });
    expect(finalContainerImage(route, undefined)).toBe(image ?? "nginx:1.25");
  });

  it("routes Never like IfNotPresent when rewriteOnNeverImagePullPolicy is set", () => {
    const routing = compile(teamMirrors, {
      config: { routing: { rewriteOnNeverImagePullPolicy: true } },
    });
    const input = {
      pod: pod(),
      container: { name: "app", image: "nginx:1.25", imagePullPolicy: "Never" },
    };
    expect(routed(routeContainer(routing, input)).alternatives).toHaveLength(2);
  });

  describe("discardAlternative", () => {
    const bitnami = [
      {
        apiVersion: api,
        kind: "ClusterReplicatedImageSet",
        metadata: { name: "bitnami" },
        spec: {
          upstreams: [
            {
              registry: "docker.io",
              path: "/bitnami",
              discardAlternative: true,
              imageFilter: { include: ["/bitnami/.+"] },
            },
            { registry: "docker.io", path: "/bitnamilegacy" },
          ],
        },
      },
    ];
    const input = {
      pod: pod(),
      container: { name: "app", image: "bitnami/redis:7.2", imagePullPolicy: "IfNotPresent" },
    };

    it("kuik's code: a one-entry list is left alone (not probed, not rewritten)", () => {
      const route = routed(routeContainer(compile(bitnami), input));
      expect(route.alternatives.map((a) => a.image)).toEqual(["docker.io/bitnamilegacy/redis:7.2"]);
      expect(route).toMatchObject({ probed: false, originalDiscarded: true, direct: undefined });
      expect(finalContainerImage(route, undefined)).toBe("bitnami/redis:7.2");
    });

    it('discardAlternativeMode "docs": routes to the single remaining upstream without probing', () => {
      const route = routed(
        routeContainer(compile(bitnami, { discardAlternativeMode: "docs" }), input),
      );
      expect(route).toMatchObject({
        probed: false,
        direct: { image: "docker.io/bitnamilegacy/redis:7.2" },
      });
      expect(finalContainerImage(route, undefined)).toBe("docker.io/bitnamilegacy/redis:7.2");
    });
  });

  it("fails with a typed error when a mirror CR applies and an entry is not a reference", () => {
    const routing = compile([
      {
        apiVersion: api,
        kind: "ClusterImageSetMirror",
        metadata: { name: "c" },
        spec: {
          filter: { include: [{ image: ".*" }] },
          mirrors: [{ registry: "harbor.example.com", path: "/Mirror" }],
        },
      },
      {
        apiVersion: api,
        kind: "ImageSetMirror",
        metadata: { name: "i", namespace: "my-app" },
        spec: {
          filter: { include: [{ image: "nothing" }] },
          mirrors: [{ registry: "cache.local" }],
        },
      },
    ]);
    const input = {
      pod: pod(),
      container: { name: "app", image: "nginx:1.25", imagePullPolicy: "IfNotPresent" },
    };
    let error: unknown;
    try {
      routeContainer(routing, input);
    } catch (e) {
      error = e;
    }
    expect(isRoutingError(error)).toBe(true);
    expect(error).toMatchObject({
      code: "INVALID_ALTERNATIVE_REFERENCE",
      input: "harbor.example.com/Mirror/library/nginx:1.25",
    });
    // Memoised: the second call fails the same way.
    expect(safeRouteContainer(routing, input)).toMatchObject({
      success: false,
      error: { code: "INVALID_ALTERNATIVE_REFERENCE" },
    });
    // In another namespace the ISM does not apply, so nothing parses the bad entry.
    expect(
      safeRouteContainer(routing, { ...input, pod: pod({ namespace: "other" }) }),
    ).toMatchObject({ success: true });
  });

  it("stops mirrors of mirrors from exploding with a typed error", () => {
    const catchAll = (i: number) => ({
      apiVersion: api,
      kind: "ClusterImageSetMirror",
      metadata: { name: `all-${i}` },
      spec: {
        filter: { include: [{ image: ".*" }] },
        mirrors: [{ registry: `m${i}.example.com` }],
      },
    });
    // Each catch-all mirrors every entry before it: 2^30 entries without a limit.
    const routing = compile(Array.from({ length: 30 }, (_, i) => catchAll(i)));
    const result = safeRouteContainer(routing, {
      pod: pod(),
      container: { name: "app", image: "nginx:1", imagePullPolicy: "IfNotPresent" },
    });
    expect(result).toMatchObject({ success: false, error: { code: "TOO_MANY_ALTERNATIVES" } });
  });

  it("with invalidResources: skip, skips a CR whose filter has a bad selector or regex, and records why", () => {
    const routing = compile(badFilters, { invalidResources: "skip" });
    expect(routing.problems.map((p) => p.resource.name)).toEqual(["bad-selector", "bad-regex"]);
    const route = routed(
      routeContainer(routing, {
        pod: pod(),
        container: { name: "app", image: "nginx:1", imagePullPolicy: "IfNotPresent" },
      }),
    );
    expect(route.alternatives.map((a) => a.image)).toEqual(["docker.io/library/nginx:1"]);
  });

  it("throws INVALID_RESOURCE for a CR kuik would skip, naming the object and the option", () => {
    let caught: unknown;
    try {
      compile([badFilters[1]]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "INVALID_RESOURCE", path: "spec.filter" });
    expect(String((caught as Error).message)).toMatch(
      /^ClusterImageSetMirror bad-regex: spec\.filter: .*invalidResources: "skip"/,
    );
  });

  it("keeps memoised results apart for pods whose annotations differ in any way", () => {
    const routing = compile([
      {
        apiVersion: api,
        kind: "ClusterImageSetMirror",
        metadata: { name: "annotated" },
        spec: {
          filter: { include: [{ annotation: "b" }] },
          mirrors: [{ registry: "m.example.com" }],
        },
      },
    ]);
    const count = (annotations: Record<string, string>) =>
      routed(
        routeContainer(routing, {
          pod: pod({ annotations }),
          container: { name: "app", image: "nginx:1", imagePullPolicy: "IfNotPresent" },
        }),
      ).alternatives.length;
    expect(count({ a: "x", b: "y" })).toBe(2);
    expect(count({ a: "x\u0000b\u0000y" })).toBe(1);
    expect(count({ a: "x", b: "y" })).toBe(2);
  });

  it("selects namespaced CRs by namespace and cluster CRs by spec.filter", () => {
    const routing = compile([
      ...teamMirrors,
      {
        apiVersion: api,
        kind: "ClusterImageSetMirror",
        metadata: { name: "prod-only" },
        spec: {
          filter: {
            include: [{ namespace: "prod-.*" }, { label: "tier=web" }],
            exclude: [{ annotation: "skip" }],
          },
          mirrors: [{ registry: "prod-mirror.example.com" }],
        },
      },
    ]);
    const images = (p: ReturnType<typeof pod>) =>
      routed(
        routeContainer(routing, {
          pod: p,
          container: { name: "app", image: "nginx:1", imagePullPolicy: "IfNotPresent" },
        }),
      ).alternatives.map((a) => a.image);
    expect(images(pod({ namespace: "prod-eu", labels: { tier: "web" } }))).toContain(
      "prod-mirror.example.com/library/nginx:1",
    );
    expect(
      images(pod({ namespace: "prod-eu", labels: { tier: "web" }, annotations: { skip: "" } })),
    ).not.toContain("prod-mirror.example.com/library/nginx:1");
    expect(images(pod({ namespace: "dev", labels: { tier: "web" } }))).not.toContain(
      "prod-mirror.example.com/library/nginx:1",
    );
  });
});

describe("compileRouting with a cache", () => {
  const object = (generation: number, registry: string) =>
    parseRoutingResource({
      apiVersion: api,
      kind: "ClusterImageSetMirror",
      metadata: { name: "m", uid: "u-1", generation },
      spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry }] },
    });

  it("reuses a compiled CR while its generation is unchanged and recompiles after a change", () => {
    const cache = createRoutingCompileCache();
    const first = compileRouting([object(1, "a.example.com")], { cache });
    // Same uid and generation: the compiled object is reused even from a re-parsed copy.
    const second = compileRouting([object(1, "ignored.example.com")], { cache });
    expect(second.clusterMirrors[0]).toBe(first.clusterMirrors[0]);
    const third = compileRouting([object(2, "b.example.com")], { cache });
    expect(third.clusterMirrors[0]?.mirrors[0]?.registry).toBe("b.example.com");
    compileRouting([], { cache });
    expect(cache.size).toBe(0);
  });
});
