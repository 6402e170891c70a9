/**
 * The slice of a Kubernetes Pod that routing reads and patches, as a zod
 * schema (fields kept with their Kubernetes names; everything else ignored).
 */

import { lazy } from "@kubeimg/core/internal";
import type * as Z from "zod/mini";
import * as z from "#zod";
import { safeParseEnglish } from "../objects/english-issues.js";
import { RoutingError } from "./errors.js";
import { describeValue, formatFieldPath, valueAtPath } from "./field-path.js";

function buildRoutingPodSchema() {
  const container = z.object({
    name: z.string(),
    image: z._default(z.string(), ""),
    imagePullPolicy: z.optional(z.string()),
  });

  return z.object({
    metadata: z.prefault(
      z.object({
        name: z.optional(z.string()),
        generateName: z.optional(z.string()),
        namespace: z._default(z.string(), ""),
        labels: z.optional(z.record(z.string(), z.string())),
        annotations: z.optional(z.record(z.string(), z.string())),
      }),
      {},
    ),
    spec: z.prefault(
      z.object({
        containers: z._default(z.array(container), []),
        initContainers: z.optional(z.array(container)),
        imagePullSecrets: z.optional(z.array(z.object({ name: z._default(z.string(), "") }))),
      }),
      {},
    ),
  });
}

/** The slice of a Pod routing reads; private, built on the first parse. */
const routingPodSchema = lazy.once(() => buildRoutingPodSchema());

/** The Pod fields routing reads (labels, annotations, containers, pull secrets). */
export type RoutingPod = Z.output<ReturnType<typeof buildRoutingPodSchema>>;

/**
 * Returns the routing view of a Pod object; throws a {@link RoutingError}
 * `INVALID_POD` naming the field and the value.
 *
 * @example
 * ```ts
 * import { parseRoutingPod } from "@kubeimg/policy/routing";
 *
 * const pod = parseRoutingPod({
 *   apiVersion: "v1", kind: "Pod",
 *   metadata: { name: "web", namespace: "default" },
 *   spec: { containers: [{ name: "app", image: "nginx:1.25" }] },
 * });
 * pod.spec.containers[0]?.image // "nginx:1.25"
 * parseRoutingPod({ containers: [] }) // throws INVALID_POD: a Pod's spec, not a Pod
 * ```
 */
export function parseRoutingPod(value: unknown): RoutingPod {
  // A PodSpec has no `spec` of its own; read as a Pod it would plan no container.
  if (
    typeof value === "object" &&
    value !== null &&
    !("spec" in value) &&
    ("containers" in value || "initContainers" in value)
  ) {
    throw new RoutingError(
      "INVALID_POD",
      "pod: spec: is missing, and containers sit at the root: pass the whole Pod (pod, request.object), not its spec",
      { path: "spec", value: undefined },
    );
  }
  const result = safeParseEnglish(routingPodSchema(), value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []) as PropertyKey[];
  const where = formatFieldPath(path);
  const found = valueAtPath(value, path);
  throw new RoutingError(
    "INVALID_POD",
    `pod: ${where || "(root)"}: ${issue?.message ?? "invalid"} (found ${describeValue(found)})`,
    { path: where, value: found },
  );
}
