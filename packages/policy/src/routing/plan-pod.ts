/**
 * Routing a whole Pod: the pod-level gates, the original-images annotation
 * kuik writes, and one {@link ContainerRoute} per container and init
 * container (ephemeral containers are never routed, as in kuik).
 */
import { json } from "@kubeimg/core/internal";
import type { RoutingTimers } from "../availability/checker.js";
import { turnBudget } from "../availability/turns.js";
import type { CompiledRouting } from "./compile.js";
import type { RoutingPodMeta } from "./compile-resource.js";
import { isRoutingError, RoutingError } from "./errors.js";
import {
  ORIGINAL_IMAGES_ANNOTATION,
  originalImagesKey,
  readOriginalImages,
  setOriginalImage,
} from "./original-images.js";
import { parseRoutingPod, type RoutingPod } from "./pod-schema.js";
import { orderContainer, podSkipReason } from "./route-container.js";
import type { ContainerRoute, RoutingSkipReason } from "./route-types.js";

/** Options of {@link planPodRouting}. */
export interface PlanPodRoutingOptions {
  /**
   * The Pod's namespace when the object carries none (admission requests give
   * it apart, as `request.namespace`). One of the two is required: the API
   * server always knows a Pod's namespace, and routing in none would select no
   * namespaced CR without a word.
   */
  readonly namespace?: string;
}

/** Options of {@link planPodRoutingAsync}. */
export interface PlanPodRoutingAsyncOptions<Handle> extends PlanPodRoutingOptions {
  /** Timers whose zero-delay timeout hands the event loop back between chunks. */
  readonly timers: RoutingTimers<Handle>;
  /**
   * Containers routed between two turns of the event loop at most (default
   * 128); the loop is also handed back whenever the turn's budget, shared by
   * all routing work on these timers, is spent (see `turns.ts`).
   */
  readonly yieldEvery?: number;
  /** Stops planning at the next chunk boundary; rejects with `ABORTED`. */
  readonly signal?: AbortSignal;
}

/** What kuik would do with a Pod before probing. */
export interface PodRoutingPlan {
  /** The Pod as read (validated). */
  readonly pod: RoutingPod;
  readonly namespace: string;
  /** Set when the whole Pod is left alone (static-pod mirror, skip selectors). */
  readonly skipReason: RoutingSkipReason | undefined;
  /**
   * Set when kuik's webhook call would fail (`INVALID_ALTERNATIVE_REFERENCE`);
   * the Pod is then admitted unchanged (`failurePolicy: Ignore`).
   */
  readonly error: RoutingError | undefined;
  /** One route per container, then per init container, in spec order. */
  readonly containers: readonly ContainerRoute[];
  /**
   * The `kuik.enix.io/original-images` value kuik writes (Go's JSON of the
   * map, keys sorted), or undefined when it writes nothing.
   */
  readonly originalImagesAnnotation: string | undefined;
}

function podMeta(pod: RoutingPod, namespace: string): RoutingPodMeta {
  return {
    namespace,
    labels: pod.metadata.labels ?? {},
    annotations: pod.metadata.annotations ?? {},
  };
}

/**
 * Returns what kuik's webhook would do with `pod` before any probe. Never
 * throws for cluster data: a failing call is reported in `error`; only a
 * malformed Pod object throws (`INVALID_POD`), and so does a Pod whose
 * namespace is known neither from `metadata.namespace` nor from the
 * `namespace` option.
 *
 * @example
 * ```ts
 * import { type CompiledRouting, planPodRouting } from "@kubeimg/policy/routing";
 *
 * declare const routing: CompiledRouting; // compileRouting(…)
 * declare const admissionRequest: { object: unknown; namespace: string }; // an AdmissionReview's request
 * const plan = planPodRouting(routing, admissionRequest.object, { namespace: admissionRequest.namespace });
 * for (const c of plan.containers) if (c.status === "routed") console.log(c.container, c.alternatives);
 * ```
 */
