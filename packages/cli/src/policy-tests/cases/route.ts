/** `route` cases: the alternatives kuik orders and the first that answers, as `kubeimg route --check` answers. */
import { defaultPullPolicy, safeParseNormalizedNamed } from "@kubeimg/core/reference";
import { type AvailabilityChecker, resolveFirstAvailable } from "@kubeimg/policy/availability";
import {
  type ContainerRoute,
  finalContainerImage,
  parseRoutingPod,
  type RouteContainerInput,
  routeContainer,
} from "@kubeimg/policy/routing";
import { refuseInvalidAlternatives } from "../../commands/route/alternatives.js";
import { keyText, whyText } from "../../commands/route/describe.js";
import { explainRoute } from "../../commands/route/explain.js";
import { readInputFile } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import {
  at,
  type CaseAnswer,
  type CaseContext,
  compareFields,
  type Json,
  requireExpectKeys,
} from "../case-support.js";
import { PolicyRefError } from "../environment.js";
import { failAt, type TestCase } from "../test-file.js";

const PLAIN_ANSWERS: AvailabilityChecker = { check: async () => ({ available: true }) };

function checkerFor(unavailable: readonly string[]): AvailabilityChecker {
  if (unavailable.length === 0) return PLAIN_ANSWERS;
  // Compared in normal form: the gate hands the checker parsed references.
  const down = new Set(
    unavailable.map((image) => {
      const parsed = safeParseNormalizedNamed(image);
      return parsed.success ? parsed.data.string : image;
    }),
  );
  return {
    check: async (image) =>
      down.has(image.string)
        ? { available: false, reason: "listed in unavailable", retryable: false }
        : { available: true },
  };
}

/** The routing input of a route or pull case, as `kubeimg route` builds it from its flags. */
export async function routeInput(c: CaseContext, tc: TestCase): Promise<RouteContainerInput> {
  const input = tc.input;
  let namespace = input.namespace as string | undefined;
  let labels = (input.labels ?? {}) as Record<string, string>;
  let annotations = (input.annotations ?? {}) as Record<string, string>;
  let image = input.image as string | undefined;
  let containerName = input.container as string | undefined;
  let pullPolicy = input.pullPolicy as string | undefined;
  if (input.pod !== undefined) {
    const file = await readInputFile(c.env.path(input.pod as string), c.env.io);
    const docs = yamlDocuments(file, { version: "1.1" });
    const pod = await at(c, tc, ["pod"], () => {
      if (docs.length !== 1)
        throw new PolicyRefError(
          `${file.name}: must hold one Pod (found ${docs.length} documents)`,
        );
      try {
        return parseRoutingPod(docs[0]);
      } catch (error) {
        throw new PolicyRefError(`${file.name}: ${(error as Error).message}`);
      }
    });
    const containers = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
    const container =
      containerName === undefined
        ? containers[0]
        : containers.find((x) => x.name === containerName);
    if (container === undefined) {
      failAt(
        c.test,
        ["cases", tc.index, tc.kind, containerName === undefined ? "pod" : "container"],
        `${file.name} has no container${containerName === undefined ? "" : ` named ${JSON.stringify(containerName)}`} (found: ${containers.map((x) => x.name).join(", ") || "none"})`,
      );
    }
    namespace ??= pod.metadata.namespace || undefined;
    labels = { ...(pod.metadata.labels ?? {}), ...labels };
    annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
    image ??= container.image;
    containerName = container.name;
    pullPolicy ??= container.imagePullPolicy;
  }
  if (image === undefined || image === "") {
    failAt(c.test, ["cases", tc.index, tc.kind], "needs image (or a pod whose container has one)");
  }
  const parsed = safeParseNormalizedNamed(image);
  if (!parsed.success) {
    failAt(
      c.test,
      ["cases", tc.index, tc.kind, "image"],
      `${JSON.stringify(image)}: ${parsed.error.message}`,
    );
  }
  const toMap = (record: Record<string, string>) => {
    // As `kubeimg route --label`: a key `__proto__` is just a key.
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries(record)) {
      Object.defineProperty(out, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return {
    pod: {
      namespace: namespace ?? "default",
      labels: toMap(labels),
      annotations: toMap(annotations),
    },
    container: {
      name: containerName ?? "app",
      image,
      imagePullPolicy: pullPolicy ?? defaultPullPolicy(image),
    },
  };
}

export async function resolveWinner(c: CaseContext, tc: TestCase, route: ContainerRoute) {
  const unavailable = (tc.input.unavailable ?? []) as string[];
  const listed = route.status === "routed" ? route.alternatives.map((a) => a.image) : [];
  unavailable.forEach((image, i) => {
    if (!listed.includes(image)) {
      failAt(
        c.test,
        ["cases", tc.index, tc.kind, "unavailable", i],
        `${JSON.stringify(image)} is not one of the alternatives (${listed.join(", ") || "none: the container is not routed"})`,
      );
    }
  });
  if (route.status !== "routed" || route.alternatives.length === 0) {
    return { winner: undefined, index: -1 };
  }
  refuseInvalidAlternatives(route.alternatives);
  const result = await resolveFirstAvailable(route.alternatives, checkerFor(unavailable));
  return { winner: result.winner, index: result.index };
}

function routeTrace(route: ContainerRoute): string[] {
  if (route.status !== "routed") return [`the webhook skips the container: ${route.skipReason}`];
  return [
    `the webhook ${route.probed ? "probes" : "does not probe (fewer than two)"} ${route.alternatives.length} alternative(s), in order:`,
    ...route.alternatives.map(
      (a, i) => `${i + 1}. ${a.image}  key ${keyText(a.reason)}  ${whyText(a.reason)}`,
    ),
  ];
}

export async function evaluateRoute(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, false, ["image", "alternatives"]);
  const input = await routeInput(c, tc);
  const loaded = await at(c, tc, [], () => c.env.routing(true));
  const route = routeContainer(loaded.routing, input);
  const { winner } = await resolveWinner(c, tc, route);
  const image = finalContainerImage(route, winner);
  const alternatives = route.status === "routed" ? route.alternatives.map((a) => a.image) : [];
  const actual: Json = { image, alternatives };
  return {
    actual,
    recorded: actual,
    mismatches: compareFields(tc.expect, actual),
    upstream: {},
    explain: () => [
      ...routeTrace(route),
      ...(winner ? [`first available: ${winner.image}`] : []),
      ...explainRoute(loaded.resources, loaded.routing, input, route, {
        config: loaded.config,
        discardAlternativeMode: "kuik",
      }).map((e) => `${e.resource} ${e.entry}: ${e.result}: ${e.why}`),
    ],
  };
}
