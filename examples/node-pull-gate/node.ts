/**
 * A simulated node: a container runtime that holds images, a registry that
 * accepts some credentials per repository, and the pull-credential manager
 * with the kubelet's filesystem store deciding, for each pod, whether an
 * image already on the node may be used or must be pulled (and so
 * re-authenticated) first. It follows the kubelet's image manager: ask
 * `mustAttemptImagePull`; when a pull is needed, record the intent, pull,
 * then record the result.
 */
import { createHash } from "node:crypto";
import { repositoryName } from "@kubeimg/core/reference";
import {
  CachedPullRecordStore,
  createVerificationPolicy,
  hashCredential,
  type ImagePullSecret,
  type MetricsRecorder,
  type MustPullReason,
  PullManager,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";

/** A pod's pull secret: its coordinates and the credentials it holds. */
export interface PodSecret {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly username: string;
  readonly password: string;
}

/** A pod that wants an image. */
export interface PodImageEvent {
  readonly kind: "pod";
  readonly pod: string;
  readonly image: string;
  readonly secrets: readonly PodSecret[];
}

/** The kubelet restarts: the manager is reopened from its files. */
export interface RestartEvent {
  readonly kind: "restart";
}

/** One thing that happens on the node. */
export type NodeEvent = PodImageEvent | RestartEvent;

/** What the node did for one event. */
export interface GateDecision {
  readonly event: NodeEvent;
  /** The manager's answer, for pod events. */
  readonly mustPull?: boolean;
  readonly reason?: MustPullReason | "notPresent";
  /** For pod events: what happened next. */
  readonly outcome: "used the image on the node" | "pulled" | "ErrImagePull" | "restarted";
  readonly detail: string;
}

/** The registry: which usernames may pull which repository; absent repositories are public. */
export type RegistryAccess = Readonly<Record<string, readonly string[]>>;

/** Options of {@link NodePullGate.open}. */
export interface NodePullGateOptions {
  /** The kubelet root directory (records go to `<dir>/image_manager`). */
  readonly kubeletDir: string;
  /** `imagePullCredentialsVerificationPolicy`. */
  readonly policy: string;
  readonly allowlist?: readonly string[];
  readonly registry: RegistryAccess;
  /** Images preloaded on the node (never pulled by the kubelet). */
  readonly preloaded?: readonly string[];
  readonly now?: () => number;
  /** Receives the kubelet's image-manager metrics (see `main.ts` for prom-client). */
  readonly metrics?: MetricsRecorder;
}

function imageId(image: string): string {
  return `sha256:${createHash("sha256").update(image).digest("hex")}`;
}

/** The node: runtime images, the registry, and the manager over the filesystem store. */
export class NodePullGate {
  readonly #options: NodePullGateOptions;
  /** The runtime's images: image string → image ID. */
  readonly #runtime = new Map<string, string>();
  #manager: PullManager;

  private constructor(options: NodePullGateOptions, manager: PullManager) {
    this.#options = options;
    this.#manager = manager;
    for (const image of options.preloaded ?? []) this.#runtime.set(image, imageId(image));
  }

  static async #openManager(options: NodePullGateOptions): Promise<PullManager> {
    const metrics = options.metrics ? { metrics: options.metrics } : {};
    const disk = await FileSystemPullRecordStore.open(options.kubeletDir, metrics);
    // The kubelet's decorator: an authoritative write-through cache over the files.
    const store = await CachedPullRecordStore.create(disk, metrics);
    return PullManager.open({
      store,
      policy: createVerificationPolicy({ policy: options.policy, allowlist: options.allowlist }),
      clock: { now: options.now ?? Date.now },
      ...metrics,
    });
  }

  /** Opens the node's records (creating them) and returns the gate. */
  static async open(options: NodePullGateOptions): Promise<NodePullGate> {
    return new NodePullGate(options, await NodePullGate.#openManager(options));
  }

  async #pull(event: PodImageEvent): Promise<GateDecision["outcome"] | ImagePullSecret[]> {
    const allowed = this.#options.registry[repositoryName(event.image)];
    if (allowed === undefined) return [];
    const used = event.secrets.filter((s) => allowed.includes(s.username));
    if (used.length === 0) return "ErrImagePull";
    return Promise.all(
      used.map(async (s) => ({
        namespace: s.namespace,
        name: s.name,
        uid: s.uid,
        credentialHash: await hashCredential({ username: s.username, password: s.password }),
      })),
    );
  }

  /** Handles one event and says what the node decided and did. */
  async handle(event: NodeEvent): Promise<GateDecision> {
    if (event.kind === "restart") {
      this.#manager = await NodePullGate.#openManager(this.#options);
      return { event, outcome: "restarted", detail: "manager reopened from image_manager/" };
    }
    const imageRef = this.#runtime.get(event.image) ?? "";
    const secrets = await Promise.all(
      event.secrets.map(async (s) => ({
        namespace: s.namespace,
        name: s.name,
        uid: s.uid,
        credentialHash: await hashCredential({ username: s.username, password: s.password }),
      })),
    );
    const decision = await this.#manager.mustAttemptImagePull(event.image, imageRef, () => ({
      secrets,
    }));
    const reason = decision.reason ?? "notPresent";
    if (!decision.mustPull) {
      return { event, mustPull: false, reason, outcome: "used the image on the node", detail: "" };
    }
    await this.#manager.recordPullIntent(event.image);
    const pulled = await this.#pull(event);
    if (!Array.isArray(pulled)) {
      await this.#manager.recordImagePullFailed(event.image);
      return {
        event,
        mustPull: true,
        reason,
        outcome: "ErrImagePull",
        detail: "the registry refused the pod's credentials",
      };
    }
    const ref = imageId(event.image);
    this.#runtime.set(event.image, ref);
    await this.#manager.recordImagePulled(
      event.image,
      ref,
      pulled.length === 0 ? { nodePodsAccessible: true } : { kubernetesSecrets: pulled },
    );
    return {
      event,
      mustPull: true,
      reason,
      outcome: "pulled",
      detail:
        pulled.length === 0
          ? "public image: recorded as accessible to every pod"
          : `recorded for ${pulled.map((s) => `${s.namespace}/${s.name}`).join(", ")}`,
    };
  }
}
