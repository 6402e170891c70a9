import type { AlternativeReason, RoutingResourceRef } from "@kubeimg/policy/routing";

/** Returns `Kind namespace/name` or `Kind name` for a routing object. */
export function resourceLabel(ref: RoutingResourceRef): string {
  return ref.namespace === undefined
    ? `${ref.kind} ${ref.name}`
    : `${ref.kind} ${ref.namespace}/${ref.name}`;
}

/** Returns kuik's sort key as `(CR priority, kind rank, entry priority, index)` text. */
export function keyText(reason: AlternativeReason): string {
  const { crPriority, kindRank, entryPriority, entryIndex } = reason.key;
  const cr = crPriority === Number.NEGATIVE_INFINITY ? "-inf" : String(crPriority);
  return `(${cr}, ${kindRank}, ${entryPriority}, ${entryIndex})`;
}

/**
 * Returns one sentence saying why an alternative is in the list: which CR
 * and entry produced it, or that it is the original.
 */
export function whyText(reason: AlternativeReason): string {
  switch (reason.source) {
    case "original":
      return reason.pinnedFirst
        ? "the original image, first because imagePullPolicy is Always"
        : "the original image";
    case "upstream":
      return `${resourceLabel(reason.resource)} upstreams[${reason.upstreamIndex}]${
        reason.matched ? ", the upstream that matched the image" : ""
      }`;
    case "mirror":
      return `${resourceLabel(reason.resource)} mirrors[${reason.mirrorIndex}], a mirror of ${reason.mirrorOf}`;
  }
}
