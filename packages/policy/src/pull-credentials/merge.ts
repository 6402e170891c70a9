/**
 * How new credentials are folded into an existing record (the kubelet's
 * `pulledRecordMergeNewCreds`, `mergePullSecrets`, `mergePullServiceAccounts`).
 */
import { strings } from "@kubeimg/core/internal";
import type {
  ImagePullCredentials,
  ImagePulledRecord,
  ImagePullSecret,
  ImagePullServiceAccount,
} from "./types.js";

/**
 * The result of {@link mergeCredentials}: the record to keep and whether it differs.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 * import { MemoryPullRecordStore } from "@kubeimg/policy/pull-credentials";
 *
 * const store = new MemoryPullRecordStore();
 * const record = { lastUpdatedTime: new Date(0), imageRef: "sha256:1111", credentialMapping: new Map() };
 * const nodeWide = { kubernetesSecrets: [], kubernetesServiceAccounts: [], nodePodsAccessible: true };
 * const key = "docker.io/library/nginx";
 * const { changed, record: next } = pullCredentials.mergeCredentials(record, key, nodeWide, new Date());
 * if (changed) await store.writePulledRecord(next);
 * console.log(changed, (await store.getPulledRecord("sha256:1111"))?.credentialMapping.size); // true 1
 * ```
 */
export interface MergeResult {
  readonly changed: boolean;
  readonly record: ImagePulledRecord;
}

const identityKey = (x: { uid: string; namespace: string; name: string }) =>
  JSON.stringify([x.uid, x.namespace, x.name]);

/** Orders secrets or service accounts by namespace, name, uid (Go byte order). */
function compareIdentity(
  a: { uid: string; namespace: string; name: string },
  b: { uid: string; namespace: string; name: string },
): number {
  return (
    strings.Compare(a.namespace, b.namespace) ||
    strings.Compare(a.name, b.name) ||
    strings.Compare(a.uid, b.uid)
  );
}

/**
 * Merges secrets by (uid, namespace, name): a new hash replaces the stored
 * one; the result is sorted by namespace, name, uid. Returns `undefined` when
 * nothing is new or different (the stored list is kept as it is then).
 */
export function mergePullSecrets(
  stored: readonly ImagePullSecret[],
  added: readonly ImagePullSecret[],
): ImagePullSecret[] | undefined {
  const byIdentity = new Map<string, ImagePullSecret>();
  for (const s of stored) byIdentity.set(identityKey(s), s);
  let changed = false;
  for (const s of added) {
    const key = identityKey(s);
    const existing = byIdentity.get(key);
    if (existing === undefined || existing.credentialHash !== s.credentialHash) {
      changed = true;
      byIdentity.set(
        key,
        Object.freeze({
          uid: s.uid,
          namespace: s.namespace,
          name: s.name,
          credentialHash: s.credentialHash,
        }),
      );
    }
  }
  if (!changed) return undefined;
  return [...byIdentity.values()].sort(compareIdentity);
}

/**
 * Merges service accounts as a set of exact identities, sorted by namespace,
 * name, uid. Returns `undefined` when none is new.
 */
export function mergePullServiceAccounts(
  stored: readonly ImagePullServiceAccount[],
  added: readonly ImagePullServiceAccount[],
): ImagePullServiceAccount[] | undefined {
  const byIdentity = new Map<string, ImagePullServiceAccount>();
  for (const s of stored) byIdentity.set(identityKey(s), s);
  let changed = false;
  for (const s of added) {
    const key = identityKey(s);
    if (!byIdentity.has(key)) {
      changed = true;
      byIdentity.set(key, Object.freeze({ uid: s.uid, namespace: s.namespace, name: s.name }));
    }
  }
  if (!changed) return undefined;
  return [...byIdentity.values()].sort(compareIdentity);
}

