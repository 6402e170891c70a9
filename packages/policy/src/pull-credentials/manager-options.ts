/**
 * The vocabulary of {@link PullManager}'s public methods: the options it
 * opens with, what it tells `onError`, and what recording a pull returns.
 */
import type { MetricsRecorder } from "./metrics.js";
import type { VerificationPolicy } from "./policy.js";
import type { PullRecordStore } from "./store.js";
import type { Clock, ImageLister } from "./types.js";

/**
 * What the manager reports to `onError`: the kubelet logs these and carries on.
 *
 * @example
 * ```ts
 * import { createVerificationPolicy, MemoryPullRecordStore, PullManager } from "@kubeimg/policy/pull-credentials";
 *
 * // A store whose disk is full.
 * class FullDisk extends MemoryPullRecordStore {
 *   override async writePulledRecord(): Promise<void> {
 *     throw new Error("ENOSPC");
 *   }
 * }
 * const manager = await PullManager.open({
 *   store: new FullDisk(),
 *   policy: createVerificationPolicy(),
 *   clock: { now: Date.now },
 *   onError: (error, context) => console.log(context.operation, context.imageRef, String(error)),
 * });
 * await manager.recordImagePulled("nginx:1.25", "sha256:1111", { nodePodsAccessible: true });
 * // recordImagePulled sha256:1111 Error: ENOSPC
 * ```
 *
 * @inline
 */
export interface PullManagerErrorContext {
  readonly operation:
    | "recordImagePulled"
    | "recordImagePullFailed"
    | "mustAttemptImagePull"
    | "writeWhileMatching"
    | "pruneUnknownRecords"
    | "housekeeping";
  readonly image?: string;
  readonly imageRef?: string;
}

/**
 * Options of {@link PullManager.open}.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   MemoryPullRecordStore,
 *   PullManager,
 *   type PullManagerOptions,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const options: PullManagerOptions = {
 *   store: new MemoryPullRecordStore(),
 *   policy: createVerificationPolicy({ policy: "AlwaysVerify" }),
 *   clock: { now: Date.now },
 *   lockStripes: 31,
 * };
 * const manager = await PullManager.open(options);
 * const d = await manager.mustAttemptImagePull("nginx:1.25", "sha256:1111", () => ({ secrets: [] }));
 * console.log(d); // { mustPull: true, reason: 'mustAuthenticate' }
 * ```
 */
export interface PullManagerOptions {
  /** Where intents and records live. */
  readonly store: PullRecordStore;
  /** The verification policy (see `createVerificationPolicy`). */
  readonly policy: VerificationPolicy;
  /** The time records are stamped with. */
  readonly clock: Clock;
  /** The runtime's images, for the start-up housekeeping; none when omitted. */
  readonly images?: ImageLister;
  /** Receives `kubelet_imagemanager_image_mustpull_checks_total{result}`. */
  readonly metrics?: MetricsRecorder;
  /** Lock stripes per key space (default 10, clamped to 1–31). */
  readonly lockStripes?: number;
  /** Told about errors the kubelet only logs (storage failures, unparsable images). */
  readonly onError?: (error: unknown, context: PullManagerErrorContext) => void;
}

/**
 * The outcome of {@link PullManager.recordImagePulled}.
 *
 * @example
 * ```ts
 * import { createVerificationPolicy, MemoryPullRecordStore, PullManager } from "@kubeimg/policy/pull-credentials";
 *
 * // A store that cannot write records (a full disk).
 * class FullDisk extends MemoryPullRecordStore {
 *   override async writePulledRecord(): Promise<void> {
 *     throw new Error("ENOSPC");
 *   }
 * }
 * const store = new FullDisk();
 * const manager = await PullManager.open({ store, policy: createVerificationPolicy(), clock: { now: Date.now } });
 * await manager.recordPullIntent("nginx:1.25");
 * const { recorded, error } = await manager.recordImagePulled("nginx:1.25", "sha256:1111", {
 *   nodePodsAccessible: true,
 * });
 * console.log(recorded, String(error)); // false Error: ENOSPC
 * console.log(await store.intentExists("nginx:1.25")); // true: the intent is kept
 * ```
 *
 * @inline
 */
export interface RecordPulledOutcome {
  /** False when the record could not be written; the intent is then kept on purpose. */
  readonly recorded: boolean;
  readonly error?: unknown;
}
