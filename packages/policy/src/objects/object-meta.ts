/**
 * The fields of Kubernetes `ObjectMeta` (k8s.io/apimachinery meta/v1), so
 * that a misspelled `metadata.namspace` is reported like any other unknown
 * field while real manifests, with their labels, annotations and the fields
 * the API server adds, pass.
 */
import { closestName } from "./edit-distance.js";
import type { UnknownField } from "./unknown-fields.js";

/** Every field of `metav1.ObjectMeta`, by its JSON name. */
export const OBJECT_META_FIELDS: readonly string[] = [
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
];

/**
 * Returns the fields of `metadata` that `ObjectMeta` does not have, each
 * with the closest known name when one is close (`nmae` suggests `name`).
 */
export function findUnknownMetadataFields(
  metadata: unknown,
  prefix: readonly (string | number)[],
): UnknownField[] {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return [];
  const out: UnknownField[] = [];
  for (const key of Object.keys(metadata)) {
    if (OBJECT_META_FIELDS.includes(key)) continue;
    const suggestion = closestName(key, OBJECT_META_FIELDS);
    out.push({ path: [...prefix, key], ...(suggestion ? { suggestion } : {}) });
  }
  return out;
}
