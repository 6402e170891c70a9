/**
 * How `kubeimg route` reports the alternatives kuik's routing returns: one
 * row per alternative (image, credential secret, the CR and entry behind it,
 * its sort key), the cell its availability check prints, and the refusal of
 * a list that holds an image that is no valid reference.
 */
import type { ProbeOutcome } from "@kubeimg/policy/availability";
import type { RoutedAlternative } from "@kubeimg/policy/routing";
import { CliError } from "../../errors/cli-error.js";
import type { Colors } from "../../output/color.js";
import type { Cell } from "../../output/table.js";
import { resourceLabel, whyText } from "./describe.js";

/** What `kubeimg route` reports for one alternative. */
export interface AlternativeRow {
  readonly image: string;
  readonly credentialSecret: { readonly namespace: string; readonly name: string } | null;
  readonly source: "original" | "upstream" | "mirror";
  readonly resource: string | null;
  readonly key: readonly [number | null, number, number, number];
  readonly why: string;
  readonly check?: ProbeOutcome;
}

export function alternativeRow(
  a: RoutedAlternative,
  check: ProbeOutcome | undefined,
): AlternativeRow {
  const { key } = a.reason;
  return {
    image: a.image,
    credentialSecret: a.credentialSecret
      ? { namespace: a.credentialSecret.namespace, name: a.credentialSecret.name }
      : null,
    source: a.reason.source,
    resource: a.reason.source === "original" ? null : resourceLabel(a.reason.resource),
    // JSON has no -Infinity: the original pinned first for Always has a null CR priority.
    key: [
      Number.isFinite(key.crPriority) ? key.crPriority : null,
      key.kindRank,
      key.entryPriority,
      key.entryIndex,
    ],
    why: whyText(a.reason),
    ...(check === undefined ? {} : { check }),
  };
}

export function checkCell(outcome: ProbeOutcome | undefined, c: Colors): Cell {
  if (outcome === undefined) return "";
  switch (outcome.state) {
    case "available":
      return { text: "available", style: c.green };
    case "unavailable":
      return { text: `unavailable: ${withFlagHint(outcome.reason)}`, style: c.red };
    case "aborted":
      return { text: `not needed (${outcome.reason})`, style: c.dim };
  }
}

/** Adds the flags that lift the private-address guard to a reason that names it. */
function withFlagHint(reason: string): string {
  return /BLOCKED_HOST|private|loopback/i.test(reason)
    ? `${reason} (allow it with --allow-private-hosts, or --insecure-registry HOST for plain HTTP)`
    : reason;
}

/**
 * Throws a `INVALID_ALTERNATIVE` {@link CliError} naming the CR and the
 * entry of the first alternative that is not a valid image reference (an
 * empty `registry:` gives `/dockerhub-cache/library/nginx:1.27`): such a list
 * is never printed as an answer.
 */
export function refuseInvalidAlternatives(alternatives: readonly RoutedAlternative[]): void {
  for (const a of alternatives) {
    if (a.reference !== undefined) continue;
    const r = a.reason;
    const where =
      r.source === "original"
        ? "the original image"
        : `${resourceLabel(r.resource)} ${r.source === "mirror" ? `mirrors[${r.mirrorIndex}]` : `upstreams[${r.upstreamIndex}]`}`;
    throw new CliError(
      "INVALID_ALTERNATIVE",
      `${where} builds ${JSON.stringify(a.image)}, which is not a valid image reference (check its registry and path)`,
      a.image,
    );
  }
}
