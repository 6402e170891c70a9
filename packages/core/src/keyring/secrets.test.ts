import type { V1Secret } from "@kubernetes/client-node";
import { describe, expect, expectTypeOf, it } from "vitest";
import { parseDockerConfigJson } from "./docker-config.js";
import { createDockerKeyring } from "./keyring.js";
import {
  dockerConfigsFromSecrets,
  makeDockerKeyring,
  type PullSecret,
  parsePullSecret,
} from "./secrets.js";

const b64 = (text: string) => btoa(text);
const secret = (name: string, type: string, data: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { namespace: "team", name, uid: `uid-${name}` },
  type,
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});

describe("makeDockerKeyring", () => {
  const json = '{"auths":{"r.io":{"username":"pod","password":"p"}}}';
  const node = createDockerKeyring([
    { config: parseDockerConfigJson({ auths: { "r.io": { username: "node", password: "n" } } }) },
  ]);

  it("puts pod secret credentials before node credentials", () => {
    const keyring = makeDockerKeyring(
      [secret("a", "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": json })],
      node,
    );
    expect(keyring.lookup("r.io/app").map((c) => [c.username, c.source.kind])).toEqual([
      ["pod", "secret"],
      ["node", "node"],
    ]);
  });
  it("skips secrets of another type or with the other key", () => {
    const configs = dockerConfigsFromSecrets([
      secret("a", "Opaque", { ".dockerconfigjson": json }),
      secret("b", "kubernetes.io/dockercfg", { ".dockerconfigjson": json }),
      secret("c", "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": "" }),
    ]);
    expect(configs).toEqual([]);
  });
  it("fails the whole lookup on one bad counted secret", () => {
    expect(() =>
      makeDockerKeyring([
        secret("ok", "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": json }),
        secret("bad", "kubernetes.io/dockercfg", { ".dockercfg": "{" }),
      ]),
    ).toThrow(expect.objectContaining({ code: "INVALID_DOCKER_CONFIG", secret: "team/bad" }));
  });
  it("rejects objects that are not Secrets, from JavaScript callers too", () => {
    // @ts-expect-error: the type refuses it; a JavaScript caller still gets a typed error.
    expect(() => makeDockerKeyring([{ metadata: "x" }])).toThrow(
      expect.objectContaining({ code: "INVALID_SECRET" }),
    );
  });
  it("takes a @kubernetes/client-node V1Secret without a cast", () => {
    expectTypeOf<V1Secret>().toExtend<PullSecret>();
    const v1: V1Secret = {
      metadata: { name: "regcred", namespace: "team", uid: "u1" },
      type: "kubernetes.io/dockerconfigjson",
      data: {
        ".dockerconfigjson": btoa(JSON.stringify({ auths: { "r.io": { auth: btoa("u:p") } } })),
      },
    };
    expect(makeDockerKeyring([v1]).lookup("r.io/app")).toHaveLength(1);
  });
});

describe("parsePullSecret", () => {
  it("returns the Secret typed, or INVALID_SECRET naming its position", () => {
    expect(parsePullSecret({ type: "Opaque", metadata: { name: "a" } }).metadata?.name).toBe("a");
    expect(() => parsePullSecret({ metadata: "x" }, 3)).toThrow(
      expect.objectContaining({
        code: "INVALID_SECRET",
        message: expect.stringMatching(/^pull secret #3 /),
      }),
    );
  });
});
