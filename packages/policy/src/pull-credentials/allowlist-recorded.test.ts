/**
 * The kubelet's allowlist code, 1.35 and 1.36, recorded on generated inputs.
 *
 * `testdata/allowlist-1.35-1.36.jsonl`: one case a line, `{ id, allowlist,
 * images, expect }`; `expect["1.35"]` and `expect["1.36"]` are what
 * `pkg/kubelet/images/pullmanager/image_pull_policies.go` of kubernetes at
 * 5ce22905a86f (before #137629) and at 19621c1c7b01 (with it) answered,
 * built with Go 1.19 over github.com/distribution/reference v0.6.0:
 * `NewImagePullCredentialVerificationPolicy("NeverVerifyAllowlistedImages",
 * allowlist)` either fails, giving `error` (its text, which
 * `ValidateAllowlistImagesPatterns` gives too) and `index` (the first entry
 * that fails alone), or gives a policy whose
 * `RequireCredentialVerificationForImage(image, false)` is `requires[i]` for
 * `images[i]` (the answer does not depend on the second argument).
 *
 * The cases were chosen from a run over generated allowlists (wildcards,
 * digests, tags, ports, upper case, `docker.io/library/` forms, short names,
 * stray spaces and `*`) and pod images (short names, `library/`,
 * `index.docker.io`, digests, tag and digest, invalid ones) in which kubeimg
 * agreed with both releases on every case: every error text seen, and the
 * images where the releases answer differently, beside ones where they agree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { KubeletRelease } from "./allowlist.js";
import { PullCredentialsConfigError } from "./errors.js";
import { createVerificationPolicy } from "./policy.js";

interface Answer {
  readonly error: string | null;
  readonly index: number | null;
  readonly requires?: readonly boolean[];
}

interface Recorded {
  readonly id: string;
  readonly allowlist: readonly string[];
  readonly images: readonly string[];
  readonly expect: { readonly "1.35": Answer; readonly "1.36": Answer };
}

const recorded: readonly Recorded[] = readFileSync(
  new URL("./testdata/allowlist-1.35-1.36.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

/** kubeimg's answer in the recorded shape. */
function answer(c: Recorded, kubelet: KubeletRelease | undefined): Answer {
  let policy: ReturnType<typeof createVerificationPolicy>;
  try {
    policy = createVerificationPolicy({
      policy: "NeverVerifyAllowlistedImages",
      allowlist: c.allowlist,
      ...(kubelet === undefined ? {} : { kubelet }),
    });
  } catch (error) {
    if (!(error instanceof PullCredentialsConfigError)) throw error;
    expect(error.code).toBe("INVALID_ALLOWLIST");
    expect(error.value).toBe(c.allowlist[error.index ?? -1]);
    // Go quotes the pattern raw; kubeimg's message escapes control characters.
    return { error: error.rawMessage ?? error.message, index: error.index ?? null };
  }
  return {
    error: null,
    index: null,
    requires: c.images.map((image) => policy.requiresVerification(image, false)),
  };
}

describe("recorded kubelet allowlist answers (Go, generated inputs)", () => {
  it("holds invalid allowlists, and images on which 1.35 and 1.36 differ", () => {
    expect(recorded.length).toBeGreaterThanOrEqual(200);
    const invalid = recorded.filter((c) => c.expect["1.35"].error !== null);
    expect(new Set(invalid.map((c) => c.expect["1.35"].error?.split(":")[0])).size).toBe(6);
    const differ = recorded.flatMap((c) =>
      c.images.filter((_, i) => c.expect["1.35"].requires?.[i] !== c.expect["1.36"].requires?.[i]),
    );
    expect(differ.length).toBeGreaterThanOrEqual(100);
  });

  it.each(recorded.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    expect(answer(c, "1.35")).toEqual(c.expect["1.35"]);
    for (const kubelet of ["1.36", "1.37", undefined] as const) {
      expect(answer(c, kubelet), kubelet ?? "default").toEqual(c.expect["1.36"]);
    }
  });
});
