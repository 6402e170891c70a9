/**
 * Choosing the winner among a container's alternatives, as kuik's
 * `parallel.FirstSuccessful` does: every entry is probed at once and the
 * first available entry *in list order* wins as soon as that is certain
 * (every entry before it has answered "unavailable"). Beyond kuik: probes that
 * can no longer win are aborted, and an overall deadline bounds the decision.
 */
import type { PlatformInput } from "@kubeimg/core/platform";
import { type NamedReference, safeParseNormalizedNamed } from "@kubeimg/core/reference";
import type {
  Availability,
  AvailabilityChecker,
  PeekingAvailabilityChecker,
  RoutingTimers,
  SecretRef,
} from "./checker.js";

/** What {@link resolveFirstAvailable} needs of each alternative.
 *
 * @inline
 */
export interface ProbeTarget {
  readonly image: string;
  /**
   * `image` as `parseNormalizedNamed` read it (routing's alternatives carry
   * it); absent or undefined, `image` is read here, once.
   */
  readonly reference?: NamedReference | undefined;
  readonly credentialSecret?: SecretRef | undefined;
}

/**
 * The parsed image of a target, or, when it is no valid reference, the
 * answer a registry checker gives for it (unavailable, not retryable), so
 * that such an entry never reaches a checker.
 */
function referenceOf(target: ProbeTarget): NamedReference | Availability {
  if (target.reference !== undefined) return target.reference;
  const parsed = safeParseNormalizedNamed(target.image);
  if (parsed.success) return parsed.data;
  const { error } = parsed;
  return {
    available: false,
    reason: `INVALID_REFERENCE: invalid image reference ${JSON.stringify(target.image)}: ${error.message} (${error.code})`,
    retryable: false,
  };
}

function isReference(r: NamedReference | Availability): r is NamedReference {
  return typeof (r as { string?: unknown }).string === "string";
}

/** Options of {@link resolveFirstAvailable}. */
export interface ResolveFirstAvailableOptions<Handle> {
  /** Aborts every probe and settles at once with `aborted: true`. */
  readonly signal?: AbortSignal;
  /**
   * Overall deadline in milliseconds (admission webhooks have about 10 s).
   * When it passes, probes still running are aborted and count as
   * unavailable; the first entry already known available wins. Needs `timers`.
   */
  readonly deadlineMs?: number;
  /** RoutingTimers and clock (required with `deadlineMs`; used for `durationMs`). */
  readonly timers?: RoutingTimers<Handle>;
  /**
   * The platforms the pod may run on, passed to every probe: an alternative
   * then wins only if it can serve them (see `AvailabilityCheckOptions`).
   * Off by default, as kube-image-keeper is platform-blind.
   */
  readonly platforms?: readonly PlatformInput[];
}

/** How one alternative's probe ended. */
export type ProbeOutcome =
  | { readonly state: "available"; readonly durationMs: number | undefined }
  | {
      readonly state: "unavailable";
      readonly reason: string;
      readonly retryable: boolean;
      readonly durationMs: number | undefined;
    }
  /** Aborted because it could no longer win, or by the caller's signal or the deadline. */
  | { readonly state: "aborted"; readonly reason: string };

/** The outcome of {@link resolveFirstAvailable}. */
export interface FirstAvailableResult<T extends ProbeTarget> {
  /** The first available alternative in list order, or undefined. */
  readonly winner: T | undefined;
  /** Its index, or -1. */
  readonly index: number;
  /** One outcome per alternative, same order. */
  readonly outcomes: readonly ProbeOutcome[];
  /** True when the deadline cut the decision short. */
  readonly timedOut: boolean;
  /** True when the caller's signal aborted the decision. */
  readonly aborted: boolean;
}

type Slot =
  | { state: "pending" }
  | { state: "done"; answer: Availability; durationMs: number | undefined }
  | { state: "aborted"; reason: string };

function outcomeOf(slot: Slot): ProbeOutcome {
  if (slot.state === "pending") return { state: "aborted", reason: "not finished" };
  if (slot.state === "aborted") return { state: "aborted", reason: slot.reason };
  const { answer, durationMs } = slot;
  return answer.available
    ? { state: "available", durationMs }
    : { state: "unavailable", reason: answer.reason, retryable: answer.retryable, durationMs };
}

/**
 * Fills `slots` in list order with what `checker.peek` knows, up to the first
 * available entry (the rest are marked as unable to win), and returns the
 * result when that decides: every entry ahead of the first available one, or
 * every entry, is known. Undefined when a probe is still needed.
 */
