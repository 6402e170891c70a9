/**
 * Rows 10–12 of the kubelet's decision, apart from the manager's locking and
 * storage: whether a pod's secrets or service account match a cached
 * credentialMapping entry, and which secret to write while matching.
 */
import type { parsePodSecrets } from "./schema.js";
import type { ImagePullCredentials, ImagePullSecret } from "./types.js";

/**
 * Write-while-matching stops once an entry holds this many secrets, so that
 * namespace churn cannot grow a record without bound (a real pull still merges).
 */
export const writeRecordWhileMatchingLimit = 100;

/**
 * Rows 10–12 of the decision: compares the pod's credentials with one
 * credentialMapping entry. `write` is the pod secret to merge into the record
 * (write-while-matching) when the match calls for it.
 */
export function matchPodCredentials(
  pod: ReturnType<typeof parsePodSecrets>,
  cached: ImagePullCredentials,
): { found: boolean; write?: ImagePullSecret } {
  const cachedSecrets = cached.kubernetesSecrets;
  const canWrite = cachedSecrets.length < writeRecordWhileMatchingLimit;
  for (const podSecret of pod.secrets) {
    for (const stored of cachedSecrets) {
      const hashMatch =
        stored.credentialHash.length > 0 && podSecret.credentialHash === stored.credentialHash;
      const coordinatesMatch =
        podSecret.uid === stored.uid &&
        podSecret.namespace === stored.namespace &&
        podSecret.name === stored.name;
      if (hashMatch) {
        return !coordinatesMatch && canWrite ? { found: true, write: podSecret } : { found: true };
      }
      // Same coordinates, other hash (rotated content, or hashing failed): trusted only
      // together with the write that records it, so not at the cap.
      if (coordinatesMatch && canWrite) return { found: true, write: podSecret };
    }
  }
  const sa = pod.serviceAccount;
  const saFound =
    sa !== undefined &&
    cached.kubernetesServiceAccounts.some(
      (s) => s.uid === sa.uid && s.namespace === sa.namespace && s.name === sa.name,
    );
  return { found: saFound };
}
