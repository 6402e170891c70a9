/** The Routing view: kuik's ordered alternatives for an image or each container of a Pod. */

import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import {
  type ContainerRoute,
  compileRouting,
  planPodRouting,
  RoutingError,
  type RoutingResourceRef,
  routeContainer,
} from "@kubeimg/policy/routing";
import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { type InputIssue, isIssue, type ParsedYaml, readYaml, show } from "./input.js";

export interface RoutingInput {
  /** kuik CRs, several YAML documents. */
  readonly crs: string;
  /** `image`: route one image; `pod`: plan a pasted Pod. */
  readonly mode: "image" | "pod";
  readonly image: string;
  readonly namespace: string;
  /** `Always`, `IfNotPresent`, `Never`, or "" for the API server's default. */
  readonly pullPolicy: string;
  readonly pod: string;
}

export interface AlternativeRow {
  readonly image: string;
  readonly source: string;
  /** The CR the entry comes from, `Kind/namespace/name`. */
  readonly resource: string;
  /** The sort key, shown as `(crPriority, kindRank, entryPriority, entryIndex)`. */
  readonly key: string;
  readonly why: string;
  readonly secret: string;
}

export interface ContainerRow {
  /** What the row is about: `Image nginx:1.25`, or `Container web: nginx:1.25` for a Pod's. */
  readonly heading: string;
  readonly container: string;
  readonly image: string;
  readonly status: "routed" | "skipped";
  readonly skipReason: string | undefined;
  /** Why the image could not be read (`INVALID_IMAGE`), in the parser's words, as the CLI says it. */
  readonly skipDetail: string | undefined;
  readonly normalized: string | undefined;
  readonly probed: boolean;
  readonly alternatives: readonly AlternativeRow[];
}

export interface ResourceRow {
  readonly resource: string;
  readonly applied: boolean;
  readonly why: string;
}

export interface RoutingResult {
  readonly kind: "routing";
  readonly issues: readonly InputIssue[];
  readonly error: string | undefined;
  readonly containers: readonly ContainerRow[];
  /** Every CR and whether it contributed an entry to some container. */
  readonly resources: readonly ResourceRow[];
}

function refName(r: RoutingResourceRef): string {
  return r.namespace === undefined ? `${r.kind}/${r.name}` : `${r.kind}/${r.namespace}/${r.name}`;
}

/** The reference parser's reason for an image kuik cannot read (kuik parses it the same way). */
function invalidImageDetail(route: ContainerRoute): string | undefined {
  if (route.status !== "skipped" || route.skipReason !== "INVALID_IMAGE") return undefined;
  if (route.image === "") return "the container has no image";
  const parsed = safeParseNormalizedNamed(route.image);
  return parsed.success ? undefined : `${parsed.error.message} [${parsed.error.code}]`;
}

function containerRow(route: ContainerRoute, mode: "image" | "pod"): ContainerRow {
  const heading =
    mode === "image"
      ? `Image ${route.image}`
      : `${route.init ? "Init container" : "Container"} ${route.container}: ${route.image}`;
  if (route.status === "skipped") {
    return {
      heading,
      container: route.container,
      image: route.image,
      status: "skipped",
      skipReason: route.skipReason,
      skipDetail: invalidImageDetail(route),
      normalized: undefined,
      probed: false,
      alternatives: [],
    };
  }
  return {
    heading,
    container: route.container,
    image: route.image,
    status: "routed",
    skipReason: undefined,
    skipDetail: undefined,
    normalized: route.normalized,
    probed: route.probed,
    alternatives: route.alternatives.map((a) => {
      const k = a.reason.key;
      const key = `(${k.crPriority}, ${k.kindRank}, ${k.entryPriority}, ${k.entryIndex})`;
      const secret =
        a.credentialSecret === undefined
          ? ""
          : `${a.credentialSecret.namespace ?? ""}${a.credentialSecret.namespace ? "/" : ""}${a.credentialSecret.name}`;
      const r = a.reason;
      if (r.source === "original") {
        return {
          image: a.image,
          source: "original",
          resource: "",
          key,
          why: r.pinnedFirst
            ? "the image as written, pinned first by imagePullPolicy Always"
            : "the image as written",
          secret,
        };
      }
      if (r.source === "upstream") {
        return {
          image: a.image,
          source: "upstream",
          resource: refName(r.resource),
          key,
          why: r.matched
            ? `upstream ${r.upstreamIndex}: its imageFilter matched the image`
            : `upstream ${r.upstreamIndex}: a sibling upstream matched, so every upstream of the set is an alternative`,
          secret,
        };
      }
      return {
        image: a.image,
        source: "mirror",
        resource: refName(r.resource),
        key,
        why: `mirror ${r.mirrorIndex} of ${r.mirrorOf}`,
        secret,
      };
    }),
  };
}

