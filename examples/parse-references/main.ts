/**
 * Parses a few image references the way containerd, the kubelet and docker
 * do (distribution/reference), and prints what kubeimg makes of them.
 *
 * Run it from the repository root with
 * `pnpm --filter @kubeimg/example-parse-references start [-- REF...]`;
 * without arguments it parses a few typical references.
 */
import {
  defaultPullPolicy,
  familiarString,
  parseDockerRef,
  parseNormalizedNamed,
  repositoryName,
  safeParseNormalizedNamed,
} from "@kubeimg/core/reference";
import { exampleArgs } from "@kubeimg/example-kit";

const { positionals } = exampleArgs(
  { options: {}, allowPositionals: true },
  `usage: main.ts [REF...]
Parses each image reference as containerd, the kubelet and docker do, and prints
its normalized and familiar forms, tag, digest and default pull policy.`,
);

const examples = [
  "nginx",
  "nginx:1.25-alpine",
  "bitnami/redis:7.2",
  "registry.k8s.io/pause:3.9",
  "localhost:5000/team/app@sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
  "[::1]:5000/mirror/busybox:latest",
];
const images = positionals.length > 0 ? positionals : examples;

for (const image of images) {
  const parsed = safeParseNormalizedNamed(image);
  if (!parsed.success) {
    console.log(`${image}\n  refused: ${parsed.error.code}: ${parsed.error.message}`);
    process.exitCode = 2;
    continue;
  }
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
for (const image of positionals.length > 0 ? [] : ["ghcr.io/Owner/app:v1", "nginx:-latest"]) {
  const result = safeParseNormalizedNamed(image);
  if (!result.success) {
    console.log(`${image}\n  refused: ${result.error.code}: ${result.error.message}`);
  }
}