export function planPodRouting(
  routing: CompiledRouting,
  value: unknown,
  options: PlanPodRoutingOptions = {},
): PodRoutingPlan {
  const steps = planSteps(routing, value, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Resolves to the same plan as {@link planPodRouting}, handing the event
 * loop back every `yieldEvery` containers: a Pod with ten thousand
 * containers would otherwise hold a webhook's loop for seconds, so that no
 * deadline timer of any admission could fire. Rejects like
 * `planPodRouting` throws, and with `ABORTED` when `signal` aborts.
 *
 * @example
 * ```ts
 * import { compileRouting, parseRoutingResource, planPodRoutingAsync } from "@kubeimg/policy/routing";
 *
 * const routing = compileRouting([
 *   parseRoutingResource({
 *     apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
 *     metadata: { name: "all" },
 *     spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
 *   }),
 * ]);
 * const timers = {
 *   now: () => performance.now(),
 *   setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
 *   clearTimeout: (handle: NodeJS.Timeout) => clearTimeout(handle),
 * };
 * const pod = {
 *   metadata: { name: "web", namespace: "default" },
 *   spec: { containers: [{ name: "app", image: "nginx:1.25" }] },
 * };
 * const plan = await planPodRoutingAsync(routing, pod, { timers, signal: AbortSignal.timeout(5000) });
 * plan.originalImagesAnnotation // '{"app":"nginx:1.25"}'
 * ```
 */
export async function planPodRoutingAsync<Handle>(
  routing: CompiledRouting,
  value: unknown,
  options: PlanPodRoutingAsyncOptions<Handle>,
): Promise<PodRoutingPlan> {
  const { timers, signal } = options;
  const yieldEvery = Math.max(1, options.yieldEvery ?? 128);
  const steps = planSteps(routing, value, options);
  const budget = turnBudget(timers);
  let routed = 0;
  for (;;) {
    if (signal?.aborted) throw new RoutingError("ABORTED", "planning aborted by the caller");
    const step = steps.next();
    if (step.done) return step.value;
    if (++routed % yieldEvery === 0 || budget.spent()) await budget.pause();
  }
}

/** The planning itself, yielding after each container (and after parsing the Pod). */
function* planSteps(
  routing: CompiledRouting,
  value: unknown,
  options: PlanPodRoutingOptions,
): Generator<void, PodRoutingPlan, void> {
  const pod = parseRoutingPod(value);
  yield;
  const namespace = pod.metadata.namespace || options.namespace || "";
  if (namespace === "") {
    throw new RoutingError(
      "INVALID_POD",
      "pod: metadata.namespace: is empty and no namespace option was given: set metadata.namespace or pass { namespace } (an admission request's request.namespace)",
      { path: "metadata.namespace", value: pod.metadata.namespace },
    );
  }
  const meta = podMeta(pod, namespace);
  const base = { pod, namespace };
  const skipReason = podSkipReason(routing, meta);
  const allContainers = [
    ...pod.spec.containers.map((c) => ({ container: c, init: false })),
    ...(pod.spec.initContainers ?? []).map((c) => ({ container: c, init: true })),
  ];
  if (skipReason) {
    return {
      ...base,
      skipReason,
      error: undefined,
      containers: allContainers.map(({ container, init }) => ({
        status: "skipped" as const,
        container: container.name,
        init,
        image: container.image,
        skipReason,
      })),
      originalImagesAnnotation: undefined,
    };
  }
  const processed = readOriginalImages(meta.annotations[ORIGINAL_IMAGES_ANNOTATION]);
  const recorded = readOriginalImages(undefined);
  for (const key of Object.keys(processed)) {
    setOriginalImage(recorded, key, processed[key] as string);
  }
  const containers: ContainerRoute[] = [];
  try {
    for (const { container, init } of allContainers) {
      const key = originalImagesKey(container.name, { init });
      if (Object.hasOwn(processed, key)) {
        containers.push({
          status: "skipped",
          container: container.name,
          init,
          image: container.image,
          skipReason: "ALREADY_PROCESSED",
        });
        continue;
      }
      if (!init) setOriginalImage(recorded, key, container.image);
      containers.push(orderContainer(routing, { pod: meta, container, init }));
      yield;
    }
  } catch (e) {
    if (!isRoutingError(e)) throw e;
    return {
      ...base,
      skipReason: undefined,
      error: e,
      containers: containers,
      originalImagesAnnotation: undefined,
    };
  }
  return {
    ...base,
    skipReason: undefined,
    error: undefined,
    containers: containers,
    originalImagesAnnotation: json.MarshalStringMap(recorded, "go1.22"),
  };
}
