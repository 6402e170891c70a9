/**
 * Routing speed: ordering one container against 1,000 kuik CRs of all four
 * kinds, with spec.filter / imageFilter regexes, label and namespace items,
 * and mixed priorities (`pnpm bench routing`). Target: at most 50 µs per
 * container after the first call.
 *
 * Rows: the same image again (a rollout's replicas: served from the compiled
 * routing's memo); a new tag of an image that 58 entries route (every
 * filter answer recomputed); a new image few CRs match (the common uncached
 * case); compiling 1,000 CRs from scratch then routing `nginx` or a new
 * `quay.io` image (what kuik pays on every admission, since it compiles its
 * filters per call); one CR of 1,000 changed, recompiled with a
 * `RoutingCompileCache`, then a new image routed (a controller reacting to an
 * edit); and 8,000 CRs compiled and routed (the scale of issue 17).
 *
 * With `--peer "<command>"` the rows that kube-image-keeper also computes
 * are measured against a build of its own routing code instead (see
 * `peer.ts`; `--emit-inputs <file>` writes the CRs, the pod and the rows).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  compileRouting,
  createRoutingCompileCache,
  parseRoutingResource,
  type RoutingResource,
  routeContainer,
} from "@kubeimg/policy/routing";
import { runBenchmarks, seededRandom } from "./lib.js";
import { comparePeer, type PeerRow, peerOptions, writeInputs } from "./peer.js";

// Seeded: every run sees the same CRs.
const random = seededRandom(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
const namespaces = Array.from({ length: 10 }, (_, i) => `team-${i}`);

/** Mostly patterns for other registries and orgs; about 1 in 25 matches `nginx:1.25`. */
function imagePattern(): string {
  return pick([
    `registry-${int(0, 200)}\\.example\\.com/.+`,
    `ghcr\\.io/org-${int(0, 100)}/.*`,
    `quay\\.io/team-${int(0, 100)}/.+`,
    `docker\\.io/user-${int(0, 300)}/app:v[0-9]+`,
    `docker\\.io/library/(${pick(["nginx", "redis", "postgres", "busybox", "alpine"])}):.+`,
  ]);
}

function mirrorFilter(i: number): Record<string, unknown> {
  switch (i % 4) {
    case 0:
      return {
        filter: { include: [{ image: imagePattern() }], exclude: [{ image: ".*:latest" }] },
      };
    case 1:
      return { imageFilter: { include: [imagePattern(), imagePattern()] } };
    case 2:
      return {
        filter: {
          include: [{ image: imagePattern() }, { label: `app in (web,api,worker-${int(0, 9)})` }],
          exclude: [{ annotation: "example.com/no-mirror" }],
        },
      };
    default:
      return {
        filter: { include: [{ image: imagePattern() }], exclude: [{ label: "tier=batch" }] },
      };
  }
}

function mirrors(count: number): unknown[] {
  return Array.from({ length: count }, (_, j) => ({
    registry: `mirror-${int(0, 50)}.example.com`,
    path: `/cache-${j}`,
    priority: int(0, 5),
    ...(random() < 0.3
      ? { credentialSecret: { name: `secret-${j}`, namespace: "kuik-system" } }
      : {}),
  }));
}

/** Replicated upstreams; about 1 in 20 sets covers Docker Hub's library images. */
function upstreams(): unknown[] {
  const hub = random() < 0.05;
  const base = hub ? "docker.io" : `registry-${int(0, 200)}.example.com`;
  const filter = hub ? `/library/(${pick(["nginx", "redis", "postgres"])}):.+` : "/apps/.+";
  return [
    {
      registry: base,
      path: hub ? "/library" : "/apps",
      priority: int(0, 3),
      imageFilter: { include: [filter] },
    },
    {
      registry: `replica-${int(0, 50)}.example.com`,
      path: "/library",
      priority: int(0, 3),
      imageFilter: { include: ["/library/.+"] },
    },
    { registry: `replica-${int(0, 50)}.example.com`, path: "/dockerhub", priority: int(0, 3) },
  ];
}

