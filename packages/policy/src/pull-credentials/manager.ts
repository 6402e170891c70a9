/**
 * The KEP-2535 image pull manager (the kubelet's `PullManager`,
 * pkg/kubelet/images/pullmanager, v1.35), over any {@link PullRecordStore}.
 */
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { matchPodCredentials } from "./credential-match.js";
import { PullRecordError } from "./errors.js";
import type {
  PullManagerErrorContext,
  PullManagerOptions,
  RecordPulledOutcome,
} from "./manager-options.js";
import { mergeCredentials } from "./merge.js";
import { type MetricsRecorder, recordMustPullCheck } from "./metrics.js";
import type { VerificationPolicy } from "./policy.js";
import {
  type ImagePullCredentialsInput,
  parseImagePullCredentials,
  parsePodSecrets,
} from "./schema.js";
import { hasSynchronousLookup, type PullRecordStore } from "./store.js";
import { StripedLocks } from "./striped-locks.js";
import type {
  Clock,
  GetPodCredentials,
  ImageLister,
  ImagePullCredentials,
  ImagePulledRecord,
  MustPullReason,
  PullDecision,
} from "./types.js";

const noCredentials: GetPodCredentials = () => ({ secrets: [] });

/** What the locked part of a decision found. */
interface LookUp {
  readonly record: ImagePulledRecord | undefined;
  readonly pulledByKubelet: boolean;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** How many normalized image names a manager remembers (pure parse results). */
const sanitizedCacheSize = 4096;

function requireString(value: unknown, name: string): asserts value is string {
  if (typeof value !== "string") {
    throw new PullRecordError("INVALID_ARGUMENT", `${name} must be a string, got ${typeof value}`);
  }
}

/**
 * Decides whether a pod may use an image already on the node with the
 * credentials it has, and records which credentials pulled which image.
 *
 * Call {@link recordPullIntent} before every pull, then exactly one of
 * {@link recordImagePulled} / {@link recordImagePullFailed}; ask
 * {@link mustAttemptImagePull} before using a present image; call
 * {@link pruneUnknownRecords} from image garbage collection. Decisions and
 * writes are serialised per image and per imageRef (async striped locks).
 *
 * @example
 * ```ts
 * import { createVerificationPolicy, hashCredential, MemoryPullRecordStore, PullManager } from "@kubeimg/policy/pull-credentials";
 * const manager = await PullManager.open({
 *   store: new MemoryPullRecordStore(),
 *   policy: createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" }),
 *   clock: { now: Date.now },
 * });
 * const image = "registry.example.com/app:1";
 * const imageRef = `sha256:${"1".repeat(64)}`;
 * const credentialHash = await hashCredential({ username: "robot", password: "s3cret" });
 * const regcred = { uid: "9d3c", namespace: "team-a", name: "regcred", credentialHash };
 * await manager.recordPullIntent(image);
 * await manager.recordImagePulled(image, imageRef, { kubernetesSecrets: [regcred] });
 * const teamA = await manager.mustAttemptImagePull(image, imageRef, () => ({ secrets: [regcred] }));
 * const teamB = await manager.mustAttemptImagePull(image, imageRef, () => ({ secrets: [] }));
 * console.log(teamA.mustPull, teamB.mustPull); // false true: team-b has no matching credentials
 * ```
 */
export class PullManager {
  readonly #store: PullRecordStore;
  readonly #policy: VerificationPolicy;
  readonly #clock: Clock;
  readonly #metrics: MetricsRecorder | undefined;
  readonly #onError: PullManagerOptions["onError"];
  readonly #intentLocks: StripedLocks;
  readonly #recordLocks: StripedLocks;
  readonly #intentCounters = new Map<string, number>();
  readonly #sanitized = new Map<string, string>();

  private constructor(options: PullManagerOptions) {
    const o = options as Partial<PullManagerOptions> | undefined;
    if (typeof o?.store?.getPulledRecord !== "function") {
      throw new PullRecordError(
        "INVALID_ARGUMENT",
        "PullManager needs a PullRecordStore as `store`",
      );
    }
    if (typeof o.policy?.requiresVerification !== "function") {
      throw new PullRecordError(
        "INVALID_ARGUMENT",
        "PullManager needs a VerificationPolicy as `policy`",
      );
    }
    if (typeof o.clock?.now !== "function") {
      throw new PullRecordError("INVALID_ARGUMENT", "PullManager needs a Clock as `clock`");
    }
    this.#store = options.store;
    this.#policy = options.policy;
    this.#clock = options.clock;
    this.#metrics = options.metrics;
    this.#onError = options.onError;
    this.#intentLocks = new StripedLocks(options.lockStripes ?? 10);
    this.#recordLocks = new StripedLocks(options.lockStripes ?? 10);
  }

