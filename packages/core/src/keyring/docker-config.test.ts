import { describe, expect, it } from "vitest";
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
