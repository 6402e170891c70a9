/**
 * Parses a few image references the way containerd, the kubelet and docker
 * do (distribution/reference), and prints what kubeimg makes of them.
 *
 * Run it with `pnpm demo` from the repository root.
 */
import {
  defaultPullPolicy,
  familiarString,
  parseDockerRef,
  parseNormalizedNamed,
  repositoryName,
  safeParseNormalizedNamed,
} from "@kubeimg/core/reference";

const images = [
  "nginx",
  "nginx:1.25-alpine",
  "bitnami/redis:7.2",
  "registry.k8s.io/pause:3.9",
  "localhost:5000/team/app@sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
  "[::1]:5000/mirror/busybox:latest",
];

for (const image of images) {
  const ref = parseNormalizedNamed(image);
  console.log(image);
  console.log(`  normalized:          ${ref.string}`);
  console.log(`  familiar:            ${familiarString(ref)}`);
  console.log(`  domain / path:       ${ref.domain} / ${ref.path}`);
  console.log(`  tag:                 ${ref.tag ?? "(none)"}`);
  console.log(`  digest:              ${ref.digest ?? "(none)"}`);
  console.log(`  as docker pulls it:  ${parseDockerRef(image).string}`);
  console.log(`  default pull policy: ${defaultPullPolicy(image)}`);
  console.log(`  credential key:      ${repositoryName(image)}`);
}

// Bad input gets a typed error with a stable code and the upstream message.
for (const image of ["ghcr.io/Owner/app:v1", "nginx:-latest"]) {
  const result = safeParseNormalizedNamed(image);
  if (!result.success) {
    console.log(`${image}\n  refused: ${result.error.code}: ${result.error.message}`);
  }
}
