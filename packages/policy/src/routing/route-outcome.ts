/**
 * What a caller does with a container's route: get kuik's admission failure
 * as a value instead of an exception, and the image the container ends up
 * with once the probes have named a winner.
 */
import type { CompiledRouting } from "./compile.js";
import { RoutingError } from "./errors.js";
import { routeContainer } from "./route-container.js";
import type { ContainerRoute, RouteContainerInput, RoutedAlternative } from "./route-types.js";

/**
 * Like {@link routeContainer}, but returns the `INVALID_ALTERNATIVE_REFERENCE`
 * error as a value, so a webhook can admit the Pod unchanged as kuik does.

 */
export function safeRouteContainer(
  routing: CompiledRouting,
  input: RouteContainerInput,
): { success: true; data: ContainerRoute } | { success: false; error: RoutingError } {
  try {
    return { success: true, data: routeContainer(routing, input) };
  } catch (e) {
    if (e instanceof RoutingError) return { success: false, error: e };
    throw e;
  }
}

/**
 * Returns the image the container ends up with, given the winner of the
 * probes (the first available entry in list order, or undefined when none
 * is). Follows kuik: skipped or unprobed containers keep their image as
 * written; so does a container whose winner is the normalised original; with
 * `discardAlternativeMode: "docs"` a `direct` entry is used without probing.
 *
 * @example
 * ```ts
 * import { compileRouting, finalContainerImage, parseRoutingResource, routeContainer } from "@kubeimg/policy/routing";
 *
 * const routing = compileRouting([
 *   parseRoutingResource({
 *     apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
 *     metadata: { name: "all" },
 *     spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
 *   }),
 * ]);
 * const route = routeContainer(routing, {
 *   pod: { namespace: "default", labels: {}, annotations: {} },
 *   container: { name: "app", image: "nginx:1.25" },
 * });
 * finalContainerImage(route, route.status === "routed" ? route.alternatives[1] : undefined)
 * // "harbor.example.com/mirror/library/nginx:1.25"
 * finalContainerImage(route, undefined) // "nginx:1.25": no winner, the image as written
 * ```
 */
export function finalContainerImage(
  route: ContainerRoute,
  winner: RoutedAlternative | undefined,
): string {
  if (route.status === "skipped") return route.image;
  if (route.direct) return route.direct.image;
  if (!route.probed || winner === undefined || winner.image === route.normalized)
    return route.image;
  return winner.image;
}
