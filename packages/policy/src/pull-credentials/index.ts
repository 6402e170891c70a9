export {
  type Allowlist,
  type AllowlistMatching,
  type AllowlistPattern,
  allowlistMatchingOf,
  compileAllowlist,
  type KubeletRelease,
  kubeletReleases,
  parseAllowlistPattern,
  validateAllowlistPatterns,
} from "./allowlist.js";
export {
  CachedPullRecordStore,
  type CachedPullRecordStoreOptions,
} from "./cached-store.js";
export {
  currentRecordApiVersion,
  type DecodedRecordFile,
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
  type RecordFileKind,
} from "./codec.js";
export {
  type KubeletPullCredentialsConfig,
  kubeletPullCredentialsConfigSchema,
  parseKubeletPullCredentialsConfig,
} from "./config.js";
export {
  isPullCredentialsConfigError,
  isPullRecordError,
  PullCredentialsConfigError,
  type PullCredentialsConfigErrorCode,
  PullRecordError,
  type PullRecordErrorCode,
} from "./errors.js";
export {
  type HashableCredential,
  hashCredential,
} from "./hashing.js";
export { PullManager } from "./manager.js";
export type {
  PullManagerErrorContext,
  PullManagerOptions,
  RecordPulledOutcome,
} from "./manager-options.js";
export { MemoryPullRecordStore } from "./memory-store.js";
export {
  type MergeResult,
  mergeCredentials,
  mergePullSecrets,
  mergePullServiceAccounts,
} from "./merge.js";
export {
  type MetricDefinition,
  type MetricsRecorder,
  pullManagerMetrics,
} from "./metrics.js";
export {
  createVerificationPolicy,
  defaultVerificationPolicy,
  type VerificationPolicy,
  type VerificationPolicyName,
  type VerificationPolicyOptions,
  validateVerificationConfig,
  verificationPolicyNames,
} from "./policy.js";
export {
  type ImagePullCredentialsInput,
  type ImagePullCredentialsJson,
  type ImagePulledRecordJson,
  imagePullCredentialsSchema,
  imagePullSecretSchema,
  imagePullServiceAccountSchema,
  parseImagePullCredentials,
  pulledRecordFromJson,
  pulledRecordToJson,
} from "./schema.js";
export type {
  ListResult,
  PullRecordStore,
  SynchronousLookup,
} from "./store.js";
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
