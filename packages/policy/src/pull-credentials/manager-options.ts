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
 * PullManager.open({ …, onError: (e, ctx: PullManagerErrorContext) => log.warn(ctx.operation, ctx.imageRef, e) });
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
 * const options: PullManagerOptions = { store, policy: createVerificationPolicy(), clock: { now: Date.now } };
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
 * const { recorded } = await manager.recordImagePulled(image, imageRef, { nodePodsAccessible: true });
 * ```
 *
 * @inline
 */
export interface RecordPulledOutcome {
  /** False when the record could not be written; the intent is then kept on purpose. */
  readonly recorded: boolean;
  readonly error?: unknown;
}
