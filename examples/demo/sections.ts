/**
 * The worked examples the demo reproduces, one section each.
 */
import type { DemoSection } from "./demo.js";
import { IMAGES } from "./kubelet-scenario.js";

/** A fixture's path from the repository root, where the printed commands run. */
function fixture(path: string): string {
  return `examples/demo/fixtures/${path}`;
}

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

/** Flux ImagePolicy: the worked examples of the tag-policy spec. */
const tagPolicies: DemoSection = {
  title: 'Tag policies (Flux ImagePolicy: which tag is "latest", and why not the others)',
  steps: [
    {
      say: "semver range 5.1.x: the greatest 5.1 patch; pre-releases and other minors are out of range",
      args: [
        "tags",
        "-f",
        fixture("tags/podinfo-semver.yaml"),
        "--tags-file",
        fixture("tags/podinfo.tags"),
        "--explain",
      ],
      exit: 0,
    },
    {
      say: "^1.x-0 admits 1.x pre-releases; the filter keeps only the -rc tags",
      args: [
        "tags",
        "-f",
        fixture("tags/app-release-candidates.yaml"),
        "--tags-file",
        fixture("tags/app.tags"),
        "--explain",
      ],
      exit: 0,
    },
    {
      say: "RELEASE.<timestamp>Z: the extracted timestamp is ordered alphabetically",
      args: [
        "tags",
        "-f",
        fixture("tags/minio-release.yaml"),
        "--tags-file",
        fixture("tags/minio.tags"),
        "--explain",
      ],
      exit: 0,
    },
    {
      say: "one repository, three updaters, three picks: Flux 1.1.0 (1.2 is no MAJOR.MINOR.PATCH version to it, 1.3.0-rc.1 out of range), Argo CD 1.2 (any Masterminds version; no constraint is *, no pre-releases), Kargo 1.3.0-rc.1 (no constraint checks nothing)",
      args: [
        "tags",
        "compare",
        "-f",
        fixture("tags/dialects/flux-policy.yaml"),
        "-f",
        fixture("tags/dialects/argocd-image-updater.yaml"),
        "-f",
        fixture("tags/dialects/kargo-warehouse.yaml"),
        "--tags-file",
        fixture("tags/dialects/app.tags"),
      ],
      exit: 0,
    },
  ],
};

/** kube-image-keeper routing: the two seed examples of its "Image routing" page. */
const routing: DemoSection = {
  title: "Image routing (kube-image-keeper: which alternative is tried first, and why)",
  steps: [
    {
      say: "Level 2: nginx-unprivileged is replicated on Docker Hub, Quay and ECR Public; upstream priorities order them after the original",
      args: [
        "route",
        "-f",
        fixture("routing/nginx-unprivileged.yaml"),
        "--namespace",
        "default",
        "--image",
        "docker.io/nginxinc/nginx-unprivileged:1.29",
      ],
      exit: 0,
    },
    {
      say: "Both levels: the team mirror (priority -10) comes before the global mirror (-1), which comes before the original (0)",
      args: [
        "route",
        "-f",
        fixture("routing/team-mirror.yaml"),
        "--namespace",
        "my-app",
        "--image",
        "docker-registry.example.com/my-app/api:v2",
      ],
      exit: 0,
    },
    {
      say: "imagePullPolicy Always: kuik tries the original first unless honorPrioritiesOnAlwaysImagePullPolicy is set",
      args: [
        "route",
        "-f",
        fixture("routing/team-mirror.yaml"),
        "--namespace",
        "my-app",
        "--image",
        "docker-registry.example.com/my-app/api:v2",
        "--pull-policy",
        "Always",
      ],
      exit: 0,
    },
    {
      say: "The whole path: on a containerd node, which endpoints each alternative reaches (hosts.toml per registry, a _default mirror for the rest)",
      args: [
        "route",
        "-f",
        fixture("routing/team-mirror.yaml"),
        "--namespace",
        "my-app",
        "--image",
        "docker-registry.example.com/my-app/api:v2",
        "--node-config",
        fixture("node/containerd/certs.d"),
      ],
      exit: 0,
    },
  ],
};

function pullCheck(
  image: { image: string; ref: string },
  policy: string,
  extra: readonly string[] = [],
): string[] {
  return [
    "pull-check",
    "--kubelet-dir",
    fixture("kubelet"),
    "--image",
    image.image,
    "--image-ref",
    image.ref,
    "--policy",
    policy,
    ...extra,
  ];
}

/** KEP-2535: one pull decision per verification policy, on the node of `kubelet-scenario.ts`. */
const pullDecisions: DemoSection = {
  title:
    "Pull-credential verification (the kubelet's KEP-2535 decision, read-only over its records)",
  steps: [
    {
      say: "NeverVerify: any pod may use any image on the node, even team A's private one",
      args: pullCheck(IMAGES.privateApp, "NeverVerify", [
        "--secret-file",
        fixture("secrets/team-b-regcred.yaml"),
      ]),
      exit: 0,
    },
    {
      say: "NeverVerifyPreloadedImages (default): the preloaded pause image needs no check…",
      args: pullCheck(IMAGES.preloadedPause, "NeverVerifyPreloadedImages"),
      exit: 0,
    },
    {
      say: "…but team B cannot use the image team A pulled with its own secret",
      args: pullCheck(IMAGES.privateApp, "NeverVerifyPreloadedImages", [
        "--secret-file",
        fixture("secrets/team-b-regcred.yaml"),
      ]),
      exit: 0,
    },
    {
      say: "NeverVerifyAllowlistedImages: preloaded images need a check unless allowlisted",
      args: pullCheck(IMAGES.preloadedPause, "NeverVerifyAllowlistedImages", [
        "--allowlist",
        "registry.k8s.io/*",
      ]),
      exit: 0,
    },
    {
      say: "AlwaysVerify: team A's pod has the credentials on record",
      args: pullCheck(IMAGES.privateApp, "AlwaysVerify", [
        "--secret-file",
        fixture("secrets/team-a-regcred.yaml"),
      ]),
      exit: 0,
    },
    {
      say: "AlwaysVerify: an image pulled without credentials is open to every pod",
      args: pullCheck(IMAGES.publicNginx, "AlwaysVerify"),
      exit: 0,
    },
    {
      say: "AlwaysVerify: even the preloaded image must be pulled to prove access",
      args: pullCheck(IMAGES.preloadedPause, "AlwaysVerify"),
      exit: 0,
    },
  ],
};

/** Every section, in the order the demo prints them. */
/** `kubeimg test`: examples/policy-tests, a GitOps repository with its test files. */
const policyTests: DemoSection = {
  title: "Policy tests (kubeimg test: what a pull request's policies will decide, checked offline)",
  steps: [
    {
      say: "Flux, Argo CD and Kargo picks, kuik routes, node endpoints and kubelet decisions, each case against its expect",
      args: ["test", "examples/policy-tests"],
      exit: 0,
    },
    {
      say: "a failing case: the expected and actual tag side by side, and why the policy picked what it did",
      args: ["test", "examples/policy-tests-failing"],
      exit: 1,
    },
  ],
};

export const SECTIONS: readonly DemoSection[] = [
  references,
  tagPolicies,
  routing,
  pullDecisions,
  policyTests,
];
