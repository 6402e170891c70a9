/**
 * How many times `kubeimg route --check` reads an image reference: the
 * command runs in-process against a fake registry (`io.fetch`), and every
 * entry point of `@kubeimg/core/reference` that reads text is counted. The
 * image is parsed once at the edge and the parsed reference travels through
 * routing, the availability probe and the registry client; each alternative
 * routing builds is parsed once where it is built.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryIo } from "../../io/memory-io.test-support.js";
import { runCli } from "../../run.js";

const calls: string[] = [];

vi.mock("@kubeimg/core/reference", async (importOriginal) => {
  const actual = await importOriginal<Record<string, unknown>>();
  // Every export that reads an image string (the parsers, and the Kubernetes
  // helpers that parse inside core when given text).
  const readers = new Set([
    "parse",
    "parseAnyReference",
    "parseDockerRef",
    "parseNamed",
    "parseNormalizedNamed",
    "safeParse",
    "safeParseAnyReference",
    "safeParseDockerRef",
    "safeParseNamed",
    "safeParseNormalizedNamed",
    "parseImageName",
    "repositoryName",
    "defaultPullPolicy",
  ]);
  const wrapped: Record<string, unknown> = { ...actual };
  for (const name of readers) {
    const fn = actual[name];
    if (typeof fn !== "function") continue;
    wrapped[name] = (...args: unknown[]) => {
      if (typeof args[0] === "string") calls.push(`${name}(${args[0]})`);
      return (fn as (...a: unknown[]) => unknown)(...args);
    };
  }
  return wrapped;
});

const MIRRORS = `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: global-mirror }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: harbor.example.com
      path: /global-mirror
    - registry: cache.example.com
      path: /cache
---
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterReplicatedImageSet
metadata: { name: upstreams }
spec:
  upstreams:
    - registry: registry.example.com
      path: /library/nginx
      imageFilter: { include: ["/library/nginx:.+"] }
    - registry: quay.example.com
      path: /nginx/nginx
      imageFilter: { include: ["/nginx/nginx:.+"] }
`;

/** A registry that has only `cache.example.com/cache/quay.example.com/…`'s manifests. */
const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === "string" ? input : (input as URL | Request).toString());
  const method = init?.method ?? "GET";
  if (url.pathname === "/v2/") return new Response("{}", { status: 200 });
  const ok =
    url.hostname === "cache.example.com" &&
    url.pathname.includes("/manifests/") &&
    method === "HEAD";
  return ok
    ? new Response(null, {
        status: 200,
        headers: {
          "content-type": "application/vnd.oci.image.manifest.v1+json",
          "docker-content-digest": `sha256:${"a".repeat(64)}`,
          "content-length": "2",
        },
      })
    : new Response(JSON.stringify({ errors: [{ code: "MANIFEST_UNKNOWN", message: "unknown" }] }), {
        status: 404,
        headers: { "content-type": "application/json" },
      });
};

afterEach(() => {
  calls.length = 0;
});

describe("kubeimg route --check: reference reads", () => {
  it("parses the image once and each alternative once", async () => {
    const m = memoryIo({ tty: false, fetch: fakeFetch, stdin: MIRRORS });
    const code = await runCli(
      [
        "route",
        "-o",
        "json",
        "-f",
        "-",
        "-n",
        "default",
        "--image",
        "registry.example.com/library/nginx:1.27",
        "--check",
      ],
      m.io,
    );
    expect(m.err()).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(m.out()) as {
      alternatives: { image: string; check: { state: string } }[];
      winner: string;
    };
    const images = out.alternatives.map((a) => a.image);
    expect(images).toHaveLength(6);
    expect(out.winner).toMatch(/^cache\.example\.com\//);
    // One read of --image; one per alternative routing built (the original
    // is the image itself, already read).
    expect(calls).toHaveLength(1 + images.length - 1);
  });
});
