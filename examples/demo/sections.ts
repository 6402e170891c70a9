/**
 * The worked examples the demo reproduces, one section each.
 */
import type { DemoSection } from "./demo.js";

/** Image references: what Kubernetes and Docker make of what people write. */
const references: DemoSection = {
  title: "Image references (distribution/reference, Kubernetes defaults)",
  steps: [
    {
      say: "Docker Hub short names, a private registry with a port, a digest-pinned image",
      args: [
        "parse",
        "nginx",
        "bitnami/redis:7.2",
        "localhost:5000/team/app:v1",
        "registry.k8s.io/pause@sha256:7031c1b283388d2c2e09b57badb803c05ebed362dc88d84b480cc47f72a21097",
      ],
      exit: 0,
    },
    {
      say: "an upper-case repository is refused with Docker's own message and a stable code",
      args: ["parse", "Docker.io/Library/NGINX"],
      exit: 2,
    },
  ],
};

/** Every section, in the order the demo prints them. */
export const SECTIONS: readonly DemoSection[] = [references];