function routingIssue(
  input: string,
  error: unknown,
  yaml: ParsedYaml | undefined,
): InputIssue | undefined {
  if (!(error instanceof RoutingError)) return undefined;
  const path = error.path ?? "";
  return {
    input,
    line: yaml === undefined ? undefined : yaml.lineOf(error.document ?? 0, path),
    path,
    value: error.value === undefined ? "" : show(error.value),
    ...(error.suggestion === undefined
      ? { message: error.message }
      : { message: "unknown field", suggestion: error.suggestion }),
  };
}

/** Runs the Routing view: kuik's ordered alternatives for an image or each container of a Pod. */
export function runRouting(input: RoutingInput): RoutingResult {
  const fail = (issues: InputIssue[], error?: string): RoutingResult => ({
    kind: "routing",
    issues,
    error,
    containers: [],
    resources: [],
  });
  const crYaml = readYaml(input.crs, "crs");
  if (isIssue(crYaml)) return fail([crYaml]);
  let resources: ReturnType<typeof loadRoutingResources>;
  try {
    resources = loadRoutingResources(input.crs);
  } catch (error) {
    const issue = routingIssue("crs", error, crYaml);
    if (issue === undefined) throw error;
    return fail([issue]);
  }
  const routing = compileRouting(resources, { invalidResources: "skip" });
  let containers: ContainerRow[];
  let namespace = input.namespace;
  const issues: InputIssue[] = [];
  let error: string | undefined;
  if (input.mode === "pod") {
    const podYaml = readYaml(input.pod, "pod");
    if (isIssue(podYaml)) return fail([podYaml]);
    try {
      const plan = planPodRouting(routing, podYaml.values[0], { namespace: input.namespace });
      namespace = plan.namespace;
      containers = plan.containers.map((c) => containerRow(c, "pod"));
      if (plan.skipReason !== undefined) error = `the Pod is left alone: ${plan.skipReason}`;
      if (plan.error !== undefined) error = plan.error.message;
    } catch (e) {
      const issue = routingIssue("pod", e, podYaml);
      if (issue === undefined) throw e;
      return fail([issue]);
    }
  } else {
    try {
      const route = routeContainer(routing, {
        pod: { namespace, labels: {}, annotations: {} },
        container: {
          name: "container",
          image: input.image.trim(),
          ...(input.pullPolicy === "" ? {} : { imagePullPolicy: input.pullPolicy }),
        },
      });
      containers = [containerRow(route, "image")];
    } catch (e) {
      if (!(e instanceof RoutingError)) throw e;
      containers = [];
      error = e.message;
      issues.push({
        input: "image",
        line: undefined,
        path: e.path ?? "",
        value: show(e.value),
        message: e.message,
      });
    }
  }
  const used = new Set(containers.flatMap((c) => c.alternatives.map((a) => a.resource)));
  const problems = new Map(routing.problems.map((p) => [refName(p.resource), p.message]));
  const rows: ResourceRow[] = resources.map((r) => {
    const ns = (r.metadata as { namespace?: string }).namespace;
    const name = refName({
      kind: r.kind,
      name: r.metadata.name,
      ...(r.kind === "ImageSetMirror" || r.kind === "ReplicatedImageSet"
        ? { namespace: ns ?? "" }
        : {}),
    });
    if (used.has(name))
      return { resource: name, applied: true, why: "contributed the entries marked with it" };
    const problem = problems.get(name);
    if (problem !== undefined)
      return { resource: name, applied: false, why: `kuik ignores it: ${problem}` };
    if ((r.kind === "ImageSetMirror" || r.kind === "ReplicatedImageSet") && ns !== namespace) {
      return {
        resource: name,
        applied: false,
        why: `it lives in namespace ${JSON.stringify(ns ?? "")}, the Pod in ${JSON.stringify(namespace)}`,
      };
    }
    return {
      resource: name,
      applied: false,
      why: "its filter (image or Pod selector) does not match, or no container was routed",
    };
  });
  return { kind: "routing", issues, error, containers, resources: rows };
}