  /**
   * Creates a manager and runs the start-up housekeeping: every stored intent
   * whose image string equals a repo tag or repo digest of a runtime image
   * becomes a record without credentials for that image's ID (an existing
   * record is left as it is) and is deleted. Intents that match nothing stay.
   */
  static async open(options: PullManagerOptions): Promise<PullManager> {
    const manager = new PullManager(options);
    await manager.#housekeeping(options.images);
    return manager;
  }

  #report(error: unknown, context: PullManagerErrorContext): void {
    try {
      this.#onError?.(error, context);
    } catch {
      // A faulty logger must not change a decision.
    }
  }

  /** The normalized image name credentials are keyed by (ParseImageName); throws INVALID_ARGUMENT. */
  #sanitize(image: string): string {
    const cached = this.#sanitized.get(image);
    if (cached !== undefined) return cached;
    let name: string;
    try {
      name = parseNormalizedNamed(image).name;
    } catch (error) {
      throw new PullRecordError("INVALID_ARGUMENT", `invalid image name ${JSON.stringify(image)}`, {
        key: image,
        cause: error,
      });
    }
    if (this.#sanitized.size >= sanitizedCacheSize) this.#sanitized.clear();
    this.#sanitized.set(image, name);
    return name;
  }

  async #housekeeping(images: ImageLister | undefined): Promise<void> {
    const listed = await this.#store.listIntents().catch((error: unknown) => {
      this.#report(error, { operation: "housekeeping" });
      return { items: [], errors: [] };
    });
    for (const error of listed.errors) this.#report(error, { operation: "housekeeping" });
    if (listed.items.length === 0) return;
    const runtimeImages = images
      ? await images.listImages().catch((error: unknown) => {
          this.#report(error, { operation: "housekeeping" });
          return [];
        })
      : [];
    const inFlight = new Set(listed.items.map((i) => i.image));
    for (const runtimeImage of runtimeImages) {
      const found = new Set<string>();
      for (const d of runtimeImage.repoDigests) if (inFlight.has(d)) found.add(d);
      for (const t of runtimeImage.repoTags) if (inFlight.has(t)) found.add(t);
      for (const image of found) {
        try {
          await this.#writePulledRecordIfChanged(image, runtimeImage.id, null);
        } catch (error) {
          this.#report(error, { operation: "housekeeping", image, imageRef: runtimeImage.id });
          continue;
        }
        try {
          await this.#store.deleteIntent(image);
        } catch (error) {
          this.#report(error, { operation: "housekeeping", image });
        }
      }
    }
  }

  /** The number of in-flight pulls of `image` this manager knows of (0 after a restart). */
  intentCount(image: string): number {
    return this.#intentCounters.get(image) ?? 0;
  }

  /**
   * Records that a pull of `image` (the pod's image string, exactly) starts:
   * writes the intent, then counts it. Rejects when the intent cannot be
   * written (the count is left alone then).
   */
  async recordPullIntent(image: string): Promise<void> {
    requireString(image, "image");
    await this.#intentLocks.run(image, async () => {
      await this.#store.writeIntent(image);
      this.#intentCounters.set(image, this.intentCount(image) + 1);
    });
  }

  /**
   * Records a successful pull: merges `credentials` (the one credential that
   * worked; `{nodePodsAccessible: true}` when none was pod-scoped; `null` when
   * unknown) into the record for `imageRef` under the image's normalized
   * name, then releases one intent. When the record cannot be written
   * (including an unparsable image) the intent is deliberately kept, so the
   * image still counts as kubelet-pulled, and `recorded` is false.
   * Malformed `credentials` reject with `INVALID_ARGUMENT` before anything is written.
   */
  async recordImagePulled(
    image: string,
    imageRef: string,
    credentials: ImagePullCredentialsInput | ImagePullCredentials | null,
  ): Promise<RecordPulledOutcome> {
    requireString(image, "image");
    requireString(imageRef, "imageRef");
    const creds = parseImagePullCredentials(credentials);
    try {
      await this.#writePulledRecordIfChanged(image, imageRef, creds);
    } catch (error) {
      this.#report(error, { operation: "recordImagePulled", image, imageRef });
      return { recorded: false, error };
    }
    await this.#decrementIntent(image, "recordImagePulled");
    return { recorded: true };
  }

  /** Records a failed pull: releases one intent; nothing else changes. */
  async recordImagePullFailed(image: string): Promise<void> {
    requireString(image, "image");
    await this.#decrementIntent(image, "recordImagePullFailed");
  }

  #decrementIntent(image: string, operation: PullManagerErrorContext["operation"]): Promise<void> {
    return this.#intentLocks.run(image, async () => {
      const count = this.intentCount(image);
      if (count <= 1) {
        try {
          await this.#store.deleteIntent(image);
        } catch (error) {
          this.#report(error, { operation, image });
          return;
        }
        this.#intentCounters.delete(image);
        return;
      }
      this.#intentCounters.set(image, count - 1);
    });
  }

  #writePulledRecordIfChanged(
    image: string,
    imageRef: string,
    credentials: ImagePullCredentials | null,
  ): Promise<void> {
    return this.#recordLocks.run(imageRef, async () => {
      const key = this.#sanitize(image);
      let existing: ImagePulledRecord | undefined;
      try {
        existing = await this.#store.getPulledRecord(imageRef);
      } catch (error) {
        // An unreadable record is replaced by a fresh one.
        this.#report(error, { operation: "recordImagePulled", image, imageRef });
        existing = undefined;
      }
      let next: ImagePulledRecord;
      if (existing === undefined) {
        const mapping = new Map<string, ImagePullCredentials>();
        if (credentials !== null) mapping.set(key, credentials);
        next = Object.freeze({
          lastUpdatedTime: new Date(this.#clock.now()),
          imageRef,
          credentialMapping: mapping,
        });
      } else {
        const merged = mergeCredentials(existing, key, credentials, new Date(this.#clock.now()));
        if (!merged.changed) return;
        next = merged.record;
      }
      await this.#store.writePulledRecord(next);
    });
  }

  #decide(reason: MustPullReason, mustPull: boolean, error?: unknown): PullDecision {
    recordMustPullCheck(this.#metrics, reason);
    return error === undefined ? { mustPull, reason } : { mustPull, reason, error };
  }

  /**
   * Answers whether a pod must pull `image` (its image string, exactly)
   * although the runtime has it as `imageRef` (`""` when absent), and why.
   *
   * In order: no imageRef → pull (nothing counted); unreadable record or
   * intent → pull (`error`; fail safe, before any policy); the policy needs no
   * verification → use it (`credentialPolicyAllowed`); no record → pull; an
   * unparsable image → pull (`error`); no entry for the normalized name →
   * pull; a node-wide entry → use it (`credentialRecordFound`); an empty
   * entry → pull; then the pod's credentials are fetched (a failure → pull
   * with `error` and the error) and compared: a secret matching by hash
   * (coordinates merged in while the entry has fewer than 100 secrets) or by
   * coordinates (hash updated, only below 100), or the same service account
   * → use it; otherwise pull (`mustAuthenticate`).
   */
  async mustAttemptImagePull(
    image: string,
    imageRef: string,
    getPodCredentials: GetPodCredentials = noCredentials,
  ): Promise<PullDecision> {
    requireString(image, "image");
    requireString(imageRef, "imageRef");
    if (imageRef === "") return { mustPull: true, reason: undefined };

    let state = this.#lookUpSync(image, imageRef);
    if (state === undefined) {
      try {
        state = await this.#recordLocks.run(imageRef, () =>
          this.#intentLocks.run(image, () => this.#lookUp(image, imageRef)),
        );
      } catch (error) {
        this.#report(error, { operation: "mustAttemptImagePull", image, imageRef });
        return this.#decide("error", true);
      }
    }
    const record = state.record;

    if (!this.#policy.requiresVerification(image, state.pulledByKubelet)) {
      return this.#decide("credentialPolicyAllowed", false);
    }
    if (record === undefined) return this.#decide("mustAuthenticate", true);

    let key: string;
    try {
      key = this.#sanitize(image);
    } catch (error) {
      this.#report(error, { operation: "mustAttemptImagePull", image, imageRef });
      return this.#decide("error", true);
    }
    const cached = record.credentialMapping.get(key);
    if (cached === undefined) return this.#decide("mustAuthenticate", true);
    if (cached.nodePodsAccessible) return this.#decide("credentialRecordFound", false);
    const cachedSecrets = cached.kubernetesSecrets;
    if (cachedSecrets.length === 0 && cached.kubernetesServiceAccounts.length === 0) {
      return this.#decide("mustAuthenticate", true);
    }

    let pod: ReturnType<typeof parsePodSecrets>;
    try {
      let got = getPodCredentials();
      if (isThenable(got)) got = await got;
      pod = parsePodSecrets(got);
    } catch (error) {
      return this.#decide("error", true, error);
    }
    const match = matchPodCredentials(pod, cached);
    if (match.write !== undefined) await this.#writeWhileMatching(image, imageRef, match.write);
    return match.found
      ? this.#decide("credentialRecordFound", false)
      : this.#decide("mustAuthenticate", true);
  }

  /**
   * The lookup without waiting, when it can be done atomically: nobody holds
   * the imageRef or image stripe (so no write of ours is half done) and the
   * store can answer from memory. `undefined` sends the caller to the locked path.
   */
  #lookUpSync(image: string, imageRef: string): LookUp | undefined {
    const store = this.#store;
    if (!hasSynchronousLookup(store)) return undefined;
    if (!this.#recordLocks.isFree(imageRef) || !this.#intentLocks.isFree(image)) return undefined;
    const record = store.peekPulledRecord(imageRef);
    if (record === undefined) return undefined;
    if (record !== null) return { record, pulledByKubelet: true };
    if (this.intentCount(image) > 0) return { record: undefined, pulledByKubelet: true };
    const intent = store.peekIntentExists(image);
    if (intent === undefined) return undefined;
    return { record: undefined, pulledByKubelet: intent };
  }

  async #lookUp(image: string, imageRef: string): Promise<LookUp> {
    const record = await this.#store.getPulledRecord(imageRef);
    if (record !== undefined) return { record, pulledByKubelet: true };
    if (this.intentCount(image) > 0) return { record: undefined, pulledByKubelet: true };
    return { record: undefined, pulledByKubelet: await this.#store.intentExists(image) };
  }

  async #writeWhileMatching(
    image: string,
    imageRef: string,
    secret: { uid: string; namespace: string; name: string; credentialHash: string },
  ): Promise<void> {
    try {
      await this.#writePulledRecordIfChanged(image, imageRef, {
        kubernetesSecrets: [secret],
        kubernetesServiceAccounts: [],
        nodePodsAccessible: false,
      });
    } catch (error) {
      this.#report(error, { operation: "writeWhileMatching", image, imageRef });
    }
  }

  /**
   * Deletes every readable record last updated strictly before `until` whose
   * imageRef is not in `imageList` (the images still present). Unreadable
   * records are never listed, so never pruned. Intents are not touched.
   * Take `until` before listing the runtime's images.
   */
  pruneUnknownRecords(imageList: readonly string[], until: Date): Promise<void> {
    if (!Array.isArray(imageList) || !(until instanceof Date) || Number.isNaN(until.getTime())) {
      return Promise.reject(
        new PullRecordError(
          "INVALID_ARGUMENT",
          "pruneUnknownRecords needs a list of imageRefs and a valid Date",
        ),
      );
    }
    return this.#recordLocks.runAll(async () => {
      let listed: Awaited<ReturnType<PullRecordStore["listPulledRecords"]>>;
      try {
        listed = await this.#store.listPulledRecords();
      } catch (error) {
        this.#report(error, { operation: "pruneUnknownRecords" });
        return;
      }
      for (const error of listed.errors) this.#report(error, { operation: "pruneUnknownRecords" });
      const inUse = new Set(imageList);
      const limit = until.getTime();
      for (const record of listed.items) {
        if (!(record.lastUpdatedTime.getTime() < limit)) continue;
        if (inUse.has(record.imageRef)) continue;
        try {
          await this.#store.deletePulledRecord(record.imageRef);
        } catch (error) {
          this.#report(error, { operation: "pruneUnknownRecords", imageRef: record.imageRef });
        }
      }
    });
  }
}
