/**
 * `kubeimg route --explain`: every entry of every CR, and whether it put an
 * alternative in the list or why not.
 *
 * Built from the routing's public results only: the full route says which
 * entries contributed; for a CR that contributed nothing, the CR is routed
 * alone (same configuration, same container) to tell "its filter does not
 * select this image" from "its namespace is not the Pod's" and from "kuik
 * ignores it"; the pod-level gates (skip labels, pull policy) come from the
 * route's skip reason.
 */
import {
  type CompiledRouting,
  type ContainerRoute,
  compileRouting,
  type KuikConfig,
  type RouteContainerInput,
  type RoutingResource,
  routeContainer,
} from "@kubeimg/policy/routing";
import { resourceLabel } from "./describe.js";

/** One CR entry (a mirror or an upstream) as `--explain` reports it. */
export interface ConsideredEntry {
  /** `Kind namespace/name`. */
  readonly resource: string;
  /** `mirrors[0]`, `upstreams[1]`, or `-` for a CR without entries. */
  readonly entry: string;
  readonly result: "applied" | "skipped";
  /** Why it applied (what it produced) or why it was skipped. */
  readonly why: string;
}

const SKIP_TEXT: Record<string, string> = {
  MIRROR_POD: "pod: a static-pod mirror (kubernetes.io/config.mirror), kuik never rewrites it",
  SKIP_LABELS: "skip label: a skipLabels selector of the kuik config matches the pod's labels",
  SKIP_ANNOTATIONS:
    "skip annotation: a skipAnnotations selector of the kuik config matches the pod's annotations",
  ALREADY_PROCESSED: "already processed: the container is in kuik.enix.io/original-images",
  INVALID_IMAGE: "image: not a Docker reference kuik can parse",
  DIGEST: "image: pinned by digest, kuik does not reroute it",
  PULL_POLICY_NEVER:
    "pull policy: Never, and routing.rewriteOnNeverImagePullPolicy is false in the kuik config",
};

function sameResource(
  resource: RoutingResource,
  ref: { kind: string; name: string; namespace?: string },
): boolean {
  return (
    resource.kind === ref.kind &&
    resource.metadata.name === ref.name &&
    (resource.kind.startsWith("Cluster") || resource.metadata.namespace === ref.namespace)
  );
}

function entriesOf(
  resource: RoutingResource,
): { entry: string; index: number; discard: boolean }[] {
  if (resource.kind === "ClusterImageSetMirror" || resource.kind === "ImageSetMirror") {
    return resource.spec.mirrors.map((_, i) => ({
      entry: `mirrors[${i}]`,
      index: i,
      discard: false,
    }));
  }
  return resource.spec.upstreams.map((u, i) => ({
    entry: `upstreams[${i}]`,
    index: i,
    discard: u.discardAlternative,
  }));
}

function contributed(route: ContainerRoute, resource: RoutingResource, index: number | undefined) {
  if (route.status !== "routed") return [];
  return route.alternatives.filter((a) => {
    const r = a.reason;
    if (r.source === "original" || !sameResource(resource, r.resource)) return false;
    if (index === undefined) return true;
    return r.source === "mirror" ? r.mirrorIndex === index : r.upstreamIndex === index;
  });
}

/**
 * Returns every entry of every CR in `resources`, with whether it applied to
 * the container and why, or why it was skipped.
 */
export function explainRoute(
  resources: readonly RoutingResource[],
  routing: CompiledRouting,
  input: RouteContainerInput,
  route: ContainerRoute,
  options: { config: KuikConfig; discardAlternativeMode: "kuik" | "docs" },
): ConsideredEntry[] {
  const out: ConsideredEntry[] = [];
  for (const resource of resources) {
    const label = resourceLabel({
      kind: resource.kind,
      name: resource.metadata.name,
      ...(resource.kind.startsWith("Cluster") ? {} : { namespace: resource.metadata.namespace }),
    });
    const entries = entriesOf(resource);
    const rows = entries.length === 0 ? [{ entry: "-", index: -1, discard: false }] : entries;
    const problem = routing.problems.find((p) => sameResource(resource, p.resource));
    let crWhy: string | undefined;
    if (route.status === "skipped") {
      crWhy = SKIP_TEXT[route.skipReason] ?? route.skipReason;
    } else if (problem !== undefined && contributed(route, resource, undefined).length === 0) {
      crWhy = `ignored by kuik: ${problem.message}`;
    } else if (
      !resource.kind.startsWith("Cluster") &&
      resource.metadata.namespace !== (input.pod?.namespace ?? "")
    ) {
      crWhy = `namespace: the CR is in ${resource.metadata.namespace}, the pod in ${input.pod?.namespace ?? ""}`;
    } else if (contributed(route, resource, undefined).length === 0) {
      // Routed alone: does this CR select the image at all?
      const alone = routeContainer(
        compileRouting([resource], {
          config: options.config,
          discardAlternativeMode: options.discardAlternativeMode,
          invalidResources: "skip",
        }),
        input,
      );
      const selects = contributed(alone, resource, undefined).length > 0;
      crWhy = selects
        ? "every alternative it builds is already in the list (the first entry for an image wins)"
        : resource.kind === "ClusterImageSetMirror" || resource.kind === "ImageSetMirror"
          ? "filter: its spec.filter (or imageFilter) does not select this image in this namespace"
          : "filter: no upstream's imageFilter matches this image, or spec.filter does not select the pod";
      if (entries.length === 0) crWhy = "no entries";
    }
    for (const { entry, index, discard } of rows) {
      if (crWhy !== undefined) {
        out.push({ resource: label, entry, result: "skipped", why: crWhy });
        continue;
      }
      const made = contributed(route, resource, index);
      if (made.length > 0) {
        out.push({
          resource: label,
          entry,
          result: "applied",
          why: `gave ${made.map((a) => a.image).join(", ")}`,
        });
      } else if (discard) {
        out.push({
          resource: label,
          entry,
          result: "skipped",
          why: "discardAlternative: true (the upstream is never an alternative)",
        });
      } else {
        out.push({
          resource: label,
          entry,
          result: "skipped",
          why: "its alternative is already in the list (the first entry for an image wins), or its own imageFilter does not compile",
        });
      }
    }
  }
  return out;
}
