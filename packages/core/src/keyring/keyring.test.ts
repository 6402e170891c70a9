import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDockerConfigJson } from "./docker-config.js";
import {
  createDockerKeyring,
  isDefaultRegistryMatch,
  normalizeKeyringKey,
  unionDockerKeyrings,
} from "./keyring.js";

describe("normalizeKeyringKey", () => {
  it.each([
    { key: "https://index.docker.io/v1/", want: "index.docker.io" },
    { key: "index.docker.io/v1/", want: "index.docker.io" },
    { key: "http://quay.io/v2/team", want: "quay.io/team" },
    { key: "quay.io/team", want: "quay.io/team" }, // no scheme: kept as it is
    { key: "quay.io/v3/", want: "quay.io/v3/" },
    { key: "quay.io/", want: "quay.io" },
    { key: "user:pw@quay.io:8443/x?y#z", want: "quay.io:8443/x" },
    { key: "r[^a-c]g.io", want: undefined },
  ])("$key", ({ key, want }) => {
    expect(normalizeKeyringKey(key)).toBe(want);
  });
});

describe("isDefaultRegistryMatch", () => {
  it.each([
    { image: "nginx", want: true },
    { image: "library/nginx", want: true },
    { image: "docker.io/library/nginx", want: true },
    { image: "localhost/app", want: true },
    { image: "localhost:5000/app", want: false },
    { image: "quay.io/app", want: false },
    { image: "", want: false },
    { image: "/x", want: false },
  ])("$image", ({ image, want }) => {
    expect(isDefaultRegistryMatch(image)).toBe(want);
  });
});

describe("bracket globs in keys and images", () => {
  const matches = (key: string, image: string) =>
    createDockerKeyring([
      {
        config: {
          auths: [{ key, entry: { username: "u", password: "p", email: "", credentialHash: "" } }],
        },
      },
    ]).lookup(image).length > 0;
  it.each([
    { key: "r[a-c]g.io", image: "rbg.io/app", want: true },
    { key: "r[a-c]g.io", image: "rdg.io/app", want: false },
    { key: "r[!a-c]g.io", image: "rdg.io/app", want: false }, // "!" does not negate in Go globs
    { key: "r[!a-c]g.io", image: "rbg.io/app", want: true },
    { key: "*.r[a-z]", image: "x.rq/app", want: true },
    { key: "[a-c]", image: "b/app", want: true }, // a leading bracket is an unvalidated IP literal
    { key: "[v1.fe]:443/a", image: "[v1.fe]:443/a/b", want: true },
    { key: "[*]:5000", image: "[registry]:5000/app", want: true },
    { key: "*", image: "re[g]/v2/a", want: true },
    { key: "[a-c]cr.io", image: "bcr.io/app", want: false }, // "cr.io" is not a port
    { key: "r[^a-c]g.io", image: "rdg.io/app", want: false }, // "^" is not a host character
  ])("$key vs $image", ({ key, image, want }) => {
    expect(matches(key, image)).toBe(want);
  });
});

describe("createDockerKeyring", () => {
  const config = parseDockerConfigJson({
    auths: {
      "quay.io": { username: "host", password: "h" },
      "quay.io/team": { username: "team", password: "t" },
      "*.example.com:5000": { username: "glob", password: "g" },
      "https://index.docker.io/v1/": { username: "hub", password: "d" },
    },
  });
  const keyring = createDockerKeyring([{ config }]);
  const users = (image: string) => keyring.lookup(image).map((c) => c.username);

  it("returns every matching key, most specific path first", () => {
    expect(users("quay.io/team/app")).toEqual(["team", "host"]);
    expect(users("quay.io/other")).toEqual(["host"]);
  });
  it("matches glob labels with the exact port", () => {
    expect(users("reg.example.com:5000/app")).toEqual(["glob"]);
    expect(users("reg.example.com/app")).toEqual([]);
    expect(users("a.reg.example.com:5000/app")).toEqual([]);
  });
  it("falls back to Docker Hub credentials only when nothing matched", () => {
    expect(users("docker.io/library/nginx")).toEqual(["hub"]);
    expect(keyring.lookup("nginx")[0]?.matchedKey).toBe("index.docker.io");
  });
  it("marks node credentials and concatenates unions in order", () => {
    const pod = createDockerKeyring([
      { config, source: { kind: "secret", namespace: "ns", name: "s", uid: "u" } },
    ]);
    const union = unionDockerKeyrings([pod, keyring]);
    expect(union.lookup("quay.io/x").map((c) => c.source.kind)).toEqual(["secret", "node"]);
  });
});

describe("lookup on arbitrary input", () => {
  it("never throws, whatever the keys and images", () => {
    const alphabet = [
      "a",
      ".",
      ":",
      "/",
      "*",
      "?",
      "[",
      "]",
      "^",
      "%",
      "2",
      "5",
      "@",
      "#",
      " ",
      "ü",
      "\n",
      "-",
      "v1",
      "1",
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((a) => a.join("")),
          { maxLength: 4 },
        ),
        fc.array(fc.constantFrom(...alphabet), { maxLength: 16 }).map((a) => a.join("")),
        (keys, image) => {
          const auths = Object.fromEntries(keys.map((k) => [k, { username: "u", password: "p" }]));
          const keyring = createDockerKeyring([{ config: parseDockerConfigJson({ auths }) }]);
          for (const credential of keyring.lookup(image)) expect(credential.username).toBe("u");
        },
      ),
      { numRuns: 300 },
    );
  });
});
