/**
 * Compiling a cluster's routing objects and kuik's operator configuration
 * into the plain data {@link routeContainer} walks. Objects are compiled one
 * by one (`compile-resource.ts`) and, given a {@link RoutingCompileCache},
 * reused while their generation is unchanged, so a controller that
 * recompiles on every CR change pays for the changed object only.
 */

import {
  type CompiledMirrorSet,
  type CompiledReplicatedSet,
  type CompiledResource,
  compileRoutingResource,
  type RoutingResourceRef,
} from "./compile-resource.js";
import { type KuikConfig, type KuikConfigInput, parseKuikConfig } from "./config-schema.js";
import { RoutingError } from "./errors.js";
import { type LabelSelector, parseLabelSelector } from "./label-selector.js";
import type { RoutingResource } from "./resource-schema.js";

/** What {@link compileRouting} options may hold. */
export interface CompileRoutingOptions {
  /**
   * kuik's operator configuration (input form; defaults applied). Still
   * validated: a value read from YAML or JSON that fails the schema throws
   * `INVALID_CONFIG`.
   */
  readonly config?: KuikConfigInput | undefined;
  /** Reuses compiled objects across calls while their generation is unchanged. */
  readonly cache?: RoutingCompileCache;
  /**
   * How a list that `discardAlternative` reduced to one entry is treated.
   *
   * - `"kuik"` (default) follows kuik's code: a list of fewer than two
   *   entries is never probed and the container keeps its image, even when
   *   the single entry is not the original. With the docs' bitnami example
   *   (upstream `docker.io/bitnami` with `discardAlternative: true`, plus
   *   `docker.io/bitnamilegacy`), `bitnami/redis:7.2` stays as written.
   * - `"docs"` follows kuik's documentation of that example: when a matched
   *   `discardAlternative` upstream removed the original and exactly one entry
   *   remains, the container is routed to it directly, without probing
   *   (`docker.io/bitnamilegacy/redis:7.2`); the route carries it in `direct`.
   *
   * Every other case behaves the same in both modes.
   */
  readonly discardAlternativeMode?: "kuik" | "docs";
  /**
   * Most entries (before de-duplication) one container may build; past it,
   * routing fails with `TOO_MANY_ALTERNATIVES` instead of exhausting memory.
   * Default 50,000.
   */
  readonly maxCandidates?: number;
  /**
   * What to do with an object kuik would skip (a filter pattern that does not
   * compile, a bad label selector in `spec.filter`).
   *
   * - `"throw"` (default): throw `INVALID_RESOURCE` naming the object, the
   *   field and the reason, so a broken CR is not silently inert.
   * - `"skip"`: skip it as kuik's controller does and list it in
   *   {@link CompiledRouting.problems}; for a webhook or controller compiling
   *   what a cluster holds, where one user's broken CR must not stop routing.
   */
  readonly invalidResources?: "throw" | "skip";
}

/** Routing objects and configuration, compiled for {@link routeContainer}. */
export interface CompiledRouting {
  readonly config: KuikConfig;
  readonly discardAlternativeMode: "kuik" | "docs";
  readonly maxCandidates: number;
  readonly skipLabels: readonly LabelSelector[];
  readonly skipAnnotations: readonly LabelSelector[];
  readonly clusterMirrors: readonly CompiledMirrorSet[];
  readonly clusterReplicated: readonly CompiledReplicatedSet[];
  /** Namespaced kinds, by namespace. */
  readonly namespacedMirrors: ReadonlyMap<string, readonly CompiledMirrorSet[]>;
  readonly namespacedReplicated: ReadonlyMap<string, readonly CompiledReplicatedSet[]>;
  /**
   * CRs (and upstreams) kuik ignores, with the reason; only ever non-empty
   * with `invalidResources: "skip"` (otherwise {@link compileRouting} throws).
   */
  readonly problems: readonly { readonly resource: RoutingResourceRef; readonly message: string }[];
}

/** Compiled objects kept between calls, keyed by kind, namespace and name. */
export interface RoutingCompileCache {
  /** How many compiled objects are held. */
  readonly size: number;
  /** Forgets everything. */
  clear(): void;
}

