/**
 * The webhook over real HTTPS (a self-signed certificate made with openssl)
 * against a real registry (CNCF distribution, started by the registry
 * package's harness): AdmissionReview v1 in, JSON Patch out.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAvailabilityGate } from "@kubeimg/policy/availability";
import { compileRouting } from "@kubeimg/policy/routing";
import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
import { createRegistryClient } from "@kubeimg/registry/client";
import {
  buildImage,
  podAdmissionReview,
  pushImage,
  type RunningRegistry,
  selfSignedCertificate,
  settlesBefore,
  startBlackHole,
  startRegistry,
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPodMutator, type PodMutatorOptions } from "./mutator.js";
import { startWebhookServer, type WebhookServer } from "./server.js";
import { postJson } from "./test-support.js";
import { nodeTimers } from "./timers.js";

let dir: string;
let registry: RunningRegistry;
let blackHole: Awaited<ReturnType<typeof startBlackHole>>;
let tls: { key: string; cert: string };
const servers: WebhookServer[] = [];

function routingYaml(mirrorHost: string, hungHost: string): string {
  return `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: local-mirror }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${mirrorHost}
      path: /mirror
---
apiVersion: kuik.enix.io/v1alpha1
kind: ImageSetMirror
metadata: { name: hung, namespace: slow }
spec:
  priority: -5
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${hungHost}
      path: /hung
`;
}

function securedMirrorYaml(mirrorHost: string): string {
  return `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: secured-mirror, uid: 5f0c2a8e-cism }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${mirrorHost}
      path: /mirror
      credentialSecret: { name: harbor, namespace: kuik-system }
`;
}

async function startWebhook(
  deadlineMs: number,
  extra: { yaml?: string; ensurePullSecret?: PodMutatorOptions["ensurePullSecret"] } = {},
): Promise<WebhookServer> {
  const routing = compileRouting(
    loadRoutingResources(extra.yaml ?? routingYaml(registry.host, blackHole.host)),
  );
  const client = createRegistryClient({
    registries: {
      [registry.host]: { insecure: true, allowPrivateAddress: true },
      [blackHole.host]: { insecure: true, allowPrivateAddress: true },
    },
    // No network in the tests: Docker Hub must fail fast, not wait on DNS.
    fetch: (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.includes("docker.io"))
        return Promise.reject(new TypeError("fetch failed (offline test)"));
      return fetch(input, init);
    },
  });
  // The mirror's credential Secret, as the webhook would read it from the API.
  const harbor = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "harbor", namespace: "kuik-system" },
    type: "kubernetes.io/dockerconfigjson",
    data: {
      ".dockerconfigjson": Buffer.from(
        JSON.stringify({ auths: { [registry.host]: { username: "robot", password: "s3cret" } } }),
      ).toString("base64"),
    },
  };
  const getSecret = async (ref: { namespace: string; name: string }) =>
    ref.namespace === "kuik-system" && ref.name === "harbor" ? harbor : undefined;
  const checker = createAvailabilityGate(
    createAvailabilityChecker({ client, timeoutMs: 5000, getSecret }),
    {
      timers: nodeTimers,
      probeTimeoutMs: 5000,
      circuitBreaker: false,
    },
  );
  const server = await startWebhookServer({
    cert: tls.cert,
    key: tls.key,
    host: "127.0.0.1",
    mutator: createPodMutator({
      routing,
      checker,
      timers: nodeTimers,
      deadlineMs,
      ...(extra.ensurePullSecret ? { ensurePullSecret: extra.ensurePullSecret } : {}),
    }),
  });
  servers.push(server);
  return server;
}

function review(
  uid: string,
  namespace: string,
  containers: { name: string; image: string }[],
  extra: Record<string, unknown> = {},
) {
  const metadata = { generateName: "web-", namespace };
  return podAdmissionReview(uid, { namespace, containers, metadata, request: extra });
}

interface Reply {
  apiVersion: string;
  kind: string;
  response: {
    uid: string;
    allowed: boolean;
    patchType?: string;
    patch?: string;
    warnings?: string[];
  };
}

const decodePatch = (reply: Reply) =>
  reply.response.patch === undefined
    ? undefined
    : (JSON.parse(Buffer.from(reply.response.patch, "base64").toString("utf8")) as unknown[]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-webhook-"));
  tls = selfSignedCertificate(dir);
  registry = await startRegistry({ dir, storageRoot: join(dir, "data"), name: "webhook" });
  const image = buildImage({ os: "linux", architecture: "amd64" }, "oci");
  await pushImage(registry.url, "mirror/library/nginx", image, ["1.27"]);
  blackHole = await startBlackHole();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await blackHole?.close();
  await registry?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("admission webhook over HTTPS against a real registry", () => {
  it("rewrites a container to the first available alternative and records the originals", async () => {
    const server = await startWebhook(8000);
    const { status, body } = await postJson(
      server.port,
      "/mutate-pods",
      review("uid-1", "default", [
        { name: "web", image: "nginx:1.27" },
        { name: "cache", image: "redis:7.2" },
      ]),
      tls.cert,
    );
    expect(status).toBe(200);
    const reply = body as Reply;
    expect(reply).toMatchObject({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid: "uid-1", allowed: true, patchType: "JSONPatch" },
    });
    expect(decodePatch(reply)).toEqual([
      {
        op: "add",
        path: "/metadata/annotations",
        value: { "kuik.enix.io/original-images": '{"cache":"redis:7.2","web":"nginx:1.27"}' },
      },
      // nginx is on the mirror; redis is on no reachable registry and stays as written.
      {
        op: "replace",
        path: "/spec/containers/0/image",
        value: `${registry.host}/mirror/library/nginx:1.27`,
      },
    ]);
  });

  it("decides within its deadline when a preferred mirror hangs", async () => {
    const server = await startWebhook(1500);
    const post = postJson(
      server.port,
      "/mutate-pods",
      review("uid-2", "slow", [{ name: "web", image: "nginx:1.27" }]),
      tls.cert,
    );
    // Answered before a 4 s timer armed with the request has fired (timer
    // order, which a paused test process keeps; see settlesBefore).
    expect(await settlesBefore(post, 4000)).toBe(true);
    const { body } = await post;
    const reply = body as Reply;
    expect(reply.response).toMatchObject({ uid: "uid-2", allowed: true });
    // The hung mirror counts as unavailable at the deadline; the next one wins.
    expect(decodePatch(reply)).toContainEqual({
      op: "replace",
      path: "/spec/containers/0/image",
      value: `${registry.host}/mirror/library/nginx:1.27`,
    });
  });

  it.each([
    {
      name: "a malformed Pod",
      body: () => ({
        ...review("uid-3", "default", []),
        request: {
          ...review("uid-3", "default", []).request,
          object: { spec: { containers: "nginx" } },
        },
      }),
      warning: /INVALID_POD|containers/,
    },
    {
      name: "an unparsable image (kuik skips it)",
      body: () => review("uid-3", "default", [{ name: "web", image: "Not A Reference" }]),
      warning: undefined,
    },
  ])("fails open on $name", async ({ body, warning }) => {
    const server = await startWebhook(8000);
    const { status, body: reply } = await postJson(server.port, "/mutate-pods", body(), tls.cert);
    expect(status).toBe(200);
    const response = (reply as Reply).response;
    expect(response.uid).toBe("uid-3");
    expect(response.allowed).toBe(true);
    expect(decodePatch(reply as Reply) ?? []).not.toContainEqual(
      expect.objectContaining({ path: "/spec/containers/0/image" }),
    );
    if (warning) expect(response.warnings?.join(" ")).toMatch(warning);
  });

  it("references the copy kuik makes of a mirror's pull secret in the Pod's namespace", async () => {
    const copies: { source: unknown; name: string; namespace: string }[] = [];
    const server = await startWebhook(8000, {
      yaml: securedMirrorYaml(registry.host),
      ensurePullSecret: async (secret, namespace) => {
        copies.push({ source: secret.source, name: secret.name, namespace });
      },
    });
    const { body } = await postJson(
      server.port,
      "/mutate-pods",
      review("uid-5", "default", [{ name: "web", image: "nginx:1.27" }]),
      tls.cert,
    );
    const patch = decodePatch(body as Reply);
    expect(copies).toEqual([
      {
        source: { namespace: "kuik-system", name: "harbor" },
        name: expect.stringMatching(/^kuik-harbor-[0-9a-f]{16}$/),
        namespace: "default",
      },
    ]);
    expect(patch).toContainEqual({
      op: "add",
      path: "/spec/imagePullSecrets",
      value: [{ name: copies[0]?.name }],
    });
  });

  it("admits unchanged, with a warning, when a secret must be copied and nothing can copy it", async () => {
    const server = await startWebhook(8000, { yaml: securedMirrorYaml(registry.host) });
    const { body } = await postJson(
      server.port,
      "/mutate-pods",
      review("uid-6", "default", [{ name: "web", image: "nginx:1.27" }]),
      tls.cert,
    );
    const response = (body as Reply).response;
    expect(response).toMatchObject({ uid: "uid-6", allowed: true });
    expect(response.patch).toBeUndefined();
    expect(response.warnings?.[0]).toMatch(/secret kuik-system\/harbor must be copied to default/);
  });

  it("leaves other kinds and operations alone", async () => {
    const server = await startWebhook(8000);
    const update = review("uid-4", "default", [{ name: "web", image: "nginx:1.27" }], {
      operation: "UPDATE",
    });
    const { body } = await postJson(server.port, "/mutate-pods", update, tls.cert);
    expect((body as Reply).response).toEqual({ uid: "uid-4", allowed: true });
  });

  it.each([
    { body: "not json", status: 400 },
    { body: { apiVersion: "v1", kind: "Pod" }, status: 400 },
  ])("answers 400 to a body that is not an AdmissionReview ($status)", async ({ body, status }) => {
    const server = await startWebhook(8000);
    const reply = await postJson(server.port, "/mutate-pods", body, tls.cert);
    expect(reply.status).toBe(status);
  });

  it("refuses clients that do not trust its certificate (it is real TLS)", async () => {
    const server = await startWebhook(8000);
    await expect(postJson(server.port, "/mutate-pods", {}, "")).rejects.toThrow(
      /self[- ]signed|certificate/i,
    );
  });
});
