import { describe, expect, it } from "vitest";
import * as credentialprovider from "../internal/credentialprovider.js";
import { parseDockerConfigJson, parseDockercfg } from "./docker-config.js";
import { isDockerConfigError } from "./errors.js";

describe("parseDockerConfigJson", () => {
  it("decodes auth, which wins over username and password", () => {
    const config = parseDockerConfigJson(
      '{"auths":{"r.io":{"auth":"cGluZzpwb25n","username":"u","password":"p","email":"e"}}}',
    );
    expect(config.auths[0]?.entry).toMatchObject({
      username: "ping",
      password: "pong",
      email: "e",
    });
  });
  it("matches member names case-insensitively and keeps the last repeated value", () => {
    const config = parseDockerConfigJson(
      '{"AUTHS":{"r.io":{"USERNAME":"a","username":"b","Username":null}}}',
    );
    expect(config.auths[0]?.entry.username).toBe("b");
  });
  it("merges repeated auths objects as Go decodes into the same map", () => {
    const config = parseDockerConfigJson('{"auths":{"a.io":{}},"auths":{"b.io":{}}}');
    expect(config.auths.map((a) => a.key)).toEqual(["a.io", "b.io"]);
  });
  it("computes the kubelet credential hash (Go JSON, empty fields omitted)", () => {
    const config = parseDockerConfigJson({
      auths: { "r.io": { username: "user", password: "password" } },
    });
    expect(config.auths[0]?.entry.credentialHash).toBe(
      "a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d",
    );
  });
  it("hashes an auth that decodes to invalid UTF-8 as Go sees its bytes", () => {
    // auth = base64 of the bytes ff c3 ':' 'p'; Go 1.19's hashAuthConfig gives this hash.
    const config = parseDockerConfigJson('{"auths":{"r.io":{"auth":"/8M6cA=="}}}');
    expect(config.auths[0]?.entry.credentialHash).toBe(
      "9934de36e9f6dc877196a6182f308ba5d6086ea6e3d6e33c959c648426825c0b",
    );
  });
  it.each([
    ["user", "pa\bss\fword", ""],
    ["<admin&co>", 'p\u2028w\t\n\r"\\', "me@example.com"],
    ["é😀", "\u0001\u001f\u007f", ""],
  ])(
    "hashes username %j, password %j, email %j as pull-credentials records do",
    (username, password, email) => {
      const config = parseDockerConfigJson({ auths: { "r.io": { username, password, email } } });
      expect(config.auths[0]?.entry.credentialHash).toBe(
        credentialprovider.hashAuthConfig({ username, password, email }),
      );
    },
  );
  it.each([
    { input: "{", path: "" },
    { input: '{"auths":[]}', path: "auths" },
    { input: '{"auths":{"r.io":{"username":1}}}', path: 'auths["r.io"].username' },
    { input: '{"auths":{"r.io":{"auth":"pants"}}}', path: 'auths["r.io"].auth' },
    { input: '{"auths":{"r.io":"x"}}', path: 'auths["r.io"]' },
    { input: '{"HttpHeaders":{"a":1}}', path: 'HttpHeaders["a"]' },
    { input: "[]", path: "" },
  ])("rejects $input", ({ input, path }) => {
    let caught: unknown;
    try {
      parseDockerConfigJson(input);
    } catch (error) {
      caught = error;
    }
    expect(isDockerConfigError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "INVALID_DOCKER_CONFIG", path });
  });
  it("never copies an undecodable auth value into the error", () => {
    expect(() => parseDockerConfigJson('{"auths":{"r.io":{"auth":"c2VjcmV0"}}}')).toThrow(
      /not shown/,
    );
  });
});

describe("parseDockercfg", () => {
  it("reads the registry map at the top level", () => {
    expect(parseDockercfg('{"auths":{"username":"u"}}').auths.map((a) => a.key)).toEqual(["auths"]);
    expect(parseDockercfg("null").auths).toEqual([]);
  });
});