interface CacheEntry {
  readonly source: RoutingResource;
  readonly compiled: CompiledResource;
  /** The call of {@link compileRouting} that last saw this entry. */
  seenIn: number;
  /** False once the entry left `entries` (replaced, or absent from a call). */
  live: boolean;
}

class CompileCache implements RoutingCompileCache {
  /** The current entry of each kind/namespace/name. */
  readonly entries = new Map<string, CacheEntry>();
  /** Entries by the object they were compiled or reused for: no key to build on a hit. */
  byObject = new WeakMap<RoutingResource, CacheEntry>();
  calls = 0;
  get size(): number {
    return this.entries.size;
  }
  clear(): void {
    for (const entry of this.entries.values()) entry.live = false;
    this.entries.clear();
    this.byObject = new WeakMap();
  }

  /** Returns `resource` compiled, reusing the entry of the same object or generation. */
  compile(resource: RoutingResource): CompiledResource {
    let entry = this.byObject.get(resource);
    if (entry === undefined || !entry.live) {
      const key = cacheKey(resource);
      const current = this.entries.get(key);
      if (entry === undefined) {
        entry =
          current !== undefined && reusable(current.source, resource)
            ? current
            : {
                source: resource,
                compiled: compileRoutingResource(resource),
                seenIn: 0,
                live: true,
              };
        this.byObject.set(resource, entry);
      }
      if (current !== undefined && current !== entry) current.live = false;
      entry.live = true;
      this.entries.set(key, entry);
    }
    entry.seenIn = this.calls;
    return entry.compiled;
  }

  /** Forgets the entries the current call did not see. */
  prune(): void {
    for (const [key, entry] of this.entries) {
      if (entry.seenIn !== this.calls) {
        entry.live = false;
        this.entries.delete(key);
      }
    }
  }
}

/**
 * Returns an empty cache for {@link compileRouting}. An object is reused when
 * it is the same JavaScript object as last time, or when its
 * `metadata.uid` and `metadata.generation` are given and unchanged (the API
 * server bumps `generation` on every spec change).
 *
 * @example
 * ```ts
 * import { compileRouting, createRoutingCompileCache, parseRoutingResource } from "@kubeimg/policy/routing";
 *
 * const cism = parseRoutingResource({
 *   apiVersion: "kuik.enix.io/v1alpha1", kind: "ClusterImageSetMirror",
 *   metadata: { name: "all", uid: "0b7c", generation: 3 },
 *   spec: { filter: { include: [{ image: ".*" }] }, mirrors: [{ registry: "harbor.example.com", path: "/mirror" }] },
 * });
 * const cache = createRoutingCompileCache();
 * const first = compileRouting([cism], { cache });
 * const again = compileRouting([{ ...cism }], { cache }); // same uid and generation: not recompiled
 * again.clusterMirrors[0] === first.clusterMirrors[0] // true
 * cache.size // 1
 * ```
 */
export function createRoutingCompileCache(): RoutingCompileCache {
  return new CompileCache();
}

function cacheKey(resource: RoutingResource): string {
  return `${resource.kind}/${resource.metadata.namespace ?? ""}/${resource.metadata.name}`;
}

function reusable(previous: RoutingResource, next: RoutingResource): boolean {
  if (previous === next) return true;
  const a = previous.metadata;
  const b = next.metadata;
  return (
    a.generation !== undefined &&
    a.generation === b.generation &&
    a.uid !== undefined &&
    a.uid === b.uid
  );
}

/** Parsed configurations by input object, kept while its JSON text is unchanged. */
const configs = new WeakMap<object, { readonly text: string; readonly config: KuikConfig }>();

