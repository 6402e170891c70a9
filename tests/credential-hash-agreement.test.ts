/**
 * `@kubeimg/core/keyring` and `@kubeimg/policy/pull-credentials` both compute
 * the kubelet's credential hash (one from a keyring lookup, one from a
 * credential object): for the same credential they must give the same hash,
 * or a record written with one would not be recognised with the other.
 */
import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
import { hashCredential } from "@kubeimg/policy/pull-credentials";
import { describe, expect, it } from "vitest";

describe("credential hash agreement between keyring and pull-credentials", () => {
  it.each([
    ["user", "password", ""],
    ["user", "pa\bss\fword", ""],
    ["<admin&co>", 'p\u2028w\t\n\r"\\', "me@example.com"],
    ["é😀", "\u0001\u001f\u007f", ""],
  ])("username %j, password %j, email %j", async (username, password, email) => {
    const config = parseDockerConfigJson(
      JSON.stringify({ auths: { "registry.example": { username, password, email } } }),
    );
    const [found] = createDockerKeyring([{ config }]).lookup("registry.example/app");
    expect(found?.username).toBe(username);
    expect(found?.credentialHash).toBe(await hashCredential({ username, password, email }));
  });
});
