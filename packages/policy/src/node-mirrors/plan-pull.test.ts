import { readFileSync } from "node:fs";
import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
import { describe, expect, it } from "vitest";
import { compileRouting } from "../routing/index.js";
import { loadRoutingResources } from "../routing/yaml/index.js";
import { planPull } from "./plan-pull.js";
import { loadRegistriesConf } from "./registries-conf.js";

const teamMirror = readFileSync(
  new URL("../../../../examples/demo/fixtures/routing/team-mirror.yaml", import.meta.url),
  "utf8",
);
const routing = compileRouting(loadRoutingResources(teamMirror, { validation: "crd" }));
const pod = { namespace: "my-app", labels: {}, annotations: {} };
const container = {
  name: "api",
  image: "docker-registry.example.com/my-app/api:v2",
  imagePullPolicy: "IfNotPresent",
};

describe("planPull", () => {
  it("joins the webhook's alternatives with containerd's endpoints and the keyring's credential", () => {
    const plan = planPull({
      routing,
      pod,
      container,
      node: {
        runtime: "containerd",
        files: {
          "/etc/containerd/certs.d/harbor.example.com/hosts.toml":
            '[host."https://harbor-cache.internal"]\ncapabilities = ["pull"]\n',
          "/etc/containerd/certs.d/fast-registry.internal/hosts.toml":
            'server = "http://fast-registry.internal:5000"\nskip_verify = true\n',
        },
      },
      keyring: createDockerKeyring([
        {
          config: parseDockerConfigJson(
            JSON.stringify({
              auths: { "harbor.example.com": { username: "robot", password: "x" } },
            }),
          ),
        },
      ]),
    });
    expect(plan.alternatives.map((a) => a.image)).toEqual([
      "fast-registry.internal/my-app-cache/my-app/api:v2",
      "harbor.example.com/my-app-mirror/my-app/api:v2",
      "harbor.example.com/global-mirror/my-app/api:v2",
      "docker-registry.example.com/my-app/api:v2",
    ]);
    const [fast, harbor] = plan.alternatives;
    expect(fast?.endpoints.map((e) => [e.endpoint, e.httpFallback, e.skipVerify])).toEqual([
      ["https://fast-registry.internal:5000/v2", true, true],
    ]);
    // The pull-only cache fetches content but cannot resolve the tag; the upstream does both.
    expect(harbor?.endpoints.map((e) => [e.endpoint, e.explain[0]])).toEqual([
      [
        "https://harbor-cache.internal/v2",
        "fetches content by digest only (no resolve capability, so the tag is resolved elsewhere)",
      ],
      ["https://harbor.example.com/v2", "resolves the tag and fetches content"],
    ]);
    expect(harbor?.endpoints[1]?.credentials).toMatchObject({
      source: "kubelet-keyring",
      matchedKey: "harbor.example.com",
    });
    expect(fast?.endpoints[0]?.credentials).toEqual({ source: "none" });
  });

  it("follows CRI-O through registries.conf", () => {
    const conf = loadRegistriesConf({
      conf: 'unqualified-search-registries = ["quay.io"]\n[[registry]]\nlocation = "harbor.example.com"\n[[registry.mirror]]\nlocation = "harbor-cache.internal"\n',
    });
    const plan = planPull({
      routing,
      pod: { namespace: "other", labels: {}, annotations: {} },
      container: { name: "app", image: "nginx:1.27", imagePullPolicy: "IfNotPresent" },
      node: { runtime: "containers-image", conf },
    });
    expect(plan.alternatives.map((a) => [a.image, a.endpoints.map((e) => e.reference)])).toEqual([
      [
        "harbor.example.com/global-mirror/library/nginx:1.27",
        [
          "harbor-cache.internal/global-mirror/library/nginx:1.27",
          "harbor.example.com/global-mirror/library/nginx:1.27",
        ],
      ],
      ["docker.io/library/nginx:1.27", ["docker.io/library/nginx:1.27"]],
    ]);
  });
});
