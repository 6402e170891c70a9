/**
 * Pull Secrets as the kubelet reads them (`pkg/credentialprovider/secrets`
 * `MakeDockerKeyring`, Kubernetes v1.35): a Secret counts when its `type`
 * is `kubernetes.io/dockerconfigjson` with a non-empty `.dockerconfigjson`,
 * or `kubernetes.io/dockercfg` with a non-empty `.dockercfg`; all counted
 * Secrets feed one keyring, which comes before the node's.
 */

import type * as Z from "zod/mini";
import * as z from "#zod";
import * as base64 from "../internal/base64.js";
import { lazySchema, once } from "../internal/lazy.js";
import * as utf8 from "../internal/utf8.js";
import {
  type DockerConfig,
  parseDockerConfigJsonWith,
  parseDockercfgWith,
} from "./docker-config.js";
import { DockerConfigError } from "./errors.js";
import {
  type CredentialSource,
  createDockerKeyring,
  type DockerKeyring,
  type KeyringConfig,
  unionDockerKeyrings,
} from "./keyring.js";

/** The Secret type of a `config.json`-shaped pull secret. */
export const SECRET_TYPE_DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";
/** The Secret type of a legacy `.dockercfg` pull secret. */
export const SECRET_TYPE_DOCKERCFG = "kubernetes.io/dockercfg";

function buildSecretSchemas() {
  const pullSecretSchema = z.object({
    apiVersion: z.optional(z.string()),
    kind: z.optional(z.string()),
    metadata: z.optional(
      z.object({
        name: z.optional(z.string()),
        namespace: z.optional(z.string()),
        uid: z.optional(z.string()),
      }),
    ),
    type: z.optional(z.string()),
    data: z.optional(z.nullable(z.record(z.string(), z.nullable(z.string())))),
    stringData: z.optional(z.nullable(z.record(z.string(), z.string()))),
  });
  return { pullSecretSchema };
}

const schemas = once(() => buildSecretSchemas());
type Schemas = ReturnType<typeof buildSecretSchemas>;

/**
 * The fields of a Kubernetes `v1.Secret` the kubelet reads; `data` values
 * are base64 as in the API (`stringData`, as a manifest may carry it, wins).
 *
 * @example
 * ```ts
 * import { pullSecretSchema } from "@kubeimg/core/keyring";
 *
 * const manifest: unknown = {
 *   apiVersion: "v1",
 *   kind: "Secret",
 *   metadata: { name: "regcred", namespace: "team-a" },
 *   type: "kubernetes.io/dockerconfigjson",
 *   data: { ".dockerconfigjson": "e30=" },
 * };
 * pullSecretSchema.parse(manifest).type; // → "kubernetes.io/dockerconfigjson"
 * ```
 */
export const pullSecretSchema: Schemas["pullSecretSchema"] = /*#__PURE__*/ lazySchema(
  () => schemas().pullSecretSchema,
);

/**
 * zod's English messages for this one parse: `zod/mini` loads no locale, and
 * setting one globally would override the application's choice.
 */
let english: Z.core.$ZodErrorMap | undefined;

/** A Kubernetes Secret object as written in YAML/JSON (only the fields the kubelet reads). */
export type PullSecret = Z.input<Schemas["pullSecretSchema"]>;

function secretName(secret: Z.output<Schemas["pullSecretSchema"]>, index: number): string {
  const meta = secret.metadata;
  return meta?.name !== undefined ? `${meta.namespace ?? ""}/${meta.name}` : `#${index}`;
}

/** The bytes (as a JavaScript string) of one data key; `stringData` wins as in the API server. */
function dataValue(
  secret: Z.output<Schemas["pullSecretSchema"]>,
  key: string,
  name: string,
): string | undefined {
  const plain = secret.stringData?.[key];
  if (plain !== undefined) return plain;
  const encoded = secret.data?.[key];
  if (encoded === undefined || encoded === null) return undefined;
  const bytes = base64.DecodeString(encoded, { padded: true });
  if (bytes === undefined) {
    throw new DockerConfigError(
      "INVALID_SECRET",
      `secret ${name}: data["${key}"] is not valid base64`,
      {
        path: `data["${key}"]`,
        secret: name,
      },
    );
  }
  return utf8.fromByteString(bytes);
}

/**
 * Returns `value` validated as a pull Secret (the fields the kubelet reads),
 * for a value read from YAML or JSON before it goes to
 * {@link makeDockerKeyring}. Fields the kubelet does not read are dropped.
 *
 * @throws {DockerConfigError} `INVALID_SECRET` naming the Secret's position
 *   (`index`, default 0) and the failing fields.
 * @example
 * ```ts
 * import { parsePullSecret } from "@kubeimg/core/keyring";
 *
 * // Documents read from YAML or JSON arrive as `unknown`.
 * const documents: unknown[] = [
 *   { metadata: { name: "regcred" }, type: "kubernetes.io/dockerconfigjson", data: {} },
 *   { metadata: { name: "broken" }, type: 42 },
 * ];
 * parsePullSecret(documents[0], 0).type; // → "kubernetes.io/dockerconfigjson"
 * parsePullSecret(documents[1], 1);
 * // throws DockerConfigError INVALID_SECRET:
 * // "pull secret #1 is not a valid Secret object: type: Invalid input: expected string, received number"
 * ```
 */