/** The CR objects as the API server would hand them over (JSON), before parsing. */
function makeRawResources(total: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < total; i++) {
    const priority = int(-5, 5);
    const kind =
      i === 10 || i === 500
        ? "ClusterImageSetMirror"
        : pick([
            "ClusterImageSetMirror",
            "ClusterImageSetMirror",
            "ImageSetMirror",
            "ClusterReplicatedImageSet",
            "ReplicatedImageSet",
          ]);
    const metadata =
      kind === "ImageSetMirror" || kind === "ReplicatedImageSet"
        ? { name: `cr-${i}`, namespace: pick(namespaces), uid: `uid-${i}`, generation: 1 }
        : { name: `cr-${i}`, uid: `uid-${i}`, generation: 1 };
    // Two cluster-wide catch-all mirrors, as a real cluster has at most a few;
    // every `.*` mirror CR also mirrors all entries before it (mirrors of mirrors).
    const catchAll = i === 10 || i === 500;
    const spec = catchAll
      ? { priority: -1, filter: { include: [{ image: ".*" }] }, mirrors: mirrors(1) }
      : kind === "ClusterImageSetMirror" || kind === "ImageSetMirror"
        ? { priority, ...mirrorFilter(i), mirrors: mirrors(int(1, 3)) }
        : {
            priority,
            ...(kind === "ClusterReplicatedImageSet" && i % 3 === 0
              ? { filter: { include: [{ namespace: "team-[0-4]" }] } }
              : {}),
            upstreams: upstreams(),
          };
    out.push({ apiVersion: "kuik.enix.io/v1alpha1", kind, metadata, spec });
  }
  return out;
}

const rawResources = makeRawResources(1000);
const resources = rawResources.map((o) => parseRoutingResource(o));
const config = { routing: { honorPrioritiesOnAlwaysImagePullPolicy: false } };
const routing = compileRouting(resources, { config });
const pod = {
  namespace: "team-3",
  labels: { app: "web", tier: "front" },
  annotations: { "example.com/owner": "team-3" },
};
const container = { name: "app", image: "nginx:1.25", imagePullPolicy: "IfNotPresent" };

// The first call pays for the memoised filter answers; the target is every call after it.
const first = routeContainer(routing, { pod, container });
if (first.status !== "routed") throw new Error("benchmark container was skipped");
console.log(
  `1,000 CRs (${routing.clusterMirrors.length} CISM, ${[...routing.namespacedMirrors.values()].flat().length} ISM, ` +
    `${routing.clusterReplicated.length} CRIS, ${[...routing.namespacedReplicated.values()].flat().length} RIS); ` +
    `nginx:1.25 in team-3 gets ${first.alternatives.length} alternatives`,
);

const cache = createRoutingCompileCache();
compileRouting(resources, { config, cache });
let generation = 1;
/** The CR list with one object replaced by its next generation (same spec: the cache cannot know). */
function withOneChanged(): RoutingResource[] {
  generation++;
  const changed = resources.slice();
  const old = changed[7] as RoutingResource;
  changed[7] = { ...old, metadata: { ...old.metadata, generation } } as RoutingResource;
  return changed;
}
const large = makeRawResources(8000).map((o) => parseRoutingResource(o));

/**
 * The rows measured against kube-image-keeper's own routing code: kuik keeps
 * no compiled routing, it compiles every CR's filters on each admission, so
 * its side of every row is one admission's routing of one container
 * (selecting the CRs whose pod filter admits the pod, then building the
 * ordered list); for "the same image again" its alternative cache answers
 * after the CR selection. `{n}` in an image counts up on every call, so no
 * call of ours is answered by the routing's memo unless the row says so.
 */
