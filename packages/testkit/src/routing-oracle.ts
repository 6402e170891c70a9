/**
 * An oracle for the ordering: a plain transcription of the routing anchor's
 * algorithm (no memo, no prefilter, no registry index) and random CR sets to
 * compare it with `routeContainer` on. Used by the property test and by
 * `pnpm fuzz routing`.
 */

import { path as goPath } from "@kubeimg/core/internal";
import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import { compileRegexp } from "@kubeimg/core/regexp";
import { routing as routingInternals } from "@kubeimg/policy/internal";
import {
  compileRouting,
  parseRoutingResource,
  RoutingError,
  type RoutingResource,
  routeContainer,
} from "@kubeimg/policy/routing";
import fc from "fast-check";

const { parseLabelSelector } = routingInternals;

type Pod = {
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
};

/** Include/exclude as kuik compiles it; undefined when a pattern does not compile. */
function naiveFilter(include: string[], exclude: string[]): ((s: string) => boolean) | undefined {
  try {
    const inc = (include.length === 0 && exclude.length > 0 ? [".*"] : include).map((p) =>
      compileRegexp(`^(${p})$`),
    );
    const exc = exclude.map((p) => compileRegexp(`^(${p})$`));
    return (s) => inc.some((r) => r.matchString(s)) && !exc.some((r) => r.matchString(s));
  } catch {
    return undefined;
  }
}

type Items = { image?: string; label?: string; annotation?: string; namespace?: string }[];
const values = (items: Items, key: keyof Items[number]) =>
  items.map((i) => i[key]).filter((v): v is string => v !== undefined && v !== "");

function naivePodMatch(r: RoutingResource, pod: Pod): boolean | undefined {
  const f = r.spec.filter as { include: Items; exclude: Items } | undefined;
  if (!f || f.include.length + f.exclude.length === 0) return true;
  try {
    const sel = (items: Items, key: "label" | "annotation") =>
      values(items, key).map(parseLabelSelector);
    const dim = (
      inc: ReturnType<typeof sel>,
      exc: ReturnType<typeof sel>,
      set: Record<string, string>,
    ) => (inc.length === 0 || inc.some((s) => s.matches(set))) && !exc.some((s) => s.matches(set));
    const labels = dim(sel(f.include, "label"), sel(f.exclude, "label"), pod.labels);
    const annotations = dim(
      sel(f.include, "annotation"),
      sel(f.exclude, "annotation"),
      pod.annotations,
    );
    let ns = true;
    if (r.metadata.namespace === undefined || r.kind.startsWith("Cluster")) {
      const inc = values(f.include, "namespace");
      const nf = naiveFilter(inc.length ? inc : [".*"], values(f.exclude, "namespace"));
      if (!nf) return undefined;
      ns = nf(pod.namespace);
    }
    return labels && annotations && ns;
  } catch {
    return undefined;
  }
}

interface Entry {
  image: string;
  secret: string | null;
  key: number[];
}

