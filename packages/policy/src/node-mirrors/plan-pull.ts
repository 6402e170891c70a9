/**
 * The whole path of a pull: kube-image-keeper's webhook orders the
 * alternatives for a container and rewrites the Pod to one of them; the
 * kubelet hands that image and the credential its keyring matched to the
 * runtime; the runtime maps the image to registry endpoints through its
 * node config. Each step fails quietly on its own, so this joins them and
 * says, for every alternative, which endpoints are tried in which order,
 * over which scheme, with which TLS settings and which credential, with an
 * explain line for each decision.
 */
import type { DockerKeyring, TrackedCredential } from "@kubeimg/core/keyring";
import type { SecretRef } from "@kubeimg/core/ports";
import { isDigested, parseNormalizedNamed } from "@kubeimg/core/reference";
import {
  type CompiledRouting,
  type ContainerRoute,
  type RouteContainerInput,
  routeContainer,
} from "../routing/index.js";
import {
  type ContainerdHostsOptions,
  type HostCapability,
  resolveContainerdHosts,
} from "./containerd-hosts.js";
import { ciParse } from "./containers-image-reference.js";
import {
  isNodeMirrorsError,
  type NodeMirrorsErrorCode,
  type NodeMirrorsWarning,
} from "./errors.js";
import type { NodeFileMap, NodeFiles } from "./node-files.js";
import { pullSources, type RegistriesConf } from "./registries-conf.js";
import { resolveShortName } from "./short-names.js";

/** The node's runtime and its mirror configuration.
 *
 * @inline
 */
export type NodeRuntimeConfig =
  | {
      /** containerd's CRI plugin, reading host directories. */
      readonly runtime: "containerd";
      readonly files: NodeFileMap | NodeFiles;
      readonly options?: ContainerdHostsOptions;
    }
  | {
      /** CRI-O (and podman) through containers/image, reading registries.conf. */
      readonly runtime: "containers-image";
      readonly conf: RegistriesConf;
    };

/** Which credential the runtime offers an endpoint.
 *
 * @inline
 */
export type EndpointCredentials =
  | {
      /** The kubelet's keyring matched the image; the runtime offers it to this endpoint. */
      readonly source: "kubelet-keyring";
      readonly matchedKey: string;
      readonly username: string;
      readonly credentialSource: TrackedCredential["source"];
    }
  | { readonly source: "none" };

/** One registry endpoint the runtime contacts for an alternative.
 *
 * @inline
 */
export interface PlannedEndpoint {
  /** `scheme://host/path`, or for registries.conf the location. */
  readonly endpoint: string;
  readonly scheme: string;
  readonly host: string;
  /** The reference asked of this endpoint. */
  readonly reference: string;
  readonly skipVerify: boolean;
  /** HTTPS first, then plain HTTP on a TLS failure. */
  readonly httpFallback: boolean;
  readonly ca: readonly string[];
  readonly client: readonly (readonly [string, string])[];
  readonly header: Readonly<Record<string, readonly string[]>>;
  /** containerd: the operations this endpoint is used for. */
  readonly capabilities?: readonly HostCapability[];
  /** containers/image: the attempt is refused because the name falls under a blocked registry. */
  readonly blocked: boolean;
  readonly credentials: EndpointCredentials;
  readonly explain: readonly string[];
}

/** One image the webhook may rewrite the container to, and what the runtime does with it.
 *
 * @inline
 */
export interface PlannedAlternative {
  readonly image: string;
  /** Why the webhook lists it (original, upstream or mirror of which CR). */
  readonly webhook: string;
  readonly endpoints: readonly PlannedEndpoint[];
  /** Set when the runtime fails this image before contacting anything. */
  readonly error?: { readonly code: NodeMirrorsErrorCode | string; readonly message: string };
  readonly warnings: readonly NodeMirrorsWarning[];
  readonly explain: readonly string[];
}

export interface PullPlan {
  readonly container: string;
  readonly image: string;
  readonly route: ContainerRoute;
  /** In the webhook's order; just the Pod's own image when the webhook skips the container. */
  readonly alternatives: readonly PlannedAlternative[];
  readonly explain: readonly string[];
}

export interface PlanPullInput extends RouteContainerInput {
  readonly routing: CompiledRouting;
  readonly node: NodeRuntimeConfig;
  /**
   * The kubelet's keyring for the Pod (its pull secrets, node credentials),
   * or a function giving it per alternative (kuik adds the alternative's
   * `credentialSecret` to the Pod's pull secrets). None when absent.
   */
  readonly keyring?:
    | DockerKeyring
    | ((alternative: {
        readonly image: string;
        readonly credentialSecret: SecretRef | undefined;
      }) => DockerKeyring | undefined);
}

