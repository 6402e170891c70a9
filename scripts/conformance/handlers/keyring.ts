/**
 * The `keyring` suite: kubelet credential keyring matching and lookup
 * (Kubernetes v1.35). See `conformance/keyring/FORMAT.md`.
 */
import {
  createDockerKeyring,
  type DockerConfig,
  type DockerKeyring,
  dockerConfigsFromSecrets,
  parseDockerConfigJson,
  parseDockercfg,
  type TrackedCredential,
  unionDockerKeyrings,
} from "@kubeimg/core/keyring";
import { expectOrError } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

interface VectorSecret {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly type: string;
  readonly data: Record<string, string>;
}

/** The vectors give Secret data decoded; the API (and our reader) carries it base64-encoded. */
function toSecretObject(secret: VectorSecret) {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { namespace: secret.namespace, name: secret.name, uid: secret.uid },
    type: secret.type,
    data: Object.fromEntries(
      Object.entries(secret.data).map(([key, value]) => [
        key,
        Buffer.from(value, "utf8").toString("base64"),
      ]),
    ),
  };
}

function parseConfig(config: unknown, format: unknown): DockerConfig {
  const text = JSON.stringify(config);
  return format === "dockercfg" ? parseDockercfg(text) : parseDockerConfigJson(text);
}

function describe(credential: TrackedCredential, from: string) {
  return {
    username: credential.username,
    password: credential.password,
    email: credential.email,
    matchedKey: credential.matchedKey,
    credentialHash: credential.credentialHash,
    from,
  };
}

function lookup(vector: Vector) {
  const image = vector.image as string;
  const out: ReturnType<typeof describe>[] = [];
  if ("config" in vector) {
    const keyring = createDockerKeyring([{ config: parseConfig(vector.config, vector.format) }]);
    out.push(...keyring.lookup(image).map((c) => describe(c, "config")));
  }
  let pod: DockerKeyring | undefined;
  if (Array.isArray(vector.secrets)) {
    const configs = dockerConfigsFromSecrets(
      (vector.secrets as VectorSecret[]).map(toSecretObject),
    );
    if (configs.length > 0) pod = createDockerKeyring(configs);
  }
  const node =
    "nodeConfig" in vector
      ? createDockerKeyring([{ config: parseDockerConfigJson(JSON.stringify(vector.nodeConfig)) }])
      : undefined;
  if (pod || node) {
    const union = unionDockerKeyrings([pod, node]);
    for (const credential of union.lookup(image)) {
      const source = credential.source;
      out.push(
        describe(
          credential,
          source.kind === "secret" ? `${source.namespace}/${source.name}` : "node",
        ),
      );
    }
  }
  return out;
}

const handler: SuiteHandler = {
  run(vector) {
    switch (vector.op) {
      case "match":
        return expectOrError(vector, () => {
          const config: DockerConfig = {
            auths: [
              {
                key: vector.pattern as string,
                entry: { username: "u", password: "p", email: "", credentialHash: "" },
              },
            ],
          };
          return createDockerKeyring([{ config }]).lookup(vector.image as string).length > 0;
        });
      case "lookup":
        return expectOrError(vector, () => lookup(vector));
      default:
        return { ok: false, expected: "op match or lookup", got: vector.op };
    }
  },
};

export default handler;
