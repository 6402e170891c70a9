import { readFileSync } from "node:fs";
import { UpstreamReleaseError } from "@kubeimg/core";
import { describe, expect, it } from "vitest";
import { allowlistMatchingOf, type KubeletRelease } from "./allowlist.js";
import { createVerificationPolicy } from "./policy.js";

interface UpstreamRows {
  readonly image: string;
  readonly rows: readonly {
    readonly name: string;
    readonly imageRecordsExist: boolean;
    readonly allowlist: readonly string[];
    readonly want: boolean;
  }[];
}

/** The kubelet's own test table after #137629, with the answers its test asserts. */
const v136: UpstreamRows = JSON.parse(
  readFileSync(new URL("./testdata/allowlist-v1.36.json", import.meta.url), "utf8"),
);

function requires(
  kubelet: KubeletRelease | undefined,
  allowlist: readonly string[],
  image: string,
) {
  return createVerificationPolicy({
    policy: "NeverVerifyAllowlistedImages",
    allowlist,
    ...(kubelet === undefined ? {} : { kubelet }),
  }).requiresVerification(image, false);
}

describe("the kubelet release decides allowlist matching", () => {
  it.each<KubeletRelease | undefined>(["1.36", "1.37", undefined])(
    "%s gives the answers of the kubelet's test table after #137629",
    (kubelet) => {
      for (const row of v136.rows) {
        const policy = createVerificationPolicy({
          policy: "NeverVerifyAllowlistedImages",
          allowlist: row.allowlist,
          ...(kubelet === undefined ? {} : { kubelet }),
        });
        expect(policy.requiresVerification(v136.image, row.imageRecordsExist), row.name).toBe(
          row.want,
        );
      }
    },
  );

  it("1.35 compares the raw image: the tagged image misses its absolute entry", () => {
    const row = v136.rows.find((r) => r.name.endsWith("appears in allowlist"));
    expect(row).toBeDefined();
    expect(requires("1.35", row?.allowlist ?? [], v136.image)).toBe(true);
    expect(requires("1.37", row?.allowlist ?? [], v136.image)).toBe(false);
    // Familiar names are the case #137629 fixed.
    expect(requires("1.35", ["docker.io/library/nginx"], "nginx")).toBe(true);
    expect(requires("1.36", ["docker.io/library/nginx"], "nginx")).toBe(false);
  });

  it("maps each release to its matching, and an explicit matching wins", () => {
    expect(allowlistMatchingOf("1.35")).toBe("v1.35");
    expect(allowlistMatchingOf("1.36")).toBe("v1.36");
    expect(allowlistMatchingOf("1.37")).toBe("v1.36");
    expect(allowlistMatchingOf(undefined)).toBe("v1.36");
    const p = createVerificationPolicy({
      policy: "NeverVerifyAllowlistedImages",
      allowlist: ["docker.io/library/nginx"],
      kubelet: "1.37",
      allowlistMatching: "v1.35",
    });
    expect(p.requiresVerification("nginx", false)).toBe(true);
  });

  it("refuses a release it does not reproduce, whatever the policy", () => {
    let error: unknown;
    try {
      createVerificationPolicy({ policy: "AlwaysVerify", kubelet: "1.34" as never });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UpstreamReleaseError);
    expect(error).toMatchObject({ upstream: "kubelet", value: "1.34" });
  });
});
