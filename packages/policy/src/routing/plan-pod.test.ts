import { describe, expect, it } from "vitest";
import { compileRouting } from "./compile.js";
import { parseRoutingResource } from "./load.js";
import { planPodRouting } from "./plan-pod.js";
import { buildPodPatch } from "./pod-patch.js";
import type { RoutedAlternative } from "./route-types.js";

const routing = compileRouting(
  [
    parseRoutingResource({
      apiVersion: "kuik.enix.io/v1alpha1",
      kind: "ImageSetMirror",
      metadata: { name: "team", namespace: "apps" },
      spec: {
        filter: { include: [{ image: "docker\\.io/.+" }] },
        mirrors: [
          { registry: "harbor.example.com", path: "/m", credentialSecret: { name: "harbor" } },
        ],
      },
    }),
  ],
  { config: { skipLabels: ["kube-image-keeper.enix.io/image-caching-policy=ignore"] } },
);

const pod = (
  extra: { annotations?: Record<string, string>; labels?: Record<string, string> } = {},
) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web", namespace: "apps", ...extra },
  spec: {
    containers: [
      { name: "web", image: "nginx:1.25", imagePullPolicy: "IfNotPresent" },
      { name: "side", image: `busybox@sha256:${"b".repeat(64)}` },
    ],
    initContainers: [{ name: "migrate", image: "alpine:3", imagePullPolicy: "IfNotPresent" }],
  },
});

/** The winner each routed container would get if the mirror answered. */
function mirrorWins(plan: ReturnType<typeof planPodRouting>): (RoutedAlternative | undefined)[] {
  return plan.containers.map((c) =>
    c.status === "routed"
      ? c.alternatives.find((a) => a.image.startsWith("harbor.example.com"))
      : undefined,
  );
}

describe("planPodRouting and buildPodPatch", () => {
  it("records regular containers (not init ones) in the annotation, as Go marshals it", () => {
    const plan = planPodRouting(routing, pod());
    expect(plan.containers.map((c) => [c.container, c.status])).toEqual([
      ["web", "routed"],
      ["side", "skipped"],
      ["migrate", "routed"],
    ]);
    expect(plan.originalImagesAnnotation).toBe(
      `{"side":"busybox@sha256:${"b".repeat(64)}","web":"nginx:1.25"}`,
    );
  });

  it("patches the annotation, the rewritten images and the pull secret", () => {
    const plan = planPodRouting(routing, pod());
    const result = buildPodPatch(plan, mirrorWins(plan), {
      pullSecretName: (secret) => `kuik-${secret.name}-copy`,
    });
    expect(result.patch).toEqual([
      {
        op: "add",
        path: "/metadata/annotations",
        value: { "kuik.enix.io/original-images": plan.originalImagesAnnotation },
      },
      {
        op: "replace",
        path: "/spec/containers/0/image",
        value: "harbor.example.com/m/library/nginx:1.25",
      },
      {
        op: "replace",
        path: "/spec/initContainers/0/image",
        value: "harbor.example.com/m/library/alpine:3",
      },
      { op: "add", path: "/spec/imagePullSecrets", value: [{ name: "kuik-harbor-copy" }] },
    ]);
    expect(result.pullSecrets).toEqual([
      { source: { name: "harbor", namespace: "apps" }, name: "kuik-harbor-copy", copy: true },
    ]);
  });

  it("keeps the original when it wins, and only records the annotation", () => {
    const plan = planPodRouting(routing, pod({ annotations: { other: "x" } }));
    const winners = plan.containers.map((c) =>
      c.status === "routed"
        ? c.alternatives.find((a) => a.reason.source === "original")
        : undefined,
    );
    expect(buildPodPatch(plan, winners).patch).toEqual([
      {
        op: "add",
        path: "/metadata/annotations/kuik.enix.io~1original-images",
        value: plan.originalImagesAnnotation,
      },
    ]);
  });

  it("skips containers already recorded, and leaves the annotation alone when nothing is new", () => {
    const annotation = `{"side":"busybox@sha256:${"b".repeat(64)}","web":"nginx:1.25"}`;
    const plan = planPodRouting(
      routing,
      pod({ annotations: { "kuik.enix.io/original-images": annotation } }),
    );
    expect(plan.containers.map((c) => (c.status === "skipped" ? c.skipReason : c.status))).toEqual([
      "ALREADY_PROCESSED",
      "ALREADY_PROCESSED",
      "routed",
    ]);
    const result = buildPodPatch(plan, mirrorWins(plan));
    expect(result.patch).toEqual([
      {
        op: "replace",
        path: "/spec/initContainers/0/image",
        value: "harbor.example.com/m/library/alpine:3",
      },
      { op: "add", path: "/spec/imagePullSecrets", value: [{ name: "harbor" }] },
    ]);
    expect(result.pullSecrets).toEqual([
      { source: { name: "harbor", namespace: "apps" }, name: "harbor", copy: false },
    ]);
  });

  it("leaves skipped pods without any patch or annotation", () => {
    for (const extra of [
      { annotations: { "kubernetes.io/config.mirror": "abc" } },
      { labels: { "kube-image-keeper.enix.io/image-caching-policy": "ignore" } },
    ]) {
      const plan = planPodRouting(routing, pod(extra));
      expect(plan.skipReason).toBeDefined();
      expect(plan.originalImagesAnnotation).toBeUndefined();
      expect(buildPodPatch(plan, []).patch).toEqual([]);
    }
  });

  it("reports a failing call as a value and patches nothing", () => {
    const broken = compileRouting([
      parseRoutingResource({
        apiVersion: "kuik.enix.io/v1alpha1",
        kind: "ClusterImageSetMirror",
        metadata: { name: "c" },
        spec: {
          filter: { include: [{ image: ".*" }] },
          mirrors: [{ registry: "h.example.com", path: "/UPPER" }],
        },
      }),
      parseRoutingResource({
        apiVersion: "kuik.enix.io/v1alpha1",
        kind: "ClusterImageSetMirror",
        metadata: { name: "d" },
        spec: { filter: { include: [{ image: "x" }] }, mirrors: [] },
      }),
    ]);
    const plan = planPodRouting(broken, pod());
    expect(plan.error?.code).toBe("INVALID_ALTERNATIVE_REFERENCE");
    expect(buildPodPatch(plan, []).patch).toEqual([]);
  });

  it("refuses a malformed Pod with the field path", () => {
    expect(() => planPodRouting(routing, { spec: { containers: [{ image: "x" }] } })).toThrowError(
      expect.objectContaining({ code: "INVALID_POD", path: "spec.containers[0].name" }),
    );
  });
});

