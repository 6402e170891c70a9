/**
 * Digest reflection and the status of an `ImagePolicy`, as Flux's
 * `ImagePolicyReconciler` (image-reflector-controller v1.2.0) computes them:
 * `updateImageRefs`, `composeImagePolicyReadyMessage`, and the Ready /
 * Reconciling / Stalled conditions that `fluxcd/pkg/runtime/reconcile`'s
 * result finalizer leaves after a reconciliation.
 *
 * All pure: the digest lookup happens in `resolveImagePolicy`.
 */
import type { Condition, ImagePolicyStatus, ImageRef } from "./image-policy-schema.js";

/** `spec.digestReflectionPolicy`.
 *
 * @inline
 */
export type DigestReflectionPolicy = "Always" | "IfNotPresent" | "Never";

/**
 * Condition reasons Flux uses for an `ImagePolicy`.
 */
export const conditionReasons = Object.freeze({
  /** Ready=True after a successful reconciliation. */
  succeeded: "Succeeded",
  /** Ready=False from a reconcile error nothing else explained. */
  failed: "Failed",
  /** Ready=False from a failure of the policy on the tags (`metav1.StatusFailure`). */
  failure: "Failure",
  /** Reconciling=True while working. */
  progressing: "Progressing",
  /** Reconciling=True after a failure, with a retry coming. */
  progressingWithRetry: "ProgressingWithRetry",
  /** Stalled: the policy or its pattern is invalid. */
  invalidPolicy: "InvalidPolicy",
  /** Stalled: `digestReflectionPolicy: Always` without `interval`. */
  intervalNotConfigured: "IntervalNotConfigured",
  /** Stalled: the repository's image is not a valid reference. */
  imageURLInvalid: "ImageURLInvalid",
  /** Ready=False: no tags yet. */
  dependencyNotReady: "DependencyNotReady",
});

/**
 * Returns whether the digest of the selected tag must be fetched, and the
 * digest to keep when not (Flux `updateImageRefs`):
 *
 * - `Never`: no digest at all;
 * - `Always`: fetch every time;
 * - `IfNotPresent`: keep the stored digest while the image and tag are
 *   unchanged and a digest is stored; fetch otherwise.
 */
export function planDigestReflection(
  policy: DigestReflectionPolicy,
  previous: ImageRef | undefined,
  image: string,
  tag: string,
): { readonly fetch: boolean; readonly digest: string | undefined } {
  switch (policy) {
    case "Always":
      return { fetch: true, digest: undefined };
    case "IfNotPresent": {
      const keep =
        previous !== undefined &&
        previous.name === image &&
        previous.tag === tag &&
        (previous.digest ?? "") !== "";
      return keep ? { fetch: false, digest: previous.digest } : { fetch: true, digest: undefined };
    }
    default:
      return { fetch: false, digest: undefined };
  }
}

function sameRef(a: ImageRef, b: ImageRef): boolean {
  return a.name === b.name && a.tag === b.tag && (a.digest ?? "") === (b.digest ?? "");
}

/**
 * Returns the next `latestRef` and `observedPreviousRef`: when the new ref
 * differs from the stored one (name, tag or digest), the stored one becomes
 * the observed previous ref; otherwise both stay as they are.
 */
export function nextImageRefs(
  previous: Pick<ImagePolicyStatus, "latestRef" | "observedPreviousRef">,
  latestRef: ImageRef,
): { latestRef: ImageRef; observedPreviousRef: ImageRef | undefined } {
  if (previous.latestRef === undefined || !sameRef(previous.latestRef, latestRef)) {
    return { latestRef, observedPreviousRef: previous.latestRef };
  }
  return { latestRef: previous.latestRef, observedPreviousRef: previous.observedPreviousRef };
}

/**
 * Returns Flux's Ready message for a resolved policy
 * (`composeImagePolicyReadyMessage`): `Latest image tag for <name> resolved
 * to <tag>`, then ` with digest <digest>` when there is one, then
 * ` (previously <name>:<tag>[@<digest>])` when the previous ref differs.
 *
 * @example
 * ```ts
 * import { tags } from "@kubeimg/policy/internal";
 *
 * tags.composeReadyMessage({ name: "foo/bar", tag: "1.1.0" }, { name: "foo/bar", tag: "1.0.0" });
 * // "Latest image tag for foo/bar resolved to 1.1.0 (previously foo/bar:1.0.0)"
 * ```
 */
