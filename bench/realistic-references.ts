/**
 * A deterministic list of image references shaped like the `image:` fields
 * of real Pod specs: 25% bare Docker Hub names, 20% `org/name`, 55% with a
 * registry (registry.k8s.io, ECR, ACR, GHCR, `localhost:5000`, `host:8443`,
 * …); 70% tagged, 8% digested, 7% both, 15% neither. The same seed always
 * gives the same list, so benchmark runs compare like with like.
 */
import { seededRandom as prng } from "./lib.js";

const hubNames = [
  "nginx",
  "redis",
  "postgres",
  "busybox",
  "alpine",
  "ubuntu",
  "debian",
  "node",
  "python",
  "golang",
  "mysql",
  "mongo",
  "rabbitmq",
  "traefik",
  "httpd",
  "memcached",
  "consul",
  "vault",
  "elasticsearch",
  "grafana",
  "haproxy",
  "registry",
  "caddy",
  "eclipse-temurin",
  "mariadb",
];
const orgs = [
  "bitnami",
  "grafana",
  "prom",
  "library",
  "hashicorp",
  "jaegertracing",
  "fluent",
  "minio",
  "confluentinc",
  "rancher",
  "calico",
  "envoyproxy",
  "istio",
  "otel",
  "kindest",
];
const repos = [
  "redis",
  "postgresql",
  "loki",
  "prometheus",
  "node-exporter",
  "vault",
  "all-in-one",
  "fluent-bit",
  "minio",
  "cp-kafka",
  "rancher-agent",
  "node",
  "envoy",
  "pilot",
  "opentelemetry-collector",
  "kube-state-metrics",
  "pause",
  "coredns",
  "etcd",
  "app",
];
const registries = [
  "registry.k8s.io",
  "gcr.io",
  "quay.io",
  "ghcr.io",
  "docker.io",
  "index.docker.io",
  "123456789012.dkr.ecr.us-east-1.amazonaws.com",
  "public.ecr.aws",
  "myregistry.azurecr.io",
  "localhost:5000",
  "registry.example.com:8443",
  "harbor.internal:8443",
  "10.0.0.12:30500",
  "us-docker.pkg.dev",
  "mcr.microsoft.com",
  "nvcr.io",
];
const tags = [
  "latest",
  "1.25.3",
  "1.25.3-alpine",
  "v1.7.0",
  "3.9",
  "22.04",
  "stable",
  "16-bullseye",
  "v2.48.1",
  "sha-4f2c1a9",
  "7.2.4-debian-12-r0",
  "1.29.0",
  "main",
  "v0.1.0-rc.1",
  "8.0",
];

/** Builds `count` references from `seed`. */
export function realisticReferences(count = 1000, seed = 20260418): string[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const hex = (n: number) => {
    let out = "";
    for (let i = 0; i < n; i++) out += "0123456789abcdef"[Math.floor(random() * 16)];
    return out;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const shape = random();
    let name: string;
    if (shape < 0.25) name = pick(hubNames);
    else if (shape < 0.45) name = `${pick(orgs)}/${pick(repos)}`;
    else {
      const depth = random();
      const path =
        depth < 0.45
          ? pick(repos)
          : depth < 0.95
            ? `${pick(orgs)}/${pick(repos)}`
            : `${pick(orgs)}/${pick(orgs)}/${pick(repos)}`;
      name = `${pick(registries)}/${path}`;
    }
    const suffix = random();
    if (suffix < 0.7) name += `:${pick(tags)}`;
    else if (suffix < 0.78) name += `@sha256:${hex(64)}`;
    else if (suffix < 0.85) name += `:${pick(tags)}@sha256:${hex(64)}`;
    out.push(name);
  }
  return out;
}
