/** The examples the page opens on and offers in its seed menus: the demo's fixtures. */
import nginxRouting from "../../demo/fixtures/routing/nginx-unprivileged.yaml";
import teamRouting from "../../demo/fixtures/routing/team-mirror.yaml";
import rcTags from "../../demo/fixtures/tags/app.tags";
import rcPolicy from "../../demo/fixtures/tags/app-release-candidates.yaml";
import dialectTags from "../../demo/fixtures/tags/dialects/app.tags";
import argoUpdater from "../../demo/fixtures/tags/dialects/argocd-image-updater.yaml";
import dialectPolicy from "../../demo/fixtures/tags/dialects/flux-policy.yaml";
import kargoWarehouse from "../../demo/fixtures/tags/dialects/kargo-warehouse.yaml";
import minioTags from "../../demo/fixtures/tags/minio.tags";
import minioPolicy from "../../demo/fixtures/tags/minio-release.yaml";
import podinfoTags from "../../demo/fixtures/tags/podinfo.tags";
import podinfoPolicy from "../../demo/fixtures/tags/podinfo-semver.yaml";
import type { RoutingInput } from "./compute.js";
import argoApplication from "./seeds/argocd-application.yaml";

export const routingSeeds: Record<string, RoutingInput> = {
  nginx: {
    crs: nginxRouting,
    mode: "image",
    image: "nginxinc/nginx-unprivileged:1.25",
    namespace: "default",
    pullPolicy: "",
    pod: "",
  },
  team: {
    crs: teamRouting,
    mode: "image",
    image: "docker-registry.example.com/my-app/api:1.4",
    namespace: "my-app",
    pullPolicy: "",
    pod: [
      "apiVersion: v1",
      "kind: Pod",
      "metadata:",
      "  name: api",
      "  namespace: my-app",
      "spec:",
      "  containers:",
      "    - name: api",
      "      image: docker-registry.example.com/my-app/api:1.4",
      "    - name: sidecar",
      "      image: busybox:latest",
      "",
    ].join("\n"),
  },
};

export interface TagsSeed {
  readonly policy: string;
  readonly tags: string;
  /** Set for the compare examples: the native Argo CD / Kargo objects. */
  readonly objects?: string;
}

export const seeds: Record<string, TagsSeed> = {
  podinfo: { policy: podinfoPolicy, tags: podinfoTags },
  rc: { policy: rcPolicy, tags: rcTags },
  minio: { policy: minioPolicy, tags: minioTags },
  "argocd-updater": { policy: dialectPolicy, tags: dialectTags, objects: argoUpdater },
  "argocd-application": { policy: dialectPolicy, tags: dialectTags, objects: argoApplication },
  "kargo-warehouse": { policy: dialectPolicy, tags: dialectTags, objects: kargoWarehouse },
};

export const seedRefs = [
  "nginx",
  "nginx:1.25",
  "library/nginx:latest",
  "ghcr.io/stefanprodan/podinfo:6.5.0",
  `quay.io/minio/minio@sha256:${"0123456789abcdef".repeat(4)}`,
  "localhost:5000/team/app:v1",
  "Ubuntu",
  "nginx:",
  "",
].join("\n");
