/**
 * The webhook's decision for one AdmissionReview: kube-image-keeper's routing
 * of every container (`planPodRoutingAsync`), then the first available
 * alternative of each and the JSON Patch (`resolvePodRouting`, over a
 * caching, coalescing, circuit-breaking availability gate).
 *
 * It fails open, as kuik is deployed (`failurePolicy: Ignore`): an internal
 * error, a malformed Pod, or a decision that would outlast the deadline
 * admits the Pod unchanged, with a warning, well before the API server's
 * webhook timeout. When that must happen is the answer scheduler's call
 * (`answer-scheduler.ts`), not one timer per admission: timers fire late on
 * a busy event loop, and admissions due together must all be written in
 * time. Then the admission's planning and probes are aborted, not abandoned.
 */

import { setMaxListeners } from "node:events";
import type { AvailabilityChecker, RoutingTimers } from "@kubeimg/policy/availability";
import {
  type CompiledRouting,
  type PullSecretToEnsure,
  planPodRoutingAsync,
  resolvePodRouting,
} from "@kubeimg/policy/routing";
import {
  type AdmissionRequest,
  type AdmissionResponse,
  readAdmissionRequest,
} from "./admission-review.js";
import { AnswerScheduler, type ScheduledAnswer } from "./answer-scheduler.js";
import type { NodeTimerHandle } from "./timers.js";

/** What {@link createPodMutator} needs. */
export interface PodMutatorOptions {
  readonly routing: CompiledRouting;
  /** Usually `createAvailabilityGate(createAvailabilityChecker(…), …)`. */
  readonly checker: AvailabilityChecker;
  readonly timers: RoutingTimers<NodeTimerHandle>;
  /**
   * Budget of one admission decision in ms, kept below the webhook's
   * `timeoutSeconds` (10 s in the shipped configuration). Default 8000.
   */
  readonly deadlineMs?: number;
  /** Makes a chosen alternative's secret available in the Pod's namespace (kuik copies it). */
  readonly ensurePullSecret?: (secret: PullSecretToEnsure, namespace: string) => Promise<void>;
  /**
   * Admissions decided at once (default 32); the others wait in arrival
   * order. Many more would let one burst start all its probes at once,
   * stalling the event loop long enough to time out healthy registries.
   */
  readonly maxConcurrentAdmissions?: number;
  readonly log?: (line: string) => void;
}

/**
 * Answers one AdmissionReview body (already parsed JSON). `receivedAt` (on
 * the timers' clock) is when the request arrived: the deadline counts from
 * there, so time spent reading and parsing the body is part of the budget.
 */
export type PodMutator = (
  body: unknown,
  context?: { readonly receivedAt?: number },
) => Promise<AdmissionResponse>;

/**
 * The least time a decision may start with (plus the event loop's recent
 * lateness); probing also stops this long before the deadline, leaving the
 * time to build and write the answer.
 */
export const ANSWER_RESERVE_MS = 200;

/** Admits the Pod unchanged, saying `why` in a warning when there is one. */
function unchanged(uid: string, why?: string): AdmissionResponse {
  return why === undefined
    ? { uid, allowed: true }
    : { uid, allowed: true, warnings: [`kubeimg: ${why}; pod admitted unchanged`] };
}

/**
 * Returns the mutator. It throws only for a body that is not an
 * AdmissionReview v1 (the server answers 400); every other problem admits
 * the Pod unchanged.
 */