/** `parseKuikConfig`, skipped when the same object comes back unchanged. */
function sharedConfig(input: unknown): KuikConfig {
  if (typeof input !== "object" || input === null) return parseKuikConfig(input);
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch {
    return parseKuikConfig(input); // not JSON (a cycle, a BigInt): let the parser say why
  }
  const known = configs.get(input);
  if (known !== undefined && known.text === text) return known.config;
  const config = parseKuikConfig(input);
  configs.set(input, { text, config });
  return config;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Returns the routing objects and configuration compiled for
 * {@link routeContainer}. Objects keep their input order within a kind (kuik
 * reads them from an informer cache whose order is undefined; input order is
 * this library's rule). Pass a {@link RoutingCompileCache} to recompile only
 * objects whose generation changed. Throws `INVALID_CONFIG` for a bad
 * configuration, and `INVALID_RESOURCE` for a CR kuik would skip (a filter
 * pattern that does not compile) unless `invalidResources: "skip"` asks to
 * skip it as kuik does and list it in `problems`.
 *
 * @example
 * ```ts
 * import { compileRouting, routeContainer } from "@kubeimg/policy/routing";
 * import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
 *
 * const resources = loadRoutingResources(`
 * apiVersion: kuik.enix.io/v1alpha1
 * kind: ClusterImageSetMirror
 * metadata: { name: all }
 * spec:
 *   filter: { include: [{ image: ".*" }] }
 *   mirrors: [{ registry: harbor.example.com, path: /mirror }]
 * `);
 * const routing = compileRouting(resources, { config: { routing: {} } });
 * const route = routeContainer(routing, {
 *   pod: { namespace: "default", labels: {}, annotations: {} },
 *   container: { name: "app", image: "nginx:1.25" },
 * });
 * if (route.status === "routed") route.alternatives.map((a) => a.image);
 * // ["docker.io/library/nginx:1.25", "harbor.example.com/mirror/library/nginx:1.25"]
 * ```
 */
export function compileRouting(
  resources: readonly RoutingResource[],
  options: CompileRoutingOptions = {},
): CompiledRouting {
  const config = sharedConfig(options.config ?? {});
  const cache = options.cache instanceof CompileCache ? options.cache : undefined;
  const clusterMirrors: CompiledMirrorSet[] = [];
  const clusterReplicated: CompiledReplicatedSet[] = [];
  const namespacedMirrors = new Map<string, CompiledMirrorSet[]>();
  const namespacedReplicated = new Map<string, CompiledReplicatedSet[]>();
  const problems: { resource: RoutingResourceRef; message: string }[] = [];
  if (cache) cache.calls++;
  for (const resource of resources) {
    const compiled = cache ? cache.compile(resource) : compileRoutingResource(resource);
    if (compiled.problem !== undefined) {
      problems.push({ resource: compiled.ref, message: compiled.problem });
    }
    if (compiled.type === "replicated") {
      for (const u of compiled.upstreams) {
        if (u.problem !== undefined) problems.push({ resource: compiled.ref, message: u.problem });
      }
    }
    const ns = compiled.ref.namespace;
    if (compiled.type === "mirror") {
      if (ns === undefined) clusterMirrors.push(compiled);
      else pushTo(namespacedMirrors, ns, compiled);
    } else if (ns === undefined) clusterReplicated.push(compiled);
    else pushTo(namespacedReplicated, ns, compiled);
  }
  cache?.prune();
  const first = problems[0];
  if (first !== undefined && options.invalidResources !== "skip") throw invalidResource(first);
  return Object.freeze({
    config,
    discardAlternativeMode: options.discardAlternativeMode ?? "kuik",
    maxCandidates: options.maxCandidates ?? 50_000,
    skipLabels: Object.freeze(config.skipLabels.map(parseLabelSelector)),
    skipAnnotations: Object.freeze(config.skipAnnotations.map(parseLabelSelector)),
    clusterMirrors: Object.freeze(clusterMirrors),
    clusterReplicated: Object.freeze(clusterReplicated),
    namespacedMirrors,
    namespacedReplicated,
    problems: Object.freeze(problems),
  });
}

/** The error for a CR kuik would skip, naming the object, the field and the option that skips it. */
function invalidResource(problem: {
  readonly resource: RoutingResourceRef;
  readonly message: string;
}): RoutingError {
  const { resource, message } = problem;
  const name =
    resource.namespace === undefined ? resource.name : `${resource.namespace}/${resource.name}`;
  const field = /^spec[.\w[\]]*(?=: )/.exec(message)?.[0];
  return new RoutingError(
    "INVALID_RESOURCE",
    `${resource.kind} ${name}: ${message}; kuik would skip this object: fix it, or pass { invalidResources: "skip" } to skip it as kuik does (listed in problems)`,
    { path: field, value: resource },
  );
}
