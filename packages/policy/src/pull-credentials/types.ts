/**
 * The records of KEP-2535 as plain readonly data. Field names are those of
 * `kubelet.config.k8s.io/v1beta1` (`ImagePullIntent`, `ImagePulledRecord`,
 * `ImagePullCredentials`, `ImagePullSecret`, `ImagePullServiceAccount`).
 */

/**
 * A pod secret that supplied pull credentials: its coordinates and the
 * SHA-256 of the credentials it held (see {@link hashCredential}).
 *
 * @example
 * ```ts
 * import { hashCredential, type ImagePullSecret } from "@kubeimg/policy/pull-credentials";
 *
 * const s: ImagePullSecret = {
 *   uid: "9d3c",
 *   namespace: "team-a",
 *   name: "regcred",
 *   credentialHash: await hashCredential({ username: "user", password: "password" }),
 * };
 * console.log(s.credentialHash.slice(0, 8)); // a55436fc
 * ```
 */
export interface ImagePullSecret {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  /** `""` when the kubelet could not hash the credentials; never matches by hash then. */
  readonly credentialHash: string;
}

/**
 * A service account whose token a credential provider exchanged for pull
 * credentials (KEP-4412). Matched by exact identity.
 *
 * @example
 * ```ts
 * import type { ImagePullServiceAccount } from "@kubeimg/policy/pull-credentials";
 *
 * const sa: ImagePullServiceAccount = { uid: "1f0a", namespace: "team-a", name: "default" };
 * ```
 */
