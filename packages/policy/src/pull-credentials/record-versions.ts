/**
 * The API versions of the kubelet's pull record files: the group, the
 * version v1.35 writes, and the versions it reads.
 */

/**
 * The API group of the record files.
 */
export const recordApiGroup = "kubelet.config.k8s.io";
/**
 * The `apiVersion` v1.35 writes.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const text = pullCredentials.encodeIntentFile({ image: "nginx" });
 * console.log(pullCredentials.decodeIntentFile(text).apiVersion === pullCredentials.currentRecordApiVersion); // true
 * ```
 */
export const currentRecordApiVersion = "kubelet.config.k8s.io/v1beta1";
/**
 * The `apiVersion`s v1.35 reads: every version its decoding scheme
 * registers, including the internal one (field names are the Go field names
 * there). Files not in the current version are migrated at open.
 */
export const readableRecordApiVersions: readonly string[] = [
  "kubelet.config.k8s.io/v1alpha1",
  currentRecordApiVersion,
  "kubelet.config.k8s.io/__internal",
];