export function createPodMutator(options: PodMutatorOptions): PodMutator {
  const deadlineMs = options.deadlineMs ?? 8000;
  const log = options.log ?? (() => {});
  const { timers } = options;
  const maxConcurrent = options.maxConcurrentAdmissions ?? 32;
  if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(
      `maxConcurrentAdmissions must be a whole number ≥ 1, not ${String(maxConcurrent)}`,
    );
  }
  const scheduler = new AnswerScheduler({ timers });
  // Aborting an admission's work (its probes, their listeners, its slot) is
  // done after the answers of the moment are written, not before them, and
  // a few dozen per turn of the event loop: a thousand at once would hold
  // the loop as long as the answers they follow.
  const toAbort: AbortController[] = [];
  let abortArmed = false;
  const abortSome = (): void => {
    const batch = toAbort.splice(0, 32);
    for (const controller of batch) controller.abort(new Error("admission answered"));
    abortArmed = toAbort.length > 0;
    if (abortArmed) timers.setTimeout(abortSome, 0);
  };
  const abortLater = (controller: AbortController): void => {
    toAbort.push(controller);
    if (!abortArmed) {
      abortArmed = true;
      timers.setTimeout(abortSome, 0);
    }
  };
  let running = 0;
  // Waiters for a decision slot, in arrival order; a Set so that a thousand
  // leaving at once cost no scans.
  const waiting = new Set<(granted: boolean) => void>();
  /** Resolves true when a decision slot is ours, false when `leave` is called first. */
  const acquire = (): { readonly granted: Promise<boolean>; readonly leave: () => void } => {
    if (running < maxConcurrent) {
      running++;
      return { granted: Promise.resolve(true), leave: () => {} };
    }
    let settle!: (granted: boolean) => void;
    const granted = new Promise<boolean>((resolve) => {
      settle = resolve;
      waiting.add(resolve);
    });
    return { granted, leave: () => waiting.delete(settle) && settle(false) };
  };
  const release = (): void => {
    const next = waiting.values().next();
    if (next.done) running--;
    else {
      waiting.delete(next.value);
      next.value(true);
    }
  };
  return async (body, context) => {
    const started = context?.receivedAt ?? timers.now();
    const request = readAdmissionRequest(body);
    const deadlineAt = started + deadlineMs;
    const tooBusy = `too busy to decide within ${deadlineMs} ms`;
    const controller = new AbortController();
    // Every container's probes listen on the admission's signal: dozens of
    // listeners are expected, not a leak (and the warning costs a stack trace).
    setMaxListeners(0, controller.signal);
    const slot = acquire();
    let deciding = false;
    let scheduled: ScheduledAnswer | undefined;
    const forced = new Promise<AdmissionResponse>((resolve) => {
      scheduled = scheduler.add(deadlineAt, () => {
        slot.leave();
        resolve(unchanged(request.uid, deciding ? `no decision within ${deadlineMs} ms` : tooBusy));
      });
    });
    const decision = slot.granted.then(async (granted) => {
      const tooLate = granted && deadlineAt - timers.now() < ANSWER_RESERVE_MS + scheduler.lagMs;
      if (!granted || tooLate) {
        if (granted) release();
        return unchanged(request.uid, tooBusy);
      }
      deciding = true;
      try {
        return await decide(request, options, started, deadlineMs, controller.signal);
      } finally {
        release();
      }
    });
    try {
      // The race observes `decision` even when the scheduler answers first,
      // so a late failure of an abandoned decision is no unhandled rejection.
      return await Promise.race([decision, forced]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`admission ${request.uid}: ${message}; admitted unchanged`);
      return unchanged(request.uid, message);
    } finally {
      scheduled?.cancel();
      abortLater(controller);
    }
  };
}

async function decide(
  request: AdmissionRequest,
  options: PodMutatorOptions,
  started: number,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<AdmissionResponse> {
  const { uid } = request;
  if (request.kind.kind !== "Pod" || request.kind.group !== "" || request.operation !== "CREATE") {
    return unchanged(uid);
  }
  const plan = await planPodRoutingAsync(options.routing, request.object, {
    timers: options.timers,
    signal,
    ...(request.namespace ? { namespace: request.namespace } : {}),
  });
  if (plan.error) return unchanged(uid, plan.error.message);
  const left = deadlineMs - (options.timers.now() - started) - ANSWER_RESERVE_MS;
  const { patch, pullSecrets } = await resolvePodRouting(plan, options.checker, {
    timers: options.timers,
    deadlineMs: Math.max(0, left),
    signal,
  });
  if (signal.aborted || patch.length === 0) return unchanged(uid);
  for (const secret of pullSecrets.filter((s) => s.copy)) {
    if (!options.ensurePullSecret) {
      const { namespace, name } = secret.source;
      return unchanged(
        uid,
        `secret ${namespace}/${name} must be copied to ${plan.namespace} but no copier is configured`,
      );
    }
    if (!request.dryRun) await options.ensurePullSecret(secret, plan.namespace);
  }
  return {
    uid,
    allowed: true,
    patchType: "JSONPatch",
    patch: Buffer.from(JSON.stringify(patch)).toString("base64"),
  };
}
