/**
 * The whole admission decision for a Pod: probe every container that kuik
 * would probe, in parallel, then build the patch. A few containers at a
 * time, under one deadline for the Pod, handing the event loop back now and
 * then: a Pod with thousands of containers must neither open thousands of
 * probes at once nor keep other admissions' deadline timers from firing.
 */
import type { AvailabilityChecker, RoutingTimers } from "../availability/checker.js";
import {
  type FirstAvailableResult,
  type ResolveFirstAvailableOptions,
  resolveFirstAvailable,
  resolveFromKnown,
} from "../availability/first-available.js";
import { turnBudget } from "../availability/turns.js";
import type { PodRoutingPlan } from "./plan-pod.js";
import { type BuildPodPatchOptions, buildPodPatch, type PodPatch } from "./pod-patch.js";
import type { RoutedAlternative } from "./route-types.js";

/** Options of {@link resolvePodRouting}. */
export interface ResolvePodRoutingOptions<Handle>
  extends ResolveFirstAvailableOptions<Handle>,
    BuildPodPatchOptions {
  /**
   * Containers resolved at once (default 16); each probes its alternatives
   * in parallel, through the checker's own cap on probes in flight.
   */
  readonly maxConcurrentContainers?: number;
  /**
   * Containers started between two turns of the event loop at most (default
   * 64; needs `timers`): answers from a cache settle in microtasks, which
   * would otherwise starve every timer of the process. The loop is also
   * handed back whenever the turn's budget, shared by all routing work on
   * these timers, is spent (see `turns.ts`).
   */
  readonly yieldEvery?: number;
}

/** The patch plus each container's probe outcome (undefined where nothing was probed). */
export interface PodResolution extends PodPatch {
  readonly resolutions: readonly (FirstAvailableResult<RoutedAlternative> | undefined)[];
}

/**
 * Returns the patch for `plan` after probing, with `checker`, every
 * container list kuik would probe (two entries or more). Containers are
 * resolved `maxConcurrentContainers` at a time under one deadline
 * (`deadlineMs` from the call) and signal; a container not started when
 * either ends keeps its image, as one whose probes all failed. Never rejects.
 *
 * @example
 * ```ts
 * import type { AvailabilityChecker } from "@kubeimg/policy/availability";
 * import { compileRouting, parseRoutingResource, planPodRouting, resolvePodRouting } from "@kubeimg/policy/routing";
 *
 * const routing = compileRouting([
 *   parseRoutingResource({
 *     apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
 *     metadata: { name: "all" },
 *     spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
 *   }),
 * ]);
 * const plan = planPodRouting(routing, {
 *   metadata: { name: "web", namespace: "default" },
 *   spec: { containers: [{ name: "app", image: "nginx:1.25" }] },
 * });
 * // A stand-in for a registry probe (createAvailabilityGate in a webhook): only the mirror answers.
 * const checker: AvailabilityChecker = {
 *   check: async (image) =>
 *     image.domain === "harbor.example.com"
 *       ? { available: true }
 *       : { available: false, reason: "connection refused", retryable: true },
 * };
 * const timers = {
 *   now: () => performance.now(),
 *   setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
 *   clearTimeout: (handle: NodeJS.Timeout) => clearTimeout(handle),
 * };
 * const { images } = await resolvePodRouting(plan, checker, { timers, deadlineMs: 8000 });
 * images // ["harbor.example.com/mirror/library/nginx:1.25"]
 * ```
 */
export async function resolvePodRouting<Handle>(
  plan: PodRoutingPlan,
  checker: AvailabilityChecker,
  options: ResolvePodRoutingOptions<Handle> = {},
): Promise<PodResolution> {
  const { timers, signal, deadlineMs } = options;
  if (deadlineMs !== undefined && timers === undefined) {
    throw new TypeError("resolvePodRouting: deadlineMs needs timers");
  }
  const deadlineAt = deadlineMs !== undefined && timers ? timers.now() + deadlineMs : undefined;
  const concurrency = Math.max(1, options.maxConcurrentContainers ?? 16);
  const yieldEvery = Math.max(1, options.yieldEvery ?? 64);
  const resolutions: (FirstAvailableResult<RoutedAlternative> | undefined)[] = plan.containers.map(
    () => undefined,
  );
  const todo: number[] = [];
  plan.containers.forEach((route, i) => {
    if (route.status === "routed" && route.probed && route.direct === undefined && !plan.error) {
      todo.push(i);
    }
  });
  const budget = timers ? turnBudget(timers) : undefined;
  // Containers whose answers the checker already knows are decided here and
  // now, with no probe, promise or signal each (after the first admissions
  // of a burst, that is nearly all of them), as long as the turn's budget
  // lasts; the others go to the workers below.
  if (
    "peek" in checker &&
    !signal?.aborted &&
    (deadlineAt === undefined || (timers as RoutingTimers<Handle>).now() < deadlineAt)
  ) {
    const peekOptions = options.platforms === undefined ? {} : { platforms: options.platforms };
    let kept = 0;
    for (let k = 0; k < todo.length; k++) {
      const i = todo[k] as number;
      const route = plan.containers[i];
      const known =
        route?.status === "routed" && (budget === undefined || !budget.spent())
          ? resolveFromKnown(route.alternatives, checker, peekOptions, timers !== undefined)
          : undefined;
      if (known === undefined) todo[kept++] = i;
      else resolutions[i] = known;
    }
    todo.length = kept;
  }
  let next = 0;
  let started = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      if (signal?.aborted) return;
      if (budget && (++started % yieldEvery === 0 || budget.spent())) {
        await budget.pause();
        if (signal?.aborted) return;
      }
      const left = deadlineAt === undefined || !timers ? undefined : deadlineAt - timers.now();
      if (left !== undefined && left <= 0) return;
      const i = todo[next++] as number;
      const route = plan.containers[i];
      if (route?.status !== "routed") continue;
      resolutions[i] = await resolveFirstAvailable(route.alternatives, checker, {
        ...(signal ? { signal } : {}),
        ...(timers ? { timers } : {}),
        ...(left !== undefined ? { deadlineMs: left } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  const patch = buildPodPatch(
    plan,
    resolutions.map((r) => r?.winner),
    options,
  );
  return { ...patch, resolutions };
}
