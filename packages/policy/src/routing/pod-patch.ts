/**
 * The JSON patch (RFC 6902) kuik's webhook effectively returns for a Pod:
 * the `kuik.enix.io/original-images` annotation, the rewritten images, and
 * the pull secrets of the chosen alternatives.
 */
import type { SecretRef } from "../availability/checker.js";
import { ORIGINAL_IMAGES_ANNOTATION } from "./original-images.js";
import type { PodRoutingPlan } from "./plan-pod.js";
import { finalContainerImage } from "./route-outcome.js";
import type { RoutedAlternative } from "./route-types.js";
import { xxhash64 } from "./xxhash64.js";

/**
 * Returns the name kuik gives the copy of a credential secret it makes in a
 * Pod's namespace: `kuik-<name>-<16 hex digits>`, the digits being XXH64 of
 * `<secret namespace>/<owning CR's uid>` and the name cut so the whole fits
 * 253 characters (kuik's `makeSecretName` in the pod webhook).
 */
export function kuikSecretCopyName(secret: SecretRef, ownerUid: string): string {
  const name = secret.name.slice(0, Math.min(253 - "kuik".length - 16 - 2, secret.name.length));
  const hash = xxhash64(`${secret.namespace}/${ownerUid}`).toString(16).padStart(16, "0");
  return `kuik-${name}-${hash}`;
}

/** One RFC 6902 operation.
 *
 * @inline
 */
export type JsonPatchOperation =
  | { readonly op: "add"; readonly path: string; readonly value: unknown }
  | { readonly op: "replace"; readonly path: string; readonly value: unknown };

/** Options of {@link buildPodPatch}. */
export interface BuildPodPatchOptions {
  /**
   * The name the Pod must reference for a chosen alternative's secret.
   * Default, as kuik: the secret's own name when it lives in the Pod's
   * namespace, else the name of the copy kuik makes there
   * (`kuik-` and a hash of the secret and the owning CR's `metadata.uid`).
   */
  readonly pullSecretName?: (secret: SecretRef, alternative: RoutedAlternative) => string;
}

/** A secret the webhook must make available in the Pod's namespace. */
export interface PullSecretToEnsure {
  readonly source: SecretRef;
  /** The name referenced in the Pod's `imagePullSecrets`. */
  readonly name: string;
  /** False when the source already lives in the Pod's namespace under that name. */
  readonly copy: boolean;
}

/** The outcome of {@link buildPodPatch}. */
export interface PodPatch {
  /** Empty when nothing changes. */
  readonly patch: readonly JsonPatchOperation[];
  /** The final image of each entry of `plan.containers`. */
  readonly images: readonly string[];
  /** Secrets of the chosen alternatives, in container order, de-duplicated by name. */
  readonly pullSecrets: readonly PullSecretToEnsure[];
}

function ownerUid(alternative: RoutedAlternative): string | undefined {
  return alternative.reason.source === "original" ? undefined : alternative.reason.resource.uid;
}

/** Escapes one JSON-pointer segment (`~` then `/`). */
function pointerSegment(s: string): string {
  return s.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Returns the patch for `plan` given the winner of each container (same
 * order as `plan.containers`; undefined for no winner or not probed). Nothing
 * changes when the plan skipped the Pod or failed (kuik admits it as is).
 *
 * @example
 * ```ts
 * import { buildPodPatch, compileRouting, parseRoutingResource, planPodRouting } from "@kubeimg/policy/routing";
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
 * // Say the probes found the mirror (the second entry) first available:
 * const winners = plan.containers.map((c) => (c.status === "routed" ? c.alternatives[1] : undefined));
 * const { patch } = buildPodPatch(plan, winners);
 * patch.map((op) => `${op.op} ${op.path}`);
 * // ["add /metadata/annotations", "replace /spec/containers/0/image"]
 * const base64 = Buffer.from(JSON.stringify(patch)).toString("base64"); // an AdmissionReview's response.patch
 * ```
 */
export function buildPodPatch(
  plan: PodRoutingPlan,
  winners: readonly (RoutedAlternative | undefined)[],
  options: BuildPodPatchOptions = {},
): PodPatch {
  const images = plan.containers.map((route, i) => finalContainerImage(route, winners[i]));
  if (plan.skipReason || plan.error || plan.originalImagesAnnotation === undefined) {
    return {
      patch: [],
      images: plan.containers.map((route) => route.image),
      pullSecrets: [],
    };
  }
  const patch: JsonPatchOperation[] = [];
  const annotations = plan.pod.metadata.annotations;
  const value = plan.originalImagesAnnotation;
  if (annotations === undefined) {
    patch.push({
      op: "add",
      path: "/metadata/annotations",
      value: { [ORIGINAL_IMAGES_ANNOTATION]: value },
    });
  } else if (annotations[ORIGINAL_IMAGES_ANNOTATION] !== value) {
    patch.push({
      op: Object.hasOwn(annotations, ORIGINAL_IMAGES_ANNOTATION) ? "replace" : "add",
      path: `/metadata/annotations/${pointerSegment(ORIGINAL_IMAGES_ANNOTATION)}`,
      value,
    });
  }
  const regularCount = plan.pod.spec.containers.length;
  const pullSecrets: PullSecretToEnsure[] = [];
  const existing = new Set((plan.pod.spec.imagePullSecrets ?? []).map((s) => s.name));
  const added: string[] = [];
  plan.containers.forEach((route, i) => {
    const image = images[i] as string;
    if (image === route.image) return;
    const listPath = route.init ? "initContainers" : "containers";
    const index = route.init ? i - regularCount : i;
    patch.push({ op: "replace", path: `/spec/${listPath}/${index}/image`, value: image });
    const chosen = route.status === "routed" ? (route.direct ?? winners[i]) : undefined;
    const secret = chosen?.credentialSecret;
    if (!chosen || !secret) return;
    const name =
      options.pullSecretName?.(secret, chosen) ??
      (secret.namespace === plan.namespace
        ? secret.name
        : kuikSecretCopyName(secret, ownerUid(chosen) ?? ""));
    if (!pullSecrets.some((p) => p.name === name)) {
      pullSecrets.push({
        source: secret,
        name,
        copy: !(secret.namespace === plan.namespace && secret.name === name),
      });
    }
    if (!existing.has(name)) {
      existing.add(name);
      added.push(name);
    }
  });
  if (added.length > 0) {
    if (plan.pod.spec.imagePullSecrets === undefined) {
      patch.push({
        op: "add",
        path: "/spec/imagePullSecrets",
        value: added.map((name) => ({ name })),
      });
    } else {
      for (const name of added)
        patch.push({ op: "add", path: "/spec/imagePullSecrets/-", value: { name } });
    }
  }
  return { patch, images, pullSecrets };
}