function naiveOrder(
  resources: RoutingResource[],
  pod: Pod,
  image: string,
  always: boolean,
): string[] | string {
  const parsed = safeParseNormalizedNamed(image);
  if (!parsed.success || image.includes("@")) return "skipped";
  const n = parsed.data.string;
  const selected = (kinds: string[]) =>
    kinds.flatMap((kind) =>
      resources.filter(
        (r) =>
          r.kind === kind &&
          (kind.startsWith("Cluster") || r.metadata.namespace === pod.namespace) &&
          naivePodMatch(r, pod) === true,
      ),
    );
  const secretOf = (r: RoutingResource, s: { name: string; namespace: string } | undefined) =>
    s ? `${r.kind.startsWith("Cluster") ? s.namespace : r.metadata.namespace}/${s.name}` : null;
  const list: Entry[] = [];
  let drop = false;
  for (const r of selected(["ClusterReplicatedImageSet", "ReplicatedImageSet"])) {
    if (r.kind !== "ClusterReplicatedImageSet" && r.kind !== "ReplicatedImageSet") continue;
    const ups = r.spec.upstreams.map((u) => ({
      u,
      f: u.imageFilter ? naiveFilter(u.imageFilter.include, u.imageFilter.exclude) : () => false,
    }));
    const match = ups.find(
      ({ u, f }) => f !== undefined && n.startsWith(u.registry) && f(n.slice(u.registry.length)),
    );
    if (!match) continue;
    if (match.u.discardAlternative) drop = true;
    const prefix = goPath.Join(match.u.registry, match.u.path);
    const suffix = n.startsWith(prefix) ? n.slice(prefix.length) : n;
    ups.forEach(({ u, f }, d) => {
      if (f === undefined || u.discardAlternative) return;
      list.push({
        image: goPath.Join(u.registry, u.path) + suffix,
        secret: secretOf(r, u.credentialSecret),
        key: [r.spec.priority, r.kind === "ClusterReplicatedImageSet" ? 3 : 4, u.priority, d],
      });
    });
  }
  if (!drop) list.push({ image: n, secret: null, key: [always ? -Infinity : 0, 0, 0, 0] });
  for (const r of selected(["ClusterImageSetMirror", "ImageSetMirror"])) {
    if (r.kind !== "ClusterImageSetMirror" && r.kind !== "ImageSetMirror") continue;
    const unified =
      r.spec.filter && r.spec.filter.include.length + r.spec.filter.exclude.length > 0;
    const f = unified
      ? naiveFilter(
          values(r.spec.filter?.include as Items, "image").length
            ? values(r.spec.filter?.include as Items, "image")
            : [".*"],
          values(r.spec.filter?.exclude as Items, "image"),
        )
      : naiveFilter(r.spec.imageFilter?.include ?? [], r.spec.imageFilter?.exclude ?? []);
    if (!f) continue;
    for (const c of [...list]) {
      const p = safeParseNormalizedNamed(c.image);
      if (!p.success) return "INVALID_ALTERNATIVE_REFERENCE";
      const s = p.data.string;
      if (!f(s)) continue;
      const path = s.slice(s.indexOf("/") + 1);
      r.spec.mirrors.forEach((m, d) => {
        list.push({
          image: goPath.Join(m.registry, m.path, path),
          secret: secretOf(r, m.credentialSecret),
          key: [r.spec.priority, r.kind === "ClusterImageSetMirror" ? 1 : 2, m.priority, d],
        });
      });
    }
  }
  const cmp = (a: Entry, b: Entry) => {
    for (let i = 0; i < 4; i++) {
      const x = a.key[i] as number;
      const y = b.key[i] as number;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  list.sort(cmp);
  const seen = new Set<string>();
  return list
    .filter((e) => !seen.has(e.image) && seen.add(e.image))
    .map((e) => `${e.image} ${e.secret}`);
}

const hosts = [
  "docker.io",
  "quay.io",
  "quay.io:5000",
  "ghcr.io",
  "harbor.example.com",
  "localhost:5000",
];
const patterns = [
  ".*",
  ".*",
  ".*",
  ".+",
  "/.*",
  "docker\\.io/.+",
  "/library/.+",
  ".*",
  ".+",
  "docker\\.io/.+",
  "quay\\.io/.*",
  "(docker|quay)\\.io/.+",
  "[a-z.]+/library/.+",
  "ghcr\\.io/org/.*",
  "/library/.+",
  "/.*",
  ".*:latest",
  "harbor\\.example\\.com/.+",
  "(?i)QUAY\\.io/.+",
  "x|docker\\.io/library/redis:7",
  "doc+ker\\.io/.+",
  "a?docker\\.io/.+",
  "docker\\.io/library/(nginx|redis):.+",
  "quay\\.io:5000/.+",
  "[",
  "ghcr\\.io/org/app",
  "/org/.+",
  "docker\\.io/x)|(.+",
  "quay\\.io/(x",
];
/** Images the scenarios route. */
export const images = [
  "nginx:1.25",
  "nginx",
  "redis:7",
  "docker.io/library/redis:7",
  "quay.io/prometheus/node:v1",
  "ghcr.io/org/app",
  "ghcr.io/org/app:2",
  "localhost:5000/x/y:1",
  "quay.io:5000/a/b",
  "index.docker.io/user/app:v1",
];

const secret = fc.option(
  fc.record({ name: fc.constantFrom("s1", "s2"), namespace: fc.constantFrom("", "kuik", "apps") }),
  { nil: undefined },
);
const prio = fc.integer({ min: 0, max: 2 });
const patternList = fc.array(fc.constantFrom(...patterns), { maxLength: 2 });
const imageFilter = fc.option(
  fc.record({
    include: patternList,
    exclude: fc.array(fc.constantFrom(...patterns.slice(7)), { maxLength: 1 }),
  }),
  { nil: undefined, freq: 5 },
);
const filterItem = fc.oneof(
  fc.record({ image: fc.constantFrom(...patterns) }),
  fc.record({
    label: fc.constantFrom("app=web", "tier", "!tier", "app in (web,api)", "bad selector"),
  }),
  fc.record({ namespace: fc.constantFrom("apps", "def.*", "(") }),
);
const filter = fc.option(
  fc.record({
    include: fc.array(filterItem, { maxLength: 2 }),
    exclude: fc.array(filterItem, { maxLength: 1 }),
  }),
  { nil: undefined, freq: 2 },
);
const metadata = (kind: string, i: number) =>
  kind.startsWith("Cluster")
    ? fc.constant({ name: `r${i}` })
    : fc.constantFrom(
        { name: `r${i}`, namespace: "apps" },
        { name: `r${i}`, namespace: "default" },
      );

/** One random routing object named `r<i>` (input form). */
export const resource = (i: number) =>
  fc
    .constantFrom(
      "ClusterImageSetMirror",
      "ImageSetMirror",
      "ClusterReplicatedImageSet",
      "ReplicatedImageSet",
    )
    .chain((kind) =>
      fc.record({
        apiVersion: fc.constant("kuik.enix.io/v1alpha1"),
        kind: fc.constant(kind),
        metadata: metadata(kind, i),
        spec: kind.endsWith("ImageSetMirror")
          ? fc.record({
              priority: fc.integer({ min: -2, max: 2 }),
              filter,
              imageFilter,
              mirrors: fc.array(
                fc.record({
                  registry: fc.constantFrom(...hosts, ""),
                  path: fc.constantFrom("", "/m", "/cache/", "mirror", "/a/../b"),
                  priority: prio,
                  credentialSecret: secret,
                }),
                { maxLength: 2 },
              ),
            })
          : fc.record({
              priority: fc.integer({ min: -2, max: 2 }),
              filter: filter.map(
                (f) =>
                  f && {
                    include: f.include.filter((x) => !("image" in x)),
                    exclude: f.exclude.filter((x) => !("image" in x)),
                  },
              ),
              upstreams: fc.array(
                fc.record({
                  registry: fc.constantFrom(...hosts, ""),
                  path: fc.constantFrom("", "/library", "/prometheus", "/org", "/Upper"),
                  priority: prio,
                  discardAlternative: fc.constantFrom(false, false, false, true),
                  imageFilter,
                  credentialSecret: secret,
                }),
                { minLength: 1, maxLength: 3 },
              ),
            }),
      }),
    );

/** Random CR sets, an image, a pull policy and a pod. */
export const scenario = fc.record({
  resources: fc
    .integer({ min: 0, max: 6 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => resource(i)))),
  image: fc.constantFrom(...images),
  always: fc.boolean(),
  pod: fc.record({
    namespace: fc.constantFrom("apps", "default"),
    labels: fc.constantFrom<Record<string, string>>({}, { app: "web" }, { app: "api", tier: "x" }),
    annotations: fc.constant<Record<string, string>>({}),
  }),
});

/** Runs one scenario both ways; returns what each gave. */
export function compareScenario(value: typeof scenario extends fc.Arbitrary<infer T> ? T : never): {
  want: string[] | string;
  got: (string[] | string)[];
} {
  const { resources: raw, image, always, pod } = value;
  const resources = (raw as unknown[]).map((r) =>
    parseRoutingResource(r, { validation: "lenient" }),
  );
  const routing = compileRouting(resources, { invalidResources: "skip" });
  const input = {
    pod,
    container: { name: "app", image, imagePullPolicy: always ? "Always" : "IfNotPresent" },
  };
  const want = naiveOrder(resources, pod, image, always);
  const got: (string[] | string)[] = [];
  for (let round = 0; round < 2; round++) {
    // The second round is served from the memo.
    let route: ReturnType<typeof routeContainer>;
    try {
      route = routeContainer(routing, input);
    } catch (error) {
      if (!(error instanceof RoutingError)) throw error;
      got.push(error.code);
      continue;
    }
    got.push(
      route.status === "skipped"
        ? "skipped"
        : route.alternatives.map(
            (a) =>
              `${a.image} ${a.credentialSecret ? `${a.credentialSecret.namespace}/${a.credentialSecret.name}` : null}`,
          ),
    );
  }
  return { want, got };
}