function withEntry(
  record: ImagePulledRecord,
  imageKey: string,
  credentials: ImagePullCredentials,
  now: Date,
): MergeResult {
  const mapping = new Map(record.credentialMapping);
  mapping.set(imageKey, credentials);
  return {
    changed: true,
    record: Object.freeze({
      lastUpdatedTime: now,
      imageRef: record.imageRef,
      credentialMapping: mapping,
    }),
  };
}

/**
 * Merges credentials from a successful pull into an existing record under the
 * normalized image name `imageKey`, as the kubelet's RecordImagePulled does:
 *
 * - `null`, or credentials with no node-wide flag, secrets or service
 *   accounts: unchanged;
 * - no entry for the key: the credentials are added as given;
 * - an entry already node-wide: unchanged (node-wide is final);
 * - node-wide credentials: the entry becomes node-wide only;
 * - secrets: merged by identity, new hash wins, sorted (service accounts in
 *   the same credentials are ignored);
 * - only service accounts: set union, sorted.
 *
 * A change sets `lastUpdatedTime` to `now`. The input is never mutated.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 * import type { ImagePulledRecord, ImagePullSecret } from "@kubeimg/policy/pull-credentials";
 *
 * const secretWithHash = (credentialHash: string) => {
 *   const secret: ImagePullSecret = { uid: "u1", namespace: "team-a", name: "regcred", credentialHash };
 *   return { kubernetesSecrets: [secret], kubernetesServiceAccounts: [], nodePodsAccessible: false };
 * };
 * const record: ImagePulledRecord = {
 *   lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
 *   imageRef: "sha256:1111",
 *   credentialMapping: new Map([["docker.io/library/nginx", secretWithHash("old")]]),
 * };
 * const { changed, record: next } = pullCredentials.mergeCredentials(
 *   record,
 *   "docker.io/library/nginx",
 *   secretWithHash("new"),
 *   new Date("2025-06-01T00:00:00Z"),
 * );
 * const entry = next.credentialMapping.get("docker.io/library/nginx");
 * console.log(changed, entry?.kubernetesSecrets[0]?.credentialHash); // true new: the new hash wins
 * console.log(next.lastUpdatedTime.toISOString()); // 2025-06-01T00:00:00.000Z
 * console.log(record.lastUpdatedTime.toISOString()); // 2025-01-01T00:00:00.000Z: the input is not mutated
 * ```
 */
export function mergeCredentials(
  record: ImagePulledRecord,
  imageKey: string,
  credentials: ImagePullCredentials | null,
  now: Date,
): MergeResult {
  const unchanged: MergeResult = { changed: false, record };
  if (credentials === null) return unchanged;
  if (
    !credentials.nodePodsAccessible &&
    credentials.kubernetesSecrets.length === 0 &&
    credentials.kubernetesServiceAccounts.length === 0
  ) {
    return unchanged;
  }
  const entry = record.credentialMapping.get(imageKey);
  if (entry === undefined) return withEntry(record, imageKey, credentials, now);
  if (entry.nodePodsAccessible) return unchanged;
  if (credentials.nodePodsAccessible) {
    return withEntry(
      record,
      imageKey,
      Object.freeze({
        kubernetesSecrets: [],
        kubernetesServiceAccounts: [],
        nodePodsAccessible: true,
      }),
      now,
    );
  }
  if (credentials.kubernetesSecrets.length > 0) {
    const secrets = mergePullSecrets(entry.kubernetesSecrets, credentials.kubernetesSecrets);
    if (secrets === undefined) return unchanged;
    return withEntry(
      record,
      imageKey,
      Object.freeze({ ...entry, kubernetesSecrets: Object.freeze(secrets) }),
      now,
    );
  }
  const accounts = mergePullServiceAccounts(
    entry.kubernetesServiceAccounts,
    credentials.kubernetesServiceAccounts,
  );
  if (accounts === undefined) return unchanged;
  return withEntry(
    record,
    imageKey,
    Object.freeze({ ...entry, kubernetesServiceAccounts: Object.freeze(accounts) }),
    now,
  );
}
