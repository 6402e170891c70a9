import { describe, expect, it } from "vitest";
import { credentialHashInput, hashCredential, storageFileName } from "./hashing.js";

describe("hashCredential", () => {
  it("matches the kubelet's asserted hash", async () => {
    expect(await hashCredential({ username: "user", password: "password" })).toBe(
      "a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d",
    );
  });

  it.each([
    {
      cred: { username: "u", password: "p", email: "e@x" },
      input: '{"username":"u","password":"p","email":"e@x"}',
    },
    {
      cred: { username: "user", password: "password" },
      input: '{"username":"user","password":"password"}',
    },
    { cred: { password: "p" }, input: '{"password":"p"}' },
    { cred: {}, input: "{}" },
    { cred: { username: "a<b>&c" }, input: '{"username":"a\\u003cb\\u003e\\u0026c"}' },
  ])("hashes Go's JSON of $input", ({ cred, input }) => {
    expect(credentialHashInput(cred)).toBe(input);
  });
});

describe("storageFileName", () => {
  it.each([
    ["testimageref1", "sha256-d77ed7480bc819274ea7a4dba5b2699b2d3f73c6e578762df42e5a8224771096"],
    [
      "secretorg/myimage:customtag",
      "sha256-5f3ca9e4d82e32203c2fafb410dfae9c8047bc6ebe57d642fe264d479e152955",
    ],
  ])("%s", (key, want) => {
    expect(storageFileName(key)).toBe(want);
  });
});
