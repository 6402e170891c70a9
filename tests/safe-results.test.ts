/**
 * Every `safe…` function answers in zod's shape, `{ success: true, data }`
 * or `{ success: false, error }`, so one helper handles them all.
 */
import { safeParse, safeParseNormalizedNamed } from "@kubeimg/core/reference";
import { safeParseImagePolicy } from "@kubeimg/policy/tags";
import { describe, expect, it } from "vitest";

describe("safe… results", () => {
  it("carry the value as `data` and nothing else besides `success`", () => {
    const results: { success: boolean }[] = [
      safeParse("nginx"),
      safeParseNormalizedNamed("nginx"),
      safeParseImagePolicy({
        apiVersion: "image.toolkit.fluxcd.io/v1",
        kind: "ImagePolicy",
        metadata: { name: "p" },
        spec: { imageRepositoryRef: { name: "r" }, policy: { alphabetical: {} } },
      }),
    ];
    for (const r of results) {
      expect(r).toMatchObject({ success: true });
      expect(Object.keys(r).sort()).toEqual(["data", "success"]);
    }
  });
});