function peekSlots<T extends ProbeTarget>(
  alternatives: readonly T[],
  references: readonly (NamedReference | Availability)[],
  checker: PeekingAvailabilityChecker,
  peekOptions: { readonly platforms?: readonly PlatformInput[] },
  slots: Slot[],
  started: number | undefined,
): FirstAvailableResult<T> | undefined {
  const n = alternatives.length;
  let decidedAt = -1;
  let allKnown = true;
  for (let i = 0; i < n; i++) {
    const alternative = alternatives[i] as T;
    const reference = references[i] as NamedReference | Availability;
    const answer = isReference(reference)
      ? checker.peek(reference, alternative.credentialSecret, peekOptions)
      : reference;
    if (answer === undefined) {
      allKnown = false;
      continue;
    }
    slots[i] = { state: "done", answer, durationMs: started === undefined ? undefined : 0 };
    if (answer.available) {
      decidedAt = i;
      break;
    }
  }
  if (decidedAt < 0 && !allKnown) return undefined;
  for (let j = decidedAt + 1; decidedAt >= 0 && j < n; j++) {
    slots[j] = { state: "aborted", reason: "cannot win" };
  }
  for (let i = 0; i < (decidedAt >= 0 ? decidedAt : n); i++) {
    if ((slots[i] as Slot).state !== "done") return undefined;
  }
  return {
    winner: decidedAt >= 0 ? alternatives[decidedAt] : undefined,
    index: decidedAt,
    outcomes: slots.map(outcomeOf),
    timedOut: false,
    aborted: false,
  };
}

/**
 * The result {@link resolveFirstAvailable} would give at once from what
 * `checker` already knows (its `peek`), without any probe, promise or
 * signal; undefined when a probe is needed or the checker cannot peek.
 * `peekOptions` are passed to `peek` as they are (`{}` or `{ platforms }`);
 * `timed`: whether the caller has a clock (known answers then took 0 ms).
 */
export function resolveFromKnown<T extends ProbeTarget>(
  alternatives: readonly T[],
  checker: AvailabilityChecker,
  peekOptions: { readonly platforms?: readonly PlatformInput[] },
  timed: boolean,
): FirstAvailableResult<T> | undefined {
  if (!("peek" in checker)) return undefined;
  const slots: Slot[] = alternatives.map(() => ({ state: "pending" }));
  return peekSlots(
    alternatives,
    alternatives.map(referenceOf),
    checker as PeekingAvailabilityChecker,
    peekOptions,
    slots,
    timed ? 0 : undefined,
  );
}

/**
 * Returns the first available alternative in list order, probing all of them
 * in parallel with `checker`. The decision is taken as soon as it is certain,
 * so its latency is that of the slowest probe ahead of the winner, not the
 * sum. Probes behind a known-available entry are aborted through their
 * `AbortSignal`. A checker that throws counts as "unavailable" (retryable).
 * Never rejects. Note that kuik does not probe a list of fewer than two
 * entries; the `probed` flag of a routed `ContainerRoute` (`@kubeimg/policy/routing`) says when to call this.
 *
 * @example
 * ```ts
 * import { type AvailabilityChecker, resolveFirstAvailable } from "@kubeimg/policy/availability";
 * import {
 *   compileRouting,
 *   finalContainerImage,
 *   parseRoutingResource,
 *   routeContainer,
 * } from "@kubeimg/policy/routing";
 *
 * const routing = compileRouting([
 *   parseRoutingResource({
 *     apiVersion: "kuik.enix.io/v1alpha1",
 *     kind: "ClusterImageSetMirror",
 *     metadata: { name: "all" },
 *     spec: {
 *       filter: { include: [{ image: ".*" }] },
 *       mirrors: [{ registry: "harbor.example.com", path: "/mirror" }],
 *     },
 *   }),
 * ]);
 * const route = routeContainer(routing, {
 *   pod: { namespace: "default", labels: {}, annotations: {} },
 *   container: { name: "app", image: "nginx:1.25", imagePullPolicy: "IfNotPresent" },
 * });
 * // Stands in for createAvailabilityChecker (@kubeimg/registry): here the mirror has the image.
 * const checker: AvailabilityChecker = {
 *   check: async (image) =>
 *     image.domain === "harbor.example.com"
 *       ? { available: true }
 *       : { available: false, reason: "404", retryable: false },
 * };
 * if (route.status === "routed" && route.probed) {
 *   const timers = { now: () => performance.now(), setTimeout, clearTimeout };
 *   const { winner } = await resolveFirstAvailable(route.alternatives, checker, {
 *     deadlineMs: 8_000,
 *     timers,
 *   });
 *   console.log(finalContainerImage(route, winner)); // harbor.example.com/mirror/library/nginx:1.25
 * }
 * ```
 */
