export { type KubeletRelease, kubeletReleases } from "./allowlist.js";
export { CachedPullRecordStore, type CachedPullRecordStoreOptions } from "./cached-store.js";
export {
  type KubeletPullCredentialsConfig,
  parseKubeletPullCredentialsConfig,
} from "./config.js";
export { PullCredentialsConfigError, PullRecordError } from "./errors.js";
export { type HashableCredential, hashCredential } from "./hashing.js";
export { PullManager } from "./manager.js";
export type { PullManagerOptions } from "./manager-options.js";
export { MemoryPullRecordStore } from "./memory-store.js";
export { type MetricsRecorder, pullManagerMetrics } from "./metrics.js";
export {
  createVerificationPolicy,
  type VerificationPolicy,
  type VerificationPolicyName,
  type VerificationPolicyOptions,
  verificationPolicyNames,
} from "./policy.js";
export type { ImagePullCredentialsInput } from "./schema.js";
export type { ListResult, PullRecordStore } from "./store.js";
export type {
  Clock,
  GetPodCredentials,
  ImageLister,
  ImagePullCredentials,
  ImagePulledRecord,
  ImagePullIntent,
  ImagePullSecret,
  ImagePullServiceAccount,
  MustPullReason,
  PodCredentials,
  PullDecision,
  RuntimeImage,
} from "./types.js";