export function parsePullSecret(value: unknown, index = 0): PullSecret {
  english ??= z.en().localeError;
  const parsed = z.safeParse(schemas().pullSecretSchema, value, { error: english });
  if (!parsed.success) {
    throw new DockerConfigError(
      "INVALID_SECRET",
      `pull secret #${index} is not a valid Secret object: ${parsed.error.issues
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ")}`,
      { path: "", cause: parsed.error },
    );
  }
  return parsed.data;
}

/**
 * Returns the docker configs the kubelet would take from a pod's pull
 * Secrets, in pod order, each with its source; Secrets of other types or
 * with an empty key are skipped. A `V1Secret` of `@kubernetes/client-node`
 * fits {@link PullSecret} as it is; the objects are validated again, for
 * JavaScript callers (see {@link parsePullSecret} for values read from YAML).
 *
 * @throws {DockerConfigError} `INVALID_SECRET` for an object that is not a
 *   Secret or has undecodable `data`; `INVALID_DOCKER_CONFIG` when a counted
 *   Secret's config is invalid (one bad Secret fails them all, as upstream).
 * @example
 * ```ts
 * import { dockerConfigsFromSecrets } from "@kubeimg/core/keyring";
 *
 * const regcred = {
 *   metadata: { name: "regcred", namespace: "team-a" },
 *   type: "kubernetes.io/dockerconfigjson",
 *   stringData: { ".dockerconfigjson": '{"auths":{"quay.io":{"auth":"dXNlcjpwdw=="}}}' },
 * };
 * const configs = dockerConfigsFromSecrets([regcred]);
 * configs[0]?.source; // → { kind: "secret", namespace: "team-a", name: "regcred", uid: "" }
 * ```
 */
export function dockerConfigsFromSecrets(secrets: readonly PullSecret[]): KeyringConfig[] {
  const out: KeyringConfig[] = [];
  secrets.forEach((raw, index) => {
    const secret = parsePullSecret(raw, index);
    const name = secretName(secret, index);
    const source: CredentialSource = {
      kind: "secret",
      namespace: secret.metadata?.namespace ?? "",
      name: secret.metadata?.name ?? "",
      uid: secret.metadata?.uid ?? "",
    };
    let config: DockerConfig | undefined;
    const json =
      secret.type === SECRET_TYPE_DOCKER_CONFIG_JSON
        ? dataValue(secret, ".dockerconfigjson", name)
        : undefined;
    const cfg =
      secret.type === SECRET_TYPE_DOCKERCFG ? dataValue(secret, ".dockercfg", name) : undefined;
    if (json !== undefined && json.length > 0) {
      config = parseDockerConfigJsonWith(json, { secret: name });
    } else if (cfg !== undefined && cfg.length > 0) {
      config = parseDockercfgWith(cfg, { secret: name });
    }
    if (config) out.push({ config, source: Object.freeze(source) });
  });
  return out;
}

/**
 * Returns the keyring the kubelet uses for a pod (mirrors
 * `MakeDockerKeyring`): the credentials of its pull Secrets first, then
 * those of `nodeKeyring`. Without any counted Secret it is `nodeKeyring`
 * itself (or an empty keyring).
 *
 * @throws {DockerConfigError} as {@link dockerConfigsFromSecrets}.
 * @example
 * ```ts
 * import { createDockerKeyring, makeDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
 * import { repositoryName } from "@kubeimg/core/reference";
 *
 * const auths = (username: string) => JSON.stringify({ auths: { "docker.io": { username, password: "…" } } });
 * const regcred = {
 *   metadata: { name: "regcred", namespace: "team-a" },
 *   type: "kubernetes.io/dockerconfigjson",
 *   stringData: { ".dockerconfigjson": auths("pod") },
 * };
 * const nodeKeyring = createDockerKeyring([{ config: parseDockerConfigJson(auths("node")) }]);
 * const keyring = makeDockerKeyring([regcred], nodeKeyring);
 * keyring.lookup(repositoryName("nginx:1.25")).map((c) => c.username); // → ["pod", "node"]
 * ```
 */
export function makeDockerKeyring(
  secrets: readonly PullSecret[],
  nodeKeyring?: DockerKeyring,
): DockerKeyring {
  const configs = dockerConfigsFromSecrets(secrets);
  if (configs.length === 0) return nodeKeyring ?? createDockerKeyring([]);
  return unionDockerKeyrings([createDockerKeyring(configs), nodeKeyring]);
}
