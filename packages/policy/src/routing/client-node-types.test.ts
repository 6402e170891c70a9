/**
 * Pods and containers as `@kubernetes/client-node` types them go into
 * routing without casts: the type assertions are checked by the typecheck
 * (this file is in the tsconfig), the calls run in the unit project.
 */
import type { V1Container, V1ObjectMeta, V1Pod } from "@kubernetes/client-node";
import { describe, expect, expectTypeOf, it } from "vitest";
import { compileRouting } from "./compile.js";
import { parseRoutingResource } from "./load.js";
import { planPodRouting } from "./plan-pod.js";
import { routeContainer } from "./route-container.js";
import { safeRouteContainer } from "./route-outcome.js";
import type { RouteContainerInput } from "./route-types.js";

const routing = compileRouting([
  parseRoutingResource({
    apiVersion: "kuik.enix.io/v1alpha1",
    kind: "ClusterImageSetMirror",
    metadata: { name: "mirror" },
    spec: {
      filter: { include: [{ image: ".*" }] },
      mirrors: [{ registry: "harbor.example.com", path: "/cache" }],
    },
  }),
]);

describe("@kubernetes/client-node shapes", () => {
  it("accepts a V1Pod's metadata and a V1Container as they are", () => {
    expectTypeOf<V1ObjectMeta>().toExtend<NonNullable<RouteContainerInput["pod"]>>();
    expectTypeOf<V1ObjectMeta | undefined>().toExtend<RouteContainerInput["pod"]>();
    expectTypeOf<V1Container>().toExtend<RouteContainerInput["container"]>();
    const pod: V1Pod = {
      metadata: { namespace: "team-a", labels: { app: "web" } },
      spec: { containers: [{ name: "web", image: "nginx:1.27", imagePullPolicy: "IfNotPresent" }] },
    };
    const container: V1Container = pod.spec?.containers[0] ?? { name: "none" };
    const route = routeContainer(routing, { pod: pod.metadata, container });
    expect(route.status).toBe("routed");
    const plan = planPodRouting(routing, pod);
    expect(plan.containers[0]?.status).toBe("routed");
  });

  it("skips a container without an image as planPodRouting does", () => {
    const container: V1Container = { name: "later" };
    const route = routeContainer(routing, { pod: undefined, container });
    expect(route).toMatchObject({ status: "skipped", skipReason: "INVALID_IMAGE", image: "" });
    const plan = planPodRouting(
      routing,
      { metadata: {}, spec: { containers: [container] } },
      { namespace: "default" },
    );
    expect(plan.containers[0]).toMatchObject({ status: "skipped", skipReason: "INVALID_IMAGE" });
    expect(safeRouteContainer(routing, { container }).success).toBe(true);
  });
});