function credentialsFor(
  keyring: DockerKeyring | undefined,
  image: string,
  lines: string[],
): EndpointCredentials {
  if (keyring === undefined) {
    lines.push("credentials: no pull secret or node keyring given for this image; none assumed");
    return { source: "none" };
  }
  let repository = image;
  try {
    const ref = parseNormalizedNamed(image);
    repository = `${ref.domain}/${ref.path}`;
  } catch {
    // An image the kubelet cannot parse gets no credential; the runtime reports the error.
  }
  const found = keyring.lookup(repository)[0];
  if (found === undefined) {
    lines.push(
      `credentials: the kubelet's keyring has nothing for ${repository}; pulls are anonymous`,
    );
    return { source: "none" };
  }
  lines.push(
    `credentials: the kubelet's keyring matches ${repository} with key ${found.matchedKey}; the runtime offers that credential to every endpoint below (the kubelet sends no server address to restrict it)`,
  );
  return {
    source: "kubelet-keyring",
    matchedKey: found.matchedKey,
    username: found.username,
    credentialSource: found.source,
  };
}

function planContainerd(
  image: string,
  node: Extract<NodeRuntimeConfig, { runtime: "containerd" }>,
  credentials: EndpointCredentials,
  explain: string[],
): { endpoints: PlannedEndpoint[]; warnings: NodeMirrorsWarning[] } {
  const ref = parseNormalizedNamed(image);
  const host = ref.domain;
  const digested = isDigested(ref);
  explain.push(`containerd: the image's registry host is ${host}`);
  const result = resolveContainerdHosts(host, node.files, node.options);
  explain.push(...result.explain.map((line) => `containerd: ${line}`));
  const endpoints: PlannedEndpoint[] = [];
  for (const h of result.hosts) {
    const url = `${h.scheme}://${h.host}${h.path}`;
    if (!h.capabilities.includes("pull")) {
      explain.push(
        `containerd: ${url} skipped: no pull capability (${h.capabilities.join(", ") || "none"})`,
      );
      continue;
    }
    const resolves = digested || h.capabilities.includes("resolve");
    const role = digested
      ? "resolves the digest and fetches content"
      : resolves
        ? "resolves the tag and fetches content"
        : "fetches content by digest only (no resolve capability, so the tag is resolved elsewhere)";
    const lines = [
      role,
      `${h.scheme}${h.httpFallback ? " (plain http on a TLS failure)" : ""}, TLS verification ${h.skipVerify ? "off" : "on"}`,
    ];
    if (h.ca.length > 0) lines.push(`CA files: ${h.ca.join(", ")}`);
    if (h.client.length > 0)
      lines.push(`client certificates: ${h.client.map((p) => p[0]).join(", ")}`);
    if (Object.keys(h.header).length > 0)
      lines.push(`extra headers: ${Object.keys(h.header).join(", ")}`);
    if (h.dialTimeout !== undefined) lines.push(`dial timeout ${h.dialTimeout}`);
    endpoints.push({
      endpoint: url,
      scheme: h.scheme,
      host: h.host,
      reference: `${h.host}/${ref.path}${"tag" in ref && typeof ref.tag === "string" ? `:${ref.tag}` : ""}${isDigested(ref) ? `@${ref.digest}` : ""}`,
      skipVerify: h.skipVerify,
      httpFallback: h.httpFallback,
      ca: h.ca,
      client: h.client,
      header: h.header,
      capabilities: h.capabilities,
      blocked: false,
      credentials,
      explain: lines,
    });
  }
  return { endpoints, warnings: [...result.warnings] };
}

function planContainersImage(
  image: string,
  conf: RegistriesConf,
  credentials: EndpointCredentials,
  explain: string[],
): PlannedEndpoint[] {
  let candidates = [image];
  const first = ciParse(image);
  if (!/[.:]/.test(first.domain) && first.domain !== "localhost") {
    // CRI-O resolves short names with the mode disabled: every search registry, in order.
    const resolved = resolveShortName(conf, image, { mode: "disabled" });
    candidates = [...resolved.candidates];
    explain.push(
      `CRI-O: ${image} is a short name; ${resolved.description || "resolved"}: ${candidates.join(", ")}`,
    );
  }
  const endpoints: PlannedEndpoint[] = [];
  for (const candidate of candidates) {
    const result = pullSources(conf, candidate);
    explain.push(...result.explain.map((line) => `containers/image: ${line}`));
    for (const source of result.sources) {
      const host = ciParse(source.reference).domain;
      endpoints.push({
        endpoint: source.location,
        scheme: source.insecure ? "https, then http" : "https",
        host,
        reference: source.reference,
        skipVerify: source.insecure,
        httpFallback: source.insecure,
        ca: [],
        client: [],
        header: {},
        blocked: source.blocked,
        credentials,
        explain: source.explain,
      });
    }
  }
  return endpoints;
}