export function composeReadyMessage(latestRef: ImageRef, previous: ImageRef | undefined): string {
  let message = `Latest image tag for ${latestRef.name} resolved to ${latestRef.tag}`;
  if ((latestRef.digest ?? "") !== "") message += ` with digest ${latestRef.digest}`;
  if (previous !== undefined && !sameRef(latestRef, previous)) {
    message += ` (previously ${previous.name}:${previous.tag}`;
    if ((previous.digest ?? "") !== "") message += `@${previous.digest}`;
    message += ")";
  }
  return message;
}

/** How one reconciliation ended, as far as the conditions care. */
export type ReconcileOutcome =
  /** The tag was resolved; `message` is the Ready message. */
  | { readonly kind: "success"; readonly message: string }
  /** Nothing will change without a spec change: Stalled with this reason. */
  | { readonly kind: "stalled"; readonly reason: string; readonly message: string }
  /** A failure the controller marks on Ready itself, then retries. */
  | { readonly kind: "not-ready"; readonly reason: string; readonly message: string }
  /** A reconcile error nothing marked: the finalizer turns it into Ready=False `Failed`. */
  | { readonly kind: "error"; readonly message: string };

function setCondition(
  conditions: Map<string, Condition>,
  type: string,
  status: Condition["status"],
  reason: string,
  message: string,
): void {
  conditions.set(type, { type, status, reason, message });
}

/**
 * Returns the conditions after one reconciliation, from the previous ones
 * and the outcome, following Flux's reconciler and result finalizer:
 *
 * - success: Ready=True `Succeeded` with the Ready message; no Reconciling,
 *   no Stalled;
 * - stalled: Stalled=True and Ready=False with the same reason and message;
 *   no Reconciling;
 * - not ready: Ready=False with the given reason and message, and
 *   Reconciling=True `ProgressingWithRetry`;
 * - error: Ready=False `Failed` with the error, unless Ready was already
 *   False (its reason and message are kept), and Reconciling=True
 *   `ProgressingWithRetry`.
 *
 * Conditions come out Ready first, then by type. Times are left to the
 * caller, who owns the clock.
 */
export function nextConditions(
  previous: readonly Condition[] | undefined,
  outcome: ReconcileOutcome,
): Condition[] {
  const conditions = new Map<string, Condition>();
  for (const c of previous ?? []) conditions.set(c.type, c);
  const progressing = "reconciliation in progress";
  // pkg/runtime/reconcile ProgressiveStatus: Reconciling=True, and Ready=Unknown unless set.
  setCondition(conditions, "Reconciling", "True", conditionReasons.progressing, progressing);
  const ready = conditions.get("Ready");
  if (ready === undefined || ready.status === "Unknown") {
    setCondition(conditions, "Ready", "Unknown", conditionReasons.progressing, progressing);
  }
  switch (outcome.kind) {
    case "success":
      conditions.delete("Reconciling");
      conditions.delete("Stalled");
      setCondition(conditions, "Ready", "True", conditionReasons.succeeded, outcome.message);
      break;
    case "stalled":
      conditions.delete("Reconciling");
      setCondition(conditions, "Stalled", "True", outcome.reason, outcome.message);
      setCondition(conditions, "Ready", "False", outcome.reason, outcome.message);
      break;
    case "not-ready":
      conditions.delete("Stalled");
      setCondition(conditions, "Ready", "False", outcome.reason, outcome.message);
      setCondition(
        conditions,
        "Reconciling",
        "True",
        conditionReasons.progressingWithRetry,
        progressing,
      );
      break;
    case "error": {
      conditions.delete("Stalled");
      const current = conditions.get("Ready");
      if (current === undefined || current.status !== "False") {
        setCondition(conditions, "Ready", "False", conditionReasons.failed, outcome.message);
      }
      setCondition(
        conditions,
        "Reconciling",
        "True",
        conditionReasons.progressingWithRetry,
        progressing,
      );
      break;
    }
  }
  return [...conditions.values()].sort((a, b) =>
    a.type === b.type
      ? 0
      : a.type === "Ready"
        ? -1
        : b.type === "Ready"
          ? 1
          : a.type < b.type
            ? -1
            : 1,
  );
}
