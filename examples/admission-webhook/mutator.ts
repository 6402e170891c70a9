/**
 * The webhook's decision for one AdmissionReview: kube-image-keeper's routing
 * of every container (`planPodRouting`), then the first available
 * alternative of each and the JSON Patch (`resolvePodRouting`, over a
 * caching, coalescing, circuit-breaking availability gate).
 *
 * It fails open, as kuik is deployed (`failurePolicy: Ignore`): an internal
 * error, a malformed Pod, or a decision that would outlast the deadline
 * admits the Pod unchanged, with a warning, well before the API server's
 * webhook timeout. The deadline is a timer, and timers only fire when the
 * event loop is free: planning and probing share one budget per event loop
 * and hand the loop back once a few milliseconds of it are spent, and a Pod
 * resolves a few containers at a time, so neither one huge Pod nor a
 * thousand admissions waking at once can make a deadline fire late. At the
 * deadline the admission's planning and probes are aborted, not abandoned.
 */

import { setMaxListeners } from "node:events";
import {
  type AvailabilityChecker,
  type CompiledRouting,
  type CredentialSecretRef,
  type PullSecretToEnsure,
  planPodRoutingAsync,
  type RoutedAlternative,
  type RoutingTimers,
  resolvePodRouting,
} from "@kubeimg/policy/routing";
import {
  type AdmissionRequest,
  type AdmissionResponse,
  readAdmissionRequest,
} from "./admission-review.js";
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
   * Admissions decided at once (default 32). Under a burst the others wait
   * for a slot; one still waiting {@link ANSWER_RESERVE_MS} before its
   * deadline is admitted unchanged without any planning or probing, so an
   * overloaded webhook sheds work instead of spreading its CPU so thin that
   * every answer is late.
   */
  readonly maxConcurrentAdmissions?: number;
  /** Containers of one Pod resolved at once (default 16). */
  readonly maxConcurrentContainers?: number;
  /** The name a copied secret gets in the Pod's namespace (default: the source's name). */
  readonly pullSecretName?: (secret: CredentialSecretRef, alternative: RoutedAlternative) => string;
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
 * The part of an admission's budget kept for building and writing its
 * answer: probing stops this long before the deadline, and an admission
 * still waiting for a decision slot then leaves the line (it could not
 * probe anything any more). When a burst of reviews arrived together, their
 * answers are then written before their deadlines rather than all at once
 * after them.
 */
export const ANSWER_RESERVE_MS = 200;

const admitUnchanged = (uid: string, warning?: string): AdmissionResponse =>
  warning === undefined ? { uid, allowed: true } : { uid, allowed: true, warnings: [warning] };

/**
 * Returns the mutator. It throws only for a body that is not an
 * AdmissionReview v1 (the server answers 400); every other problem admits
 * the Pod unchanged.
 */
export function createPodMutator(options: PodMutatorOptions): PodMutator {
  const deadlineMs = options.deadlineMs ?? 8000;
  const log = options.log ?? (() => {});
  const maxConcurrent = options.maxConcurrentAdmissions ?? 32;
  if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(
      `maxConcurrentAdmissions must be a whole number ≥ 1, not ${String(maxConcurrent)}`,
    );
  }
  let running = 0;
  // In arrival order; a Set so that a thousand leaving at once cost no scans.
  const waiting = new Set<() => void>();
  /**
   * Resolves true when a decision slot is ours, false when `signal` aborts
   * or `patienceMs` pass first.
   */
  const acquire = (signal: AbortSignal, patienceMs: number): Promise<boolean> => {
    if (running < maxConcurrent) {
      running++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const grant = (): void => {
        signal.removeEventListener("abort", leave);
        options.timers.clearTimeout(patience);
        resolve(true);
      };
      const leave = (): void => {
        signal.removeEventListener("abort", leave);
        options.timers.clearTimeout(patience);
        waiting.delete(grant);
        resolve(false);
      };
      waiting.add(grant);
      const patience = options.timers.setTimeout(leave, patienceMs);
      signal.addEventListener("abort", leave, { once: true });
    });
  };
  const release = (): void => {
    const next = waiting.values().next();
    if (!next.done) {
      waiting.delete(next.value);
      next.value();
    } else running--;
  };
  return async (body, context) => {
    const started = context?.receivedAt ?? options.timers.now();
    const request = readAdmissionRequest(body);
    const controller = new AbortController();
    // Every container's probes listen on the admission's signal: dozens of
    // listeners are expected, not a leak (and the warning costs a stack trace).
    setMaxListeners(0, controller.signal);
    let timer: NodeTimerHandle | undefined;
    const deadline = new Promise<AdmissionResponse>((resolve) => {
      timer = options.timers.setTimeout(
        () => {
          controller.abort(new Error("admission deadline"));
          resolve(
            admitUnchanged(
              request.uid,
              `kubeimg: no decision within ${deadlineMs} ms; pod admitted unchanged`,
            ),
          );
        },
        Math.max(0, deadlineMs - (options.timers.now() - started)),
      );
    });
    const patienceMs = Math.max(
      0,
      deadlineMs - ANSWER_RESERVE_MS - (options.timers.now() - started),
    );
    const decision = acquire(controller.signal, patienceMs).then(async (granted) => {
      if (!granted) {
        return admitUnchanged(
          request.uid,
          `kubeimg: too busy to decide within ${deadlineMs} ms; pod admitted unchanged`,
        );
      }
      try {
        return await decide(request, options, started, deadlineMs, controller.signal);
      } finally {
        release();
      }
    });
    try {
      // The race observes `decision` even when the deadline wins, so a late
      // failure of an abandoned decision is no unhandled rejection.
      return await Promise.race([decision, deadline]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`admission ${request.uid}: ${message}; admitted unchanged`);
      return admitUnchanged(request.uid, `kubeimg: ${message}; pod admitted unchanged`);
    } finally {
      if (timer !== undefined) options.timers.clearTimeout(timer);
      controller.abort(new Error("admission answered"));
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
    return admitUnchanged(uid);
  }
  const plan = await planPodRoutingAsync(options.routing, request.object, {
    timers: options.timers,
    signal,
    ...(request.namespace ? { namespace: request.namespace } : {}),
  });
  if (plan.error) {
    return admitUnchanged(uid, `kubeimg: ${plan.error.message}; pod admitted unchanged`);
  }
  const probeBudget = Math.max(
    0,
    deadlineMs - (options.timers.now() - started) - ANSWER_RESERVE_MS,
  );
  const { patch, pullSecrets } = await resolvePodRouting(plan, options.checker, {
    timers: options.timers,
    deadlineMs: probeBudget,
    signal,
    ...(options.maxConcurrentContainers
      ? { maxConcurrentContainers: options.maxConcurrentContainers }
      : {}),
    ...(options.pullSecretName ? { pullSecretName: options.pullSecretName } : {}),
  });
  if (signal.aborted) return admitUnchanged(uid);
  if (patch.length === 0) return admitUnchanged(uid);
  for (const secret of pullSecrets.filter((s) => s.copy)) {
    if (!options.ensurePullSecret) {
      return admitUnchanged(
        uid,
        `kubeimg: secret ${secret.source.namespace}/${secret.source.name} must be copied to ${plan.namespace} but no copier is configured; pod admitted unchanged`,
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