export interface ImagePullServiceAccount {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * The credentials an image was pulled with, for one image name. Every field
 * is always present here (empty lists, `false`); the file form omits them.
 *
 * @example
 * ```ts
 * import type { ImagePullCredentials } from "@kubeimg/policy/pull-credentials";
 *
 * const nodeWide: ImagePullCredentials = {
 *   kubernetesSecrets: [],
 *   kubernetesServiceAccounts: [],
 *   nodePodsAccessible: true,
 * };
 * ```
 */
export interface ImagePullCredentials {
  readonly kubernetesSecrets: readonly ImagePullSecret[];
  readonly kubernetesServiceAccounts: readonly ImagePullServiceAccount[];
  /** The image was pulled without pod-scoped credentials: every pod on the node may use it. */
  readonly nodePodsAccessible: boolean;
}

/**
 * An in-flight pull, written before the pull starts and removed when the
 * last concurrent pull of the same image string ends.
 *
 * @example
 * ```ts
 * import type { ImagePullIntent } from "@kubeimg/policy/pull-credentials";
 *
 * const intent: ImagePullIntent = { image: "registry.example.com/team/app:1.0" };
 * ```
 */
export interface ImagePullIntent {
  /** The pod container's `image` field, exactly as written. */
  readonly image: string;
}

/**
 * What the node knows about one image (keyed by the runtime's `imageRef`):
 * which credentials pulled it, per normalized image name.
 *
 * @example
 * ```ts
 * import type { ImagePullCredentials, ImagePulledRecord } from "@kubeimg/policy/pull-credentials";
 *
 * const nodeWide: ImagePullCredentials = {
 *   kubernetesSecrets: [],
 *   kubernetesServiceAccounts: [],
 *   nodePodsAccessible: true,
 * };
 * const record: ImagePulledRecord = {
 *   lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
 *   imageRef: `sha256:${"1".repeat(64)}`,
 *   credentialMapping: new Map([["docker.io/library/nginx", nodeWide]]),
 * };
 * ```
 */
export interface ImagePulledRecord {
  readonly lastUpdatedTime: Date;
  readonly imageRef: string;
  /**
   * Normalized image name (tag and digest removed) → credentials. A `Map`,
   * so that any key (even `__proto__`) stays data.
   */
  readonly credentialMapping: ReadonlyMap<string, ImagePullCredentials>;
}

/**
 * The pod's credentials for an image, as the kubelet's keyring found them:
 * secret-sourced credentials in keyring order (one secret may appear several
 * times) and at most one service account.
 *
 * @example
 * ```ts
 * import type { PodCredentials } from "@kubeimg/policy/pull-credentials";
 *
 * const creds: PodCredentials = {
 *   secrets: [],
 *   serviceAccount: { uid: "1f0a", namespace: "team-a", name: "default" },
 * };
 * ```
 */
export interface PodCredentials {
  readonly secrets: readonly ImagePullSecret[];
  readonly serviceAccount?: ImagePullServiceAccount | null | undefined;
}

/**
 * Looks the pod's credentials up lazily: the manager calls it only when a
 * credential comparison is needed (keyring and credential providers may be
 * slow or down). A rejection makes the decision "must pull" with `error`.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type GetPodCredentials,
 *   MemoryPullRecordStore,
 *   PullManager,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const manager = await PullManager.open({
 *   store: new MemoryPullRecordStore(),
 *   policy: createVerificationPolicy({ policy: "NeverVerify" }),
 *   clock: { now: Date.now },
 * });
 * let lookups = 0;
 * // Would ask the keyring for the pod's imagePullSecrets.
 * const get: GetPodCredentials = async () => (lookups++, { secrets: [] });
 * await manager.mustAttemptImagePull("nginx:1.25", "sha256:1111", get);
 * console.log(lookups); // 0: the policy decided without the pod's credentials
 * ```
 */
export type GetPodCredentials = () => PodCredentials | Promise<PodCredentials>;

/**
 * Why `mustAttemptImagePull` answered as it did: the `result` label of
 * `kubelet_imagemanager_image_mustpull_checks_total`.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   MemoryPullRecordStore,
 *   type MustPullReason,
 *   PullManager,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const manager = await PullManager.open({
 *   store: new MemoryPullRecordStore(),
 *   policy: createVerificationPolicy(), // NeverVerifyPreloadedImages
 *   clock: { now: Date.now },
 * });
 * const get = () => ({ secrets: [] });
 * const { reason } = await manager.mustAttemptImagePull("nginx:1.25", "sha256:1111", get);
 * const counted: MustPullReason | undefined = reason;
 * console.log(counted); // credentialPolicyAllowed: no record or intent, so preloaded
 * ```
 */
export type MustPullReason =
  | "credentialPolicyAllowed"
  | "credentialRecordFound"
  | "mustAuthenticate"
  | "error";

/**
 * The answer of `mustAttemptImagePull`.
 *
 * `reason` is `undefined` only when `imageRef` was empty (the image is not on
 * the node: always pull, nothing counted). `error` is set when fetching the
 * pod's credentials failed (the kubelet returns that error with `true`).
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   MemoryPullRecordStore,
 *   PullManager,
 *   type PullDecision,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const manager = await PullManager.open({
 *   store: new MemoryPullRecordStore(),
 *   policy: createVerificationPolicy({ policy: "AlwaysVerify" }),
 *   clock: { now: Date.now },
 * });
 * const d: PullDecision = await manager.mustAttemptImagePull("nginx:1.25", "sha256:1111", () => ({
 *   secrets: [],
 * }));
 * if (d.mustPull) console.log(`pull required: ${d.reason}`); // pull required: mustAuthenticate
 * ```
 */
export interface PullDecision {
  readonly mustPull: boolean;
  readonly reason: MustPullReason | undefined;
  readonly error?: unknown;
}

/**
 * One image as the container runtime lists it (CRI `Image`): its ID (the
 * `imageRef` records are keyed by) and the tags and digests it is known by.
 *
 * @example
 * ```ts
 * import type { RuntimeImage } from "@kubeimg/policy/pull-credentials";
 *
 * const img: RuntimeImage = {
 *   id: `sha256:${"1".repeat(64)}`,
 *   repoTags: ["docker.io/library/nginx:1.25"],
 *   repoDigests: [],
 * };
 * ```
 */
export interface RuntimeImage {
  readonly id: string;
  readonly repoTags: readonly string[];
  readonly repoDigests: readonly string[];
}

/**
 * The runtime's image list, used by the start-up housekeeping that turns
 * intents left by a crash into records.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type ImageLister,
 *   MemoryPullRecordStore,
 *   PullManager,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const store = new MemoryPullRecordStore();
 * await store.writeIntent("docker.io/library/nginx:1.25"); // left by a crash mid-pull
 * // Stands in for the CRI's ListImages.
 * const images: ImageLister = {
 *   listImages: async () => [{ id: "sha256:1111", repoTags: ["docker.io/library/nginx:1.25"], repoDigests: [] }],
 * };
 * await PullManager.open({ store, images, policy: createVerificationPolicy(), clock: { now: Date.now } });
 * console.log(await store.intentExists("docker.io/library/nginx:1.25")); // false: it became a record
 * console.log((await store.getPulledRecord("sha256:1111"))?.imageRef); // sha256:1111
 * ```
 */
export interface ImageLister {
  listImages(options?: { signal?: AbortSignal }): Promise<readonly RuntimeImage[]>;
}

export type { Clock } from "@kubeimg/core/ports";
