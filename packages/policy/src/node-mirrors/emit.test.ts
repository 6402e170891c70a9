import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRouting, routeContainer } from "../routing/index.js";
import { loadRoutingResources } from "../routing/yaml/index.js";
import { resolveContainerdHosts } from "./containerd-hosts.js";
import { emitNodeMirrors } from "./emit.js";
import { loadRegistriesConf, pullSources } from "./registries-conf.js";

const HOSTS = ["docker.io", "quay.io", "registry.example.com", "reg.example.com:5000"];
const MIRRORS = ["harbor.example.com", "mirror.example.com:5000", "cache.internal"];
const PATHS = ["", "/team", "/a/b"];
const REPOS = ["library/nginx", "team/app"];

const escapeDots = (s: string) => s.replace(/[.]/g, "\\.");

const mirrorCr = fc.record({
  priority: fc.integer({ min: -3, max: 3 }),
  filter: fc.constantFrom(".*", ...HOSTS.map((h) => `${escapeDots(h)}/.+`)),
  mirrors: fc.array(
    fc.record({
      registry: fc.constantFrom(...MIRRORS),
      path: fc.constantFrom(...PATHS),
      priority: fc.integer({ min: 0, max: 3 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

function yamlOf(
  crs: readonly { priority: number; filter: string; mirrors: readonly object[] }[],
): string {
  return crs
    .map((cr, i) =>
      JSON.stringify({
        apiVersion: "kuik.enix.io/v1alpha1",
        kind: "ClusterImageSetMirror",
        metadata: { name: `m${i}` },
        spec: {
          priority: cr.priority,
          filter: { include: [{ image: cr.filter }] },
          mirrors: cr.mirrors,
        },
      }),
    )
    .join("\n---\n");
}

describe("emitNodeMirrors", () => {
  it("round-trips: emit then read gives kuik's order of the original and its direct mirrors", () => {
    let containerdChecked = 0;
    let registriesChecked = 0;
    fc.assert(
      fc.property(
        fc.array(mirrorCr, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...HOSTS),
        fc.constantFrom(...REPOS),
        (crs, host, repo) => {
          const resources = loadRoutingResources(yamlOf(crs), { validation: "crd" });
          const image = `${host}/${repo}:1`;
          const route = routeContainer(compileRouting(resources), {
            pod: { namespace: "default", labels: {}, annotations: {} },
            container: { name: "app", image, imagePullPolicy: "IfNotPresent" },
          });
          if (route.status !== "routed") return;
          const kuik = route.alternatives
            .filter(
              (a) =>
                a.reason.source === "original" ||
                (a.reason.source === "mirror" && a.reason.mirrorOf === route.normalized),
            )
            .map((a) => a.image);
          // kuik also mirrors mirrors (a .* CR mirrors every entry so far); when such an
          // entry equals a direct mirror, kuik keeps it at the other's place. Node
          // config mirrors the original only, so those cases are out of scope.
          const repoPath = route.normalized.slice(host.length + 1, -":1".length);
          const direct = new Set([route.normalized]);
          for (const cr of crs) {
            if (cr.filter !== ".*" && cr.filter !== `${escapeDots(host)}/.+`) continue;
            for (const m of cr.mirrors) direct.add(`${m.registry}${m.path}/${repoPath}:1`);
          }
          if (new Set(kuik).size !== direct.size) return;
          const out = emitNodeMirrors(resources);
          const specific = crs.some((cr) => cr.filter === `${escapeDots(host)}/.+`);
          const originalLast = kuik[kuik.length - 1] === route.normalized;

          if (specific || originalLast) {
            const files = Object.fromEntries(
              Object.entries(out.containerd).map(([k, v]) => [`/etc/containerd/certs.d/${k}`, v]),
            );
            const hosts = resolveContainerdHosts(host, files).hosts;
            const fromRuntime = hosts.map(
              (h) =>
                `${h.host === "registry-1.docker.io" ? "docker.io" : h.host}${h.path.replace(/^\/v2/, "")}/${repoPath}:1`,
            );
            expect(fromRuntime).toEqual(kuik);
            containerdChecked++;
          }
          if (specific) {
            const conf = loadRegistriesConf({
              conf: "",
              dropIns: { "50-kuik.conf": out.registriesConf },
            });
            expect(pullSources(conf, image).sources.map((s) => s.reference)).toEqual(kuik);
            registriesChecked++;
          }
        },
      ),
      { numRuns: 1000 },
    );
    // Most runs must reach the comparisons, or the property proves nothing.
    expect(containerdChecked).toBeGreaterThan(300);
    expect(registriesChecked).toBeGreaterThan(150);
  });

  it("names what the runtimes cannot express", () => {
    const out = emitNodeMirrors(
      loadRoutingResources(
        `apiVersion: kuik.enix.io/v1alpha1
kind: ImageSetMirror
metadata: { name: team, namespace: my-app }
spec:
  filter: { include: [{ image: "registry\\\\.example\\\\.com/my-app/.+" }, { image: "ghcr\\\\.io/(a|b)/.+" }], exclude: [{ image: ".*:latest" }] }
  mirrors:
    - { registry: harbor.example.com, path: /team, credentialSecret: { name: harbor } }
`,
        { validation: "crd" },
      ),
    );
    expect(out.limitations.map((l) => l.field)).toEqual([
      "metadata.namespace",
      "spec.filter.exclude",
      "spec.mirrors[0].credentialSecret",
      "spec.filter.include[1]",
      "spec.filter.include",
    ]);
    expect(out.containerd["registry.example.com/hosts.toml"]).toContain(
      'server = "https://harbor.example.com/v2/team"',
    );
    expect(out.registriesConf).toContain('prefix = "registry.example.com/my-app"');
  });
});
