/**
 * Two tenants on one node, as KEP-2535 tells it: team A pulls its private
 * image; team B, without access, tries to start a pod with the same image.
 */
import type { NodeEvent, PodSecret, RegistryAccess } from "./node.js";

const teamA: PodSecret = {
  namespace: "team-a",
  name: "regcred",
  uid: "6b1f0c2e-2d4a-4c59-9a53-3b0d0f1c8a11",
  username: "team-a",
  password: "team-a-token",
};
const teamACopy: PodSecret = {
  ...teamA,
  name: "regcred-copy",
  uid: "2c7d9e40-1b3a-4f5e-9d8c-7a6b5c4d3e2f",
};
const teamB: PodSecret = {
  namespace: "team-b",
  name: "regcred",
  uid: "0e8d7c1f-5a2b-4f7e-8c90-1d2e3f4a5b6c",
  username: "team-b",
  password: "team-b-token",
};

/** Who may pull what: team A's private repository; everything else is public. */
export const REGISTRY: RegistryAccess = {
  "registry.example.com/team-a/app": ["team-a"],
};

/** Preloaded on the node image. */
export const PRELOADED = ["registry.k8s.io/pause:3.10"];

/** The pod events, in order. */
export const EVENTS: readonly NodeEvent[] = [
  {
    kind: "pod",
    pod: "team-a/api-1",
    image: "registry.example.com/team-a/app:1.0",
    secrets: [teamA],
  },
  {
    kind: "pod",
    pod: "team-a/api-2",
    image: "registry.example.com/team-a/app:1.0",
    secrets: [teamA],
  },
  {
    kind: "pod",
    pod: "team-b/web-1",
    image: "registry.example.com/team-a/app:1.0",
    secrets: [teamB],
  },
  { kind: "pod", pod: "team-b/web-2", image: "registry.example.com/team-a/app:1.0", secrets: [] },
  {
    kind: "pod",
    pod: "team-a/api-3",
    image: "registry.example.com/team-a/app:1.0",
    secrets: [teamACopy],
  },
  { kind: "pod", pod: "team-b/nginx", image: "docker.io/library/nginx:1.27", secrets: [] },
  { kind: "restart" },
  { kind: "pod", pod: "team-a/nginx", image: "docker.io/library/nginx:1.27", secrets: [teamA] },
  {
    kind: "pod",
    pod: "team-b/web-3",
    image: "registry.example.com/team-a/app:1.0",
    secrets: [teamB],
  },
  { kind: "pod", pod: "kube-system/sandbox", image: "registry.k8s.io/pause:3.10", secrets: [] },
];
