/**
 * The whole admission decision for a Pod: probe every container that kuik
 * would probe, in parallel, then build the patch.
 */
import type { AvailabilityChecker } from "./availability.js";
import type { PodRoutingPlan } from "./plan-pod.js";
import { type BuildPodPatchOptions, buildPodPatch, type PodPatch } from "./pod-patch.js";
import {
  type FirstAvailableResult,
  type ResolveFirstAvailableOptions,
  resolveFirstAvailable,
} from "./resolve.js";
import type { RoutedAlternative } from "./route-types.js";

/** Options of {@link resolvePodRouting}. */
export interface ResolvePodRoutingOptions<Handle>
  extends ResolveFirstAvailableOptions<Handle>,
    BuildPodPatchOptions {}

/** The patch plus each container's probe outcome (undefined where nothing was probed). */
export interface PodResolution extends PodPatch {
  readonly resolutions: readonly (FirstAvailableResult<RoutedAlternative> | undefined)[];
}

/**
 * Returns the patch for `plan` after probing, with `checker`, every
 * container list kuik would probe (two entries or more). Containers are
 * resolved in parallel under the same deadline and signal. Never rejects.
 *
 * @example
 * ```ts
 * const plan = planPodRouting(routing, request.object, { namespace: request.namespace });
 * const { patch } = await resolvePodRouting(plan, gate, { timers, deadlineMs: 8000 });
 * ```
 */
export async function resolvePodRouting<Handle>(
  plan: PodRoutingPlan,
  checker: AvailabilityChecker,
  options: ResolvePodRoutingOptions<Handle> = {},
): Promise<PodResolution> {
  const resolutions = await Promise.all(
    plan.containers.map((route) =>
      route.status === "routed" && route.probed && route.direct === undefined && !plan.error
        ? resolveFirstAvailable(route.alternatives, checker, options)
        : Promise.resolve(undefined),
    ),
  );
  const patch = buildPodPatch(
    plan,
    resolutions.map((r) => r?.winner),
    options,
  );
  return Object.freeze({ ...patch, resolutions: Object.freeze(resolutions) });
}