function describeReason(route: ContainerRoute, index: number): string {
  if (route.status !== "routed")
    return `the Pod's own image (the webhook skips this container: ${route.skipReason})`;
  const reason = route.alternatives[index]?.reason;
  if (reason === undefined) return "";
  if (reason.source === "original") return "the original image";
  const cr = `${reason.resource.kind} ${reason.resource.namespace ? `${reason.resource.namespace}/` : ""}${reason.resource.name}`;
  return reason.source === "upstream"
    ? `upstream ${reason.upstreamIndex} of ${cr}`
    : `mirror ${reason.mirrorIndex} of ${cr} (a mirror of ${reason.mirrorOf})`;
}

/**
 * Plans a container's pull end to end: the webhook's alternatives (kuik
 * routing), then for each the endpoints the node's runtime tries, in
 * order, with scheme, TLS, credentials and an explain line per decision.
 *
 * @example
 * ```ts
 * import { planPull } from "@kubeimg/policy/node-mirrors";
 * import { compileRouting, parseRoutingResource } from "@kubeimg/policy/routing";
 *
 * const routing = compileRouting([
 *   parseRoutingResource({
 *     apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
 *     metadata: { name: "all" },
 *     spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
 *   }),
 * ]);
 * const files = { "/etc/containerd/certs.d/docker.io/hosts.toml": 'server = "https://mirror.example.com"\n' };
 * const plan = planPull({
 *   routing,
 *   pod: { namespace: "default", labels: {}, annotations: {} },
 *   container: { name: "app", image: "nginx:1.25" },
 *   node: { runtime: "containerd", files },
 * });
 * for (const alt of plan.alternatives) console.log(alt.image, alt.endpoints.map((e) => e.endpoint));
 * // docker.io/library/nginx:1.25 ["https://mirror.example.com/v2"]
 * // harbor.example.com/mirror/library/nginx:1.25 ["https://harbor.example.com/v2"]
 * ```
 */
export function planPull(input: PlanPullInput): PullPlan {
  const route = routeContainer(input.routing, input);
  const explain: string[] = [];
  const images = route.status === "routed" ? route.alternatives.map((a) => a.image) : [route.image];
  if (route.status === "routed") {
    explain.push(
      `webhook: ${route.alternatives.length} alternative(s) in order; it rewrites the Pod to the first one available${route.originalDiscarded ? " (the original is discarded)" : ""}`,
    );
  } else {
    explain.push(
      `webhook: container skipped (${route.skipReason}); the runtime pulls the Pod's own image`,
    );
  }
  const alternatives = images.map((image, index): PlannedAlternative => {
    const lines: string[] = [];
    const credentialSecret =
      route.status === "routed" ? route.alternatives[index]?.credentialSecret : undefined;
    if (credentialSecret !== undefined) {
      lines.push(
        `webhook: adds the pull secret ${credentialSecret.namespace}/${credentialSecret.name} (copied to the Pod's namespace) when it picks this image`,
      );
    }
    const keyring =
      typeof input.keyring === "function"
        ? input.keyring({ image, credentialSecret })
        : input.keyring;
    const credentials = credentialsFor(keyring, image, lines);
    try {
      if (input.node.runtime === "containerd") {
        const { endpoints, warnings } = planContainerd(image, input.node, credentials, lines);
        return {
          image,
          webhook: describeReason(route, index),
          endpoints,
          warnings,
          explain: lines,
        };
      }
      const endpoints = planContainersImage(image, input.node.conf, credentials, lines);
      return {
        image,
        webhook: describeReason(route, index),
        endpoints,
        warnings: input.node.conf.warnings,
        explain: lines,
      };
    } catch (error) {
      const code = isNodeMirrorsError(error)
        ? error.code
        : String((error as { code?: unknown } | null)?.code ?? "INVALID_REFERENCE");
      lines.push(
        `the runtime fails this image before contacting a registry: ${(error as Error).message}`,
      );
      return {
        image,
        webhook: describeReason(route, index),
        endpoints: [],
        error: { code, message: (error as Error).message },
        warnings: [],
        explain: lines,
      };
    }
  });
  return {
    container: input.container.name,
    image: route.image,
    route,
    alternatives,
    explain,
  };
}
