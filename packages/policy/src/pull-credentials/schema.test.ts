import { describe, expect, it } from "vitest";
import {
  imagePullCredentialsSchema,
  imagePullSecretSchema,
  imagePullServiceAccountSchema,
} from "./schema.js";

describe("the credential schemas", () => {
  it("default a secret's missing credentialHash to the kubelet's hashing-failed value", () => {
    expect(imagePullSecretSchema.parse({ uid: "u", namespace: "ns", name: "regcred" })).toEqual({
      uid: "u",
      namespace: "ns",
      name: "regcred",
      credentialHash: "",
    });
  });

  it("accept a service account by its coordinates", () => {
    expect(
      imagePullServiceAccountSchema.parse({ uid: "u", namespace: "ns", name: "default" }),
    ).toEqual({ uid: "u", namespace: "ns", name: "default" });
  });

  it("normalize credentials: absent lists are empty", () => {
    expect(imagePullCredentialsSchema.parse({ nodePodsAccessible: true })).toEqual({
      kubernetesSecrets: [],
      kubernetesServiceAccounts: [],
      nodePodsAccessible: true,
    });
  });
});
