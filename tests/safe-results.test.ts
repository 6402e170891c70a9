/**
 * Every `safe…` function answers in zod's shape, `{ success: true, data }`
 * or `{ success: false, error }`, so one helper handles them all.
 */
import { safeParseDigest } from "@kubeimg/core/digest";
import { safeParsePlatform } from "@kubeimg/core/platform";
import {
  safeParse,
  safeParseAnyReference,
  safeParseDockerRef,
  safeParseNamed,
  safeParseNormalizedNamed,
} from "@kubeimg/core/reference";
import {
  compileRouting,
  safeParseRoutingResource,
  safeRouteContainer,
} from "@kubeimg/policy/routing";
import { safeParseImagePolicy } from "@kubeimg/policy/tags";
import { describe, expect, it } from "vitest";

describe("safe… results", () => {
  it("carry the value as `data` and nothing else besides `success`", () => {
    const hex = "a".repeat(64);
    const results: { success: boolean }[] = [
      safeParse("nginx"),
      safeParseNamed("docker.io/library/nginx"),
      safeParseNormalizedNamed("nginx"),
      safeParseAnyReference(hex),
      safeParseDockerRef("nginx"),
      safeParseDigest(`sha256:${hex}`),
      safeParsePlatform("linux/amd64"),
      safeParseImagePolicy({
        apiVersion: "image.toolkit.fluxcd.io/v1",
        kind: "ImagePolicy",
        metadata: { name: "p" },
        spec: { imageRepositoryRef: { name: "r" }, policy: { alphabetical: {} } },
      }),
      safeRouteContainer(compileRouting([]), { container: { name: "c", image: "nginx" } }),
    ];
    for (const r of results) {
      expect(r).toMatchObject({ success: true });
      expect(Object.keys(r).sort()).toEqual(["data", "success"]);
    }
    const resource = safeParseRoutingResource({
      apiVersion: "kuik.enix.io/v1alpha1",
      kind: "ClusterImageSetMirror",
      metadata: { name: "m" },
      spec: { mirrors: [] },
    });
    expect(resource.success && resource.data.kind).toBe("ClusterImageSetMirror");
  });
});
