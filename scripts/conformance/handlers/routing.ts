/**
 * Conformance handler of the `routing` suite (kube-image-keeper's routing).
 * One vector: CRs, the four routing-relevant config keys, one Pod container
 * and the references a registry would find; compares the ordered list, the
 * secrets, whether kuik probes, and the final image. Format:
 * `conformance/routing/FORMAT.md`.
 */

import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import {
  type Availability,
  type AvailabilityChecker,
  resolveFirstAvailable,
} from "@kubeimg/policy/availability";
import {
  compileRouting,
  finalContainerImage,
  parseRoutingResource,
  routeContainer,
} from "@kubeimg/policy/routing";
import { expectOrError } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

interface RoutingVector extends Vector {
  readonly crdInvalid?: boolean;
  readonly config: {
    readonly honorPrioritiesOnAlwaysImagePullPolicy: boolean;
    readonly rewriteOnNeverImagePullPolicy: boolean;
    readonly skipLabels?: readonly string[];
    readonly skipAnnotations?: readonly string[];
  };
  readonly resources: readonly unknown[];
  readonly namespace: string;
  readonly pod?: {
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly container: {
    readonly name?: string;
    readonly image: string;
    readonly imagePullPolicy: string;
  };
  readonly available?: readonly string[];
}

/**
 * A registry that has exactly the vector's `available` references (all when
 * absent), known by their normalised form, as a registry knows an image.
 */
function fakeRegistry(available: readonly string[] | undefined): AvailabilityChecker {
  const normalised = (image: string) => {
    const parsed = safeParseNormalizedNamed(image);
    return parsed.success ? parsed.data.string : image;
  };
  const set = available === undefined ? undefined : new Set(available.map(normalised));
  return {
    async check(image): Promise<Availability> {
      return set === undefined || set.has(image.string)
        ? { available: true }
        : { available: false, reason: "not found", retryable: false };
    },
  };
}

async function run(v: RoutingVector): Promise<unknown> {
  const validation = v.crdInvalid ? "lenient" : "crd";
  const resources = v.resources.map((r) => parseRoutingResource(r, { validation }));
  const routing = compileRouting(resources, {
    invalidResources: "skip",
    config: {
      routing: {
        honorPrioritiesOnAlwaysImagePullPolicy: v.config.honorPrioritiesOnAlwaysImagePullPolicy,
        rewriteOnNeverImagePullPolicy: v.config.rewriteOnNeverImagePullPolicy,
      },
      skipLabels: [...(v.config.skipLabels ?? [])],
      skipAnnotations: [...(v.config.skipAnnotations ?? [])],
    },
  });
  const route = routeContainer(routing, {
    pod: {
      namespace: v.namespace,
      labels: v.pod?.labels ?? {},
      annotations: v.pod?.annotations ?? {},
    },
    container: {
      name: v.container.name ?? "app",
      image: v.container.image,
      imagePullPolicy: v.container.imagePullPolicy,
    },
  });
  if (route.status === "skipped") {
    return { skipped: true, alternatives: [], credentials: [], probed: false, image: route.image };
  }
  let winner: (typeof route.alternatives)[number] | undefined;
  if (route.probed) {
    winner = (await resolveFirstAvailable(route.alternatives, fakeRegistry(v.available))).winner;
  }
  return {
    skipped: false,
    alternatives: route.alternatives.map((a) => a.image),
    credentials: route.alternatives.map((a) => ({
      image: a.image,
      secret: a.credentialSecret
        ? { name: a.credentialSecret.name, namespace: a.credentialSecret.namespace }
        : null,
    })),
    probed: route.probed,
    image: finalContainerImage(route, winner),
  };
}

const handler: SuiteHandler = {
  run: (vector) => expectOrError(vector, () => run(vector as RoutingVector)),
};

export default handler;
