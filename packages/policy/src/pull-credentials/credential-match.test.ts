import { describe, expect, it } from "vitest";
import { matchPodCredentials } from "./credential-match.js";
import type { ImagePullSecret } from "./types.js";

const secret = (i: number, credentialHash = "h"): ImagePullSecret => ({
  uid: `u${i}`,
  namespace: `ns${i}`,
  name: "regcred",
  credentialHash,
});

describe("matchPodCredentials: write-while-matching", () => {
  it.each([
    { stored: 99, write: true },
    { stored: 100, write: false }, // at the cap a match no longer grows the record
  ])("with $stored secrets stored, writes the pod's: $write", ({ stored, write }) => {
    const cached = {
      kubernetesSecrets: Array.from({ length: stored }, (_, i) => secret(i)),
      kubernetesServiceAccounts: [],
      nodePodsAccessible: false,
    };
    const podSecret = secret(1000);
    const r = matchPodCredentials({ secrets: [podSecret], serviceAccount: undefined }, cached);
    expect(r).toEqual(write ? { found: true, write: podSecret } : { found: true });
  });
});
