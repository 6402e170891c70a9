/**
 * The slice of a Kubernetes Pod that routing reads and patches, as a zod
 * schema (fields kept with their Kubernetes names; everything else ignored).
 */
import * as z from "zod";
import { RoutingError } from "./errors.js";
import { describeValue, formatFieldPath, valueAtPath } from "./field-path.js";

let schema: ReturnType<typeof buildPodSchema> | undefined;

function buildPodSchema() {
  const container = z.object({
    name: z.string(),
    image: z.string().default(""),
    imagePullPolicy: z.string().optional(),
  });
  return z.object({
    metadata: z
      .object({
        name: z.string().optional(),
        generateName: z.string().optional(),
        namespace: z.string().default(""),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
      })
      .prefault({}),
    spec: z
      .object({
        containers: z.array(container).default([]),
        initContainers: z.array(container).optional(),
        imagePullSecrets: z.array(z.object({ name: z.string().default("") })).optional(),
      })
      .prefault({}),
  });
}

/** The Pod fields routing reads (labels, annotations, containers, pull secrets). */
export type RoutingPod = z.output<ReturnType<typeof buildPodSchema>>;

/**
 * Returns the routing view of a Pod object; throws a {@link RoutingError}
 * `INVALID_POD` naming the field and the value.
 *
 * @example
 * ```ts
 * const pod = parseRoutingPod(admissionRequest.object);
 * pod.spec.containers[0]?.image
 * ```
 */
export function parseRoutingPod(value: unknown): RoutingPod {
  schema ??= buildPodSchema();
  const result = schema.safeParse(value);
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
