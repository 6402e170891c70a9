export { type AllowlistMatching, type KubeletRelease, kubeletReleases } from "./allowlist.js";
export { CachedPullRecordStore, type CachedPullRecordStoreOptions } from "./cached-store.js";
export {
  type KubeletPullCredentialsConfig,
  parseKubeletPullCredentialsConfig,
} from "./config.js";
export {
  PullCredentialsConfigError,
  type PullCredentialsConfigErrorCode,
  PullRecordError,
  type PullRecordErrorCode,
} from "./errors.js";
export { type HashableCredential, hashCredential } from "./hashing.js";
export { PullManager } from "./manager.js";
export type {
  PullManagerErrorContext,
  PullManagerOptions,
  RecordPulledOutcome,
} from "./manager-options.js";
export { MemoryPullRecordStore } from "./memory-store.js";
export {
  type MetricDefinition,
  type MetricsRecorder,
  pullManagerMetrics,
} from "./metrics.js";
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
