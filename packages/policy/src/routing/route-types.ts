/**
 * What routing a container gives back: the gates' skip reasons, the reasons
 * an entry is in the list, and the route itself. Apart from the steps
 * (`route-container.ts`) so that file holds kuik's algorithm only.
 */
import type { NamedReference } from "@kubeimg/core/reference";
import type { SecretRef } from "../availability/checker.js";
import type { RoutingPodMeta, RoutingResourceRef } from "./compile-resource.js";
import type { AlternativeSortKey } from "./sort-key.js";

/** The container fields routing reads, once read (image present). */
export interface RoutingContainer {
  readonly name: string;
  readonly image: string;
  /**
   * As the webhook sees it, i.e. after API-server defaulting (`Always` for
   * `:latest` or untagged images, else `IfNotPresent`; see
   * `defaultPullPolicy` in `@kubeimg/core/reference`). Empty or absent is
   * neither `Always` nor `Never`.
   */
  readonly imagePullPolicy?: string;
}

/**
 * The container fields {@link routeContainer} reads, as a Pod spec holds
 * them: a `V1Container` of `@kubernetes/client-node` fits as it is. A
 * container without an image (a workload controller fills it in later) is
 * skipped with `INVALID_IMAGE`, as `planPodRouting` does.
 *
 * @inline
 */
export interface RoutingContainerInput {
  readonly name: string;
  readonly image?: string | undefined;
  /**
   * As the webhook sees it, after API-server defaulting (see
   * `defaultPullPolicy` in `@kubeimg/core/reference`).
   */
  readonly imagePullPolicy?: string | undefined;
}

/**
 * The Pod metadata {@link routeContainer} reads, every field optional as in
 * a Pod's `metadata` (a `V1ObjectMeta` fits as it is): an absent namespace
 * is the empty one, absent labels or annotations are empty maps.
 *
 * @inline
 */
export interface RoutingPodMetaInput {
  readonly namespace?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly annotations?: Readonly<Record<string, string>> | undefined;
}

/** What {@link routeContainer} needs. */
export interface RouteContainerInput {
  /** The Pod's `metadata` (absent: no namespace, labels or annotations). */
  readonly pod?: RoutingPodMetaInput | undefined;
  readonly container: RoutingContainerInput;
  /**
   * `container.image` as `parseNormalizedNamed` read it, when the caller has
   * read it already (a command line, a form): routing then uses it instead
   * of reading the image again. It must be the reading of that very image.
   */
  readonly reference?: NamedReference | undefined;
  /** True for an init container (never recorded in the annotation). */
  readonly init?: boolean | undefined;
}

/** A {@link RouteContainerInput} with its defaults filled in. */
export interface ResolvedRouteContainerInput {
  readonly pod: RoutingPodMeta;
  readonly container: RoutingContainer;
  readonly init?: boolean | undefined;
  /** As in {@link RouteContainerInput.reference}. */
  readonly reference?: NamedReference | undefined;
}

/** Why kuik leaves a container alone without building a list.
 *
 * @inline
 */
export type RoutingSkipReason =
  /** The Pod is a kubelet static-pod mirror (annotation `kubernetes.io/config.mirror`). */
  | "MIRROR_POD"
  /** A `skipLabels` selector matched the Pod's labels. */
  | "SKIP_LABELS"
  /** A `skipAnnotations` selector matched the Pod's annotations. */
  | "SKIP_ANNOTATIONS"
  /** The container is already listed in `kuik.enix.io/original-images`. */
  | "ALREADY_PROCESSED"
  /** The image does not parse as a Docker reference. */
  | "INVALID_IMAGE"
  /** The image contains `@` (digest, or tag and digest). */
  | "DIGEST"
  /** `imagePullPolicy: Never` and `routing.rewriteOnNeverImagePullPolicy` is false. */
  | "PULL_POLICY_NEVER";

/** Why an alternative is in the list. */
export type AlternativeReason =
  | {
      readonly source: "original";
      readonly key: AlternativeSortKey;
      /** True when `Always` pinned it first (honor flag off). */
      readonly pinnedFirst: boolean;
    }
  | {
      readonly source: "upstream";
      readonly key: AlternativeSortKey;
      readonly resource: RoutingResourceRef;
      readonly upstreamIndex: number;
      /** True for the upstream whose filter matched the image. */
      readonly matched: boolean;
    }
  | {
      readonly source: "mirror";
      readonly key: AlternativeSortKey;
      readonly resource: RoutingResourceRef;
      readonly mirrorIndex: number;
      /** The list entry this mirror entry was built from. */
      readonly mirrorOf: string;
    };

/** One entry of a container's ordered list. */
export interface RoutedAlternative {
  readonly image: string;
  /**
   * `image` as `parseNormalizedNamed` reads it, read once when the list was
   * built; what the availability check and the registry use. Undefined when
   * `image` is no valid reference (a CR with an empty `registry`, say).
   */
  readonly reference: NamedReference | undefined;
  /** The secret kuik attaches to this entry, if any. */
  readonly credentialSecret: SecretRef | undefined;
  readonly reason: AlternativeReason;
}

/** A container kuik does not consider.
 *
 * @inline
 */
export interface SkippedContainerRoute {
  readonly status: "skipped";
  readonly container: string;
  readonly init: boolean;
  /** The image as written (unchanged). */
  readonly image: string;
  readonly skipReason: RoutingSkipReason;
}

/** A container with its ordered, de-duplicated alternatives.
 *
 * @inline
 */
export interface RoutedContainerRoute {
  readonly status: "routed";
  readonly container: string;
  readonly init: boolean;
  /** The image as written. */
  readonly image: string;
  /** The normalised original (`docker.io/library/nginx:1.25`), tag as written. */
  readonly normalized: string;
  /** The exact list kuik would probe, in order; may be empty. */
  readonly alternatives: readonly RoutedAlternative[];
  /** True when kuik would probe the list (two entries or more). */
  readonly probed: boolean;
  /** True when a matched `discardAlternative` upstream removed the original. */
  readonly originalDiscarded: boolean;
  /**
   * Only with `discardAlternativeMode: "docs"`: the single remaining entry the
   * container is routed to without probing.
   */
  readonly direct: RoutedAlternative | undefined;
}

/** The outcome of {@link routeContainer}. */
export type ContainerRoute = SkippedContainerRoute | RoutedContainerRoute;
