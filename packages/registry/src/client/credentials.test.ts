import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
import { describe, expect, it } from "vitest";
import { basicAuthorization, keyringCredentials } from "./credentials.js";

describe("keyringCredentials", () => {
  it("returns the keyring's credentials in kubelet order, without blank ones", async () => {
    const keyring = createDockerKeyring([
      {
        config: parseDockerConfigJson({
          auths: {
            "r.io": { username: "host", password: "h" },
            "r.io/team": { username: "team", password: "t" },
            "r.io/x": {},
          },
        }),
      },
    ]);
    expect(await keyringCredentials(keyring)("r.io/team/app")).toEqual([
      { username: "team", password: "t" },
      { username: "host", password: "h" },
    ]);
    expect(await keyringCredentials(keyring)("r.io/x/app")).toEqual([
      { username: "host", password: "h" },
    ]);
  });
  it("encodes Basic as UTF-8", () => {
    expect(basicAuthorization({ username: "ü", password: "p:w" })).toBe(
      `Basic ${Buffer.from("ü:p:w").toString("base64")}`,
    );
  });
});