describe("pull secrets of chosen alternatives", () => {
  it("references kuik's copy of a secret from another namespace, named as kuik names it", () => {
    const cluster = compileRouting([
      parseRoutingResource({
        apiVersion: "kuik.enix.io/v1alpha1",
        kind: "ClusterImageSetMirror",
        metadata: { name: "global", uid: "uid-1" },
        spec: {
          filter: { include: [{ image: ".*" }] },
          mirrors: [
            {
              registry: "harbor.example.com",
              credentialSecret: { name: "harbor", namespace: "kuik-system" },
            },
          ],
        },
      }),
    ]);
    const plan = planPodRouting(cluster, pod());
    const winners = plan.containers.map((c) =>
      c.status === "routed" ? c.alternatives.find((a) => a.credentialSecret) : undefined,
    );
    const result = buildPodPatch(plan, winners);
    expect(result.pullSecrets).toEqual([
      {
        source: { name: "harbor", namespace: "kuik-system" },
        name: "kuik-harbor-f61a3de32908aaaa", // XXH64("kuik-system/uid-1"), checked against libxxhash
        copy: true,
      },
    ]);
    expect(result.patch.at(-1)).toEqual({
      op: "add",
      path: "/spec/imagePullSecrets",
      value: [{ name: "kuik-harbor-f61a3de32908aaaa" }],
    });
  });
});

describe("resolvePodRouting", () => {
  it("probes each routed container and patches the winners", async () => {
    const { resolvePodRouting } = await import("./resolve-pod.js");
    const plan = planPodRouting(routing, pod());
    const available = new Set([
      "harbor.example.com/m/library/nginx:1.25",
      "docker.io/library/alpine:3",
    ]);
    const result = await resolvePodRouting(plan, {
      check: async (image) =>
        available.has(image.string)
          ? { available: true }
          : { available: false, reason: "404", retryable: false },
    });
    expect(result.images).toEqual([
      "harbor.example.com/m/library/nginx:1.25",
      `busybox@sha256:${"b".repeat(64)}`,
      "alpine:3", // the original won: the image stays as written
    ]);
    expect(result.resolutions.map((r) => r?.index)).toEqual([1, undefined, 0]);
  });
});

describe("planPodRouting given a Pod's spec", () => {
  it("throws INVALID_POD saying to pass the whole Pod", () => {
    let caught: unknown;
    try {
      planPodRouting(routing, pod().spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "INVALID_POD", path: "spec" });
    expect(String((caught as Error).message)).toMatch(/whole Pod.*not its spec/);
  });
});

describe("planPodRouting given a Pod without a namespace", () => {
  const bare = () => {
    const { namespace: _, ...metadata } = pod().metadata;
    return { ...pod(), metadata };
  };

  it("throws INVALID_POD naming metadata.namespace and the namespace option", () => {
    let caught: unknown;
    try {
      planPodRouting(routing, bare());
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "INVALID_POD", path: "metadata.namespace" });
    expect(String((caught as Error).message)).toMatch(/pass \{ namespace \}/);
  });

  it("routes in the namespace the option gives, as the API server would", () => {
    const plan = planPodRouting(routing, bare(), { namespace: "apps" });
    expect(plan.namespace).toBe("apps");
    expect(mirrorWins(plan)[0]?.image).toBe("harbor.example.com/m/library/nginx:1.25");
  });
});