export function resolveFirstAvailable<T extends ProbeTarget, Handle>(
  alternatives: readonly T[],
  checker: AvailabilityChecker,
  options: ResolveFirstAvailableOptions<Handle> = {},
): Promise<FirstAvailableResult<T>> {
  const { signal, deadlineMs, timers } = options;
  if (deadlineMs !== undefined && timers === undefined) {
    throw new TypeError("resolveFirstAvailable: deadlineMs needs timers");
  }
  const n = alternatives.length;
  const slots: Slot[] = alternatives.map(() => ({ state: "pending" }));
  const references = alternatives.map(referenceOf);
  const started = timers?.now();
  const peeking = "peek" in checker ? (checker as PeekingAvailabilityChecker) : undefined;
  const peekOptions = options.platforms === undefined ? {} : { platforms: options.platforms };

  // What the checker knows already decides without any probe: in list
  // order, known answers fill their slots until one is available (the rest
  // cannot win). Checks, and their signals, are only for the others.
  if (peeking && !signal?.aborted) {
    const known = peekSlots(alternatives, references, peeking, peekOptions, slots, started);
    if (known !== undefined) return Promise.resolve(known);
  }
  const controllers: (AbortController | undefined)[] = new Array(n);

  return new Promise<FirstAvailableResult<T>>((resolve) => {
    let finished = false;
    let deadline: { readonly handle: Handle } | undefined;

    const abortSlot = (i: number, reason: string): void => {
      if (slots[i]?.state !== "pending") return;
      slots[i] = { state: "aborted", reason };
      controllers[i]?.abort(reason);
    };

    const finish = (index: number, flags: { timedOut?: boolean; aborted?: boolean }): void => {
      if (finished) return;
      finished = true;
      if (deadline !== undefined) timers?.clearTimeout(deadline.handle);
      signal?.removeEventListener("abort", onAbort);
      const reason = flags.aborted
        ? "aborted by caller"
        : flags.timedOut
          ? "deadline exceeded"
          : "cannot win";
      for (let i = 0; i < n; i++) abortSlot(i, reason);
      resolve({
        winner: index >= 0 ? alternatives[index] : undefined,
        index,
        outcomes: slots.map(outcomeOf),
        timedOut: flags.timedOut ?? false,
        aborted: flags.aborted ?? false,
      });
    };

    const firstKnownAvailable = (): number =>
      slots.findIndex((s) => s.state === "done" && s.answer.available);

    const decide = (): void => {
      if (finished) return;
      const best = firstKnownAvailable();
      if (best >= 0) for (let j = best + 1; j < n; j++) abortSlot(j, "cannot win");
      for (let i = 0; i < n; i++) {
        const slot = slots[i] as Slot;
        if (slot.state === "pending") return;
        if (slot.state === "done" && slot.answer.available) {
          finish(i, {});
          return;
        }
      }
      finish(-1, {});
    };

    function onAbort(): void {
      finish(-1, { aborted: true });
    }

    if (signal?.aborted) {
      finish(-1, { aborted: true });
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (n === 0) {
      finish(-1, {});
      return;
    }
    if (deadlineMs !== undefined && timers !== undefined) {
      deadline = {
        handle: timers.setTimeout(
          () => finish(firstKnownAvailable(), { timedOut: true }),
          deadlineMs,
        ),
      };
    }

    alternatives.forEach((alternative, i) => {
      if (slots[i]?.state !== "pending") return;
      const settle = (answer: Availability): void => {
        if (finished || slots[i]?.state !== "pending") return;
        const now = timers?.now();
        slots[i] = {
          state: "done",
          answer,
          durationMs: now !== undefined && started !== undefined ? now - started : undefined,
        };
        decide();
      };
      const reference = references[i] as NamedReference | Availability;
      if (!isReference(reference)) {
        settle(reference);
        return;
      }
      const controller = new AbortController();
      controllers[i] = controller;
      let pending: Promise<Availability>;
      try {
        pending = checker.check(reference, alternative.credentialSecret, {
          signal: controller.signal,
          ...peekOptions,
        });
      } catch (e) {
        pending = Promise.reject(e);
      }
      Promise.resolve(pending).then(settle, (e: unknown) =>
        settle({
          available: false,
          reason: e instanceof Error ? e.message : String(e),
          retryable: true,
        }),
      );
    });
  });
}