const peerRows: (PeerRow & { image: string; compiled: boolean; cache: boolean })[] = [];
{
  let n = 1_000_000;
  const imageOf = (template: string, i: number) =>
    template.replaceAll("{n%100}", String(i % 100)).replaceAll("{n}", String(i));
  const alternativesFor = (template: string) => {
    const route = routeContainer(compileRouting(resources, { config }), {
      pod,
      container: { ...container, image: imageOf(template, 1) },
    });
    return route.status === "routed" ? route.alternatives.map((a) => a.image) : null;
  };
  const row = (
    id: string,
    name: string,
    image: string,
    ours: (image: string) => unknown,
    { compiled = false, cache = false } = {},
  ) =>
    peerRows.push({
      id,
      name,
      image,
      compiled,
      cache,
      ours: () => ours(imageOf(image, n++)),
      check: () => alternativesFor(image),
    });
  const quay = "quay.io/team-{n%100}/svc:{n}";
  const cold = (image: string) =>
    routeContainer(compileRouting(resources, { config }), {
      pod,
      container: { ...container, image },
    });
  row("cold-quay", "compile 1,000 CRs + route a new quay.io image, every call", quay, cold);
  row("cold-nginx", "compile 1,000 CRs + route nginx:1.25, every call", "nginx:1.25", cold);
  row(
    "changed-quay",
    "one CR of 1,000 changed, recompile, route a new quay.io image",
    quay,
    (image) =>
      routeContainer(compileRouting(withOneChanged(), { config, cache }), {
        pod,
        container: { ...container, image },
      }),
  );
  const compiled = (image: string) =>
    routeContainer(routing, { pod, container: { ...container, image } });
  row(
    "route-same",
    "routing per container once compiled: the same image again",
    "nginx:1.25",
    compiled,
    {
      compiled: true,
      cache: true,
    },
  );
  row(
    "route-tag",
    "routing per container once compiled: a new nginx tag",
    "nginx:1.{n}",
    compiled,
    {
      compiled: true,
    },
  );
  row("route-quay", "routing per container once compiled: a new quay.io image", quay, compiled, {
    compiled: true,
  });
}
const peerInputs = {
  resources: rawResources,
  config: { honorPrioritiesOnAlwaysImagePullPolicy: false, rewriteOnNeverImagePullPolicy: false },
  pod: { namespace: pod.namespace, labels: pod.labels, annotations: pod.annotations },
  container,
  rows: peerRows.map(({ id, name, image, compiled, cache }) => ({
    id,
    name,
    image,
    compiled,
    cache,
  })),
};
const options = peerOptions();
if (options.emitInputs !== undefined) {
  writeInputs(options.emitInputs, peerInputs);
  console.log(`inputs written to ${options.emitInputs}`);
  process.exit(0);
}
if (options.peer !== undefined) {
  const file = join(mkdtempSync(join(tmpdir(), "kubeimg-routing-")), "inputs.json");
  writeInputs(file, peerInputs);
  await comparePeer("routing: 1,000 CRs", options.peerName, options.peer, file, peerRows, {
    rounds: options.rounds,
  });
  process.exit(0);
}

let tag = 0;
await runBenchmarks("routing: one container against 1,000 CRs", [
  {
    name: "routeContainer, same image (after the first call)",
    fn: () => routeContainer(routing, { pod, container }),
  },
  {
    name: "routeContainer, a new tag every call (no memoised answer)",
    fn: () => {
      tag++;
      return routeContainer(routing, { pod, container: { ...container, image: `nginx:1.${tag}` } });
    },
  },
  {
    name: "routeContainer, a new quay.io image every call (few matching CRs, no memo)",
    fn: () => {
      tag++;
      return routeContainer(routing, {
        pod,
        container: { ...container, image: `quay.io/team-${tag % 100}/svc:${tag}` },
      });
    },
  },
  {
    name: "compileRouting (1,000 CRs, cold) + first routeContainer",
    fn: () => routeContainer(compileRouting(resources, { config }), { pod, container }),
  },
  {
    name: "compileRouting (1,000 CRs, cold) + route a new quay.io image, every call",
    fn: () => {
      tag++;
      return routeContainer(compileRouting(resources, { config }), {
        pod,
        container: { ...container, image: `quay.io/team-${tag % 100}/svc:${tag}` },
      });
    },
  },
  {
    name: "one CR of 1,000 changed: compileRouting with a cache + route a new quay.io image",
    fn: () => {
      tag++;
      return routeContainer(compileRouting(withOneChanged(), { config, cache }), {
        pod,
        container: { ...container, image: `quay.io/team-${tag % 100}/svc:${tag}` },
      });
    },
  },
  {
    name: "compileRouting (8,000 CRs, cold) + route nginx:1.25",
    fn: () => routeContainer(compileRouting(large, { config }), { pod, container }),
  },
]);
