/**
 * Zod schemas and JSON conversions at the edges: credentials given to the
 * manager, and records in their JSON (file) shape.
 */

import { lazy } from "@kubeimg/core/internal";
import * as z from "#zod";
import { safeParseEnglish } from "../objects/english-issues.js";
import {
  currentRecordApiVersion,
  decodePulledRecordFile,
  encodePulledRecordFile,
} from "./codec.js";
import { PullRecordError } from "./errors.js";
import type {
  ImagePullCredentials,
  ImagePulledRecord,
  ImagePullSecret,
  ImagePullServiceAccount,
} from "./types.js";

function buildPullCredentialsSchemas() {
  const imagePullSecretSchema = z.strictObject({
    uid: z.string(),
    namespace: z.string(),
    name: z.string(),
    credentialHash: z._default(z.string(), ""),
  });

  const imagePullServiceAccountSchema = z.strictObject({
    uid: z.string(),
    namespace: z.string(),
    name: z.string(),
  });

  const imagePullCredentialsSchema = z.pipe(
    z.strictObject({
      kubernetesSecrets: z.nullish(z.array(imagePullSecretSchema)),
      kubernetesServiceAccounts: z.nullish(z.array(imagePullServiceAccountSchema)),
      nodePodsAccessible: z.nullish(z.boolean()),
    }),
    z.transform(
      (c): ImagePullCredentials =>
        Object.freeze({
          kubernetesSecrets: Object.freeze(
            (c.kubernetesSecrets ?? []).map((s) => Object.freeze(s)),
          ),
          kubernetesServiceAccounts: Object.freeze(
            (c.kubernetesServiceAccounts ?? []).map((s) => Object.freeze(s)),
          ),
          nodePodsAccessible: c.nodePodsAccessible ?? false,
        }),
    ),
  );
  return { imagePullSecretSchema, imagePullServiceAccountSchema, imagePullCredentialsSchema };
}

const schemas = lazy.once(() => buildPullCredentialsSchemas());
type Schemas = ReturnType<typeof buildPullCredentialsSchemas>;

/**
 * `ImagePullSecret` as accepted from callers: coordinates required,
 * `credentialHash` defaults to `""` (hashing failed).
 */
export const imagePullSecretSchema: Schemas["imagePullSecretSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imagePullSecretSchema);

/**
 * `ImagePullServiceAccount` as accepted from callers.
 */
export const imagePullServiceAccountSchema: Schemas["imagePullServiceAccountSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imagePullServiceAccountSchema);

/**
 * `ImagePullCredentials` as accepted from callers (the v1beta1 field names;
 * every field optional), normalized to {@link ImagePullCredentials}.
 */
export const imagePullCredentialsSchema: Schemas["imagePullCredentialsSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().imagePullCredentialsSchema);

/**
 * What callers may pass as credentials (before normalization): the v1beta1
 * field names, every field optional, `credentialHash` defaulting to `""`.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type ImagePullCredentialsInput,
 *   MemoryPullRecordStore,
 *   PullManager,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const store = new MemoryPullRecordStore();
 * const manager = await PullManager.open({ store, clock: { now: Date.now }, policy: createVerificationPolicy() });
 * // No credentialHash: the kubelet's "hashing failed", stored as "".
 * const creds: ImagePullCredentialsInput = {
 *   kubernetesSecrets: [{ uid: "9d3c", namespace: "team-a", name: "regcred" }],
 * };
 * await manager.recordImagePulled("nginx:1.25", "sha256:1111", creds);
 * const record = await store.getPulledRecord("sha256:1111");
 * console.log(record?.credentialMapping.get("docker.io/library/nginx")?.kubernetesSecrets);
 * // [ { uid: '9d3c', namespace: 'team-a', name: 'regcred', credentialHash: '' } ]
 * ```
 */
export interface ImagePullCredentialsInput {
  readonly kubernetesSecrets?:
    | readonly (Omit<ImagePullSecret, "credentialHash"> & { readonly credentialHash?: string })[]
    | null;
  readonly kubernetesServiceAccounts?: readonly ImagePullServiceAccount[] | null;
  readonly nodePodsAccessible?: boolean | null;
}

/**
 * Validates and normalizes caller credentials; `null` stays `null` (pulled
 * under unknown circumstances). Throws `PullRecordError` `INVALID_ARGUMENT`
 * naming the bad field.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 * import type { ImagePullCredentialsInput } from "@kubeimg/policy/pull-credentials";
 *
 * console.log(pullCredentials.parseImagePullCredentials({ nodePodsAccessible: true }));
 * // { kubernetesSecrets: [], kubernetesServiceAccounts: [], nodePodsAccessible: true }
 * const untrusted: unknown = JSON.parse('{"kubernetesSecrets":[{"uid":"u"}]}');
 * pullCredentials.parseImagePullCredentials(untrusted as ImagePullCredentialsInput); // throws INVALID_ARGUMENT
 * // invalid credentials at kubernetesSecrets.0.namespace: …
 * ```
 */
export function parseImagePullCredentials(
  input: ImagePullCredentialsInput | ImagePullCredentials | null,
): ImagePullCredentials | null {
  if (input === null) return null;
  const r = safeParseEnglish(imagePullCredentialsSchema, input);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new PullRecordError(
      "INVALID_ARGUMENT",
      `invalid credentials at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return r.data;
}

function isIdentity(v: unknown): v is { uid: string; namespace: string; name: string } {
  if (v === null || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return typeof o.uid === "string" && typeof o.namespace === "string" && typeof o.name === "string";
}

/**
 * Checks the pod credentials a getter returned (hand-written: this runs on
 * the decision path). Throws `PullRecordError` `INVALID_ARGUMENT`.
 */
export function parsePodSecrets(value: unknown): {
  secrets: readonly ImagePullSecret[];
  serviceAccount: ImagePullServiceAccount | undefined;
} {
  const bad = (where: string): never => {
    throw new PullRecordError("INVALID_ARGUMENT", `invalid pod credentials at ${where}`);
  };
  if (value === null || typeof value !== "object") return bad("(root)");
  const { secrets, serviceAccount } = value as { secrets?: unknown; serviceAccount?: unknown };
  if (!Array.isArray(secrets)) return bad("secrets");
  let list = secrets as ImagePullSecret[];
  for (let i = 0; i < secrets.length; i++) {
    const s = secrets[i] as {
      uid: string;
      namespace: string;
      name: string;
      credentialHash?: unknown;
    };
    if (!isIdentity(s)) bad(`secrets.${i}`);
    if (s.credentialHash === undefined) {
      // A missing hash is the kubelet's "hashing failed": "".
      if (list === secrets) list = [...secrets];
      list[i] = { uid: s.uid, namespace: s.namespace, name: s.name, credentialHash: "" };
    } else if (typeof s.credentialHash !== "string") {
      bad(`secrets.${i}.credentialHash`);
    }
  }
  if (serviceAccount !== undefined && serviceAccount !== null && !isIdentity(serviceAccount)) {
    bad("serviceAccount");
  }
  return {
    secrets: list,
    serviceAccount: (serviceAccount ?? undefined) as ImagePullServiceAccount | undefined,
  };
}

/**
 * A record in its JSON (file) shape, without `kind` and `apiVersion`.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const json = pullCredentials.pulledRecordToJson({
 *   lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
 *   imageRef: "sha256:1111",
 *   credentialMapping: new Map(),
 * });
 * console.log(json); // { lastUpdatedTime: '2025-01-01T00:00:00Z', imageRef: 'sha256:1111' }
 * ```
 */
export interface ImagePulledRecordJson {
  lastUpdatedTime: string | null;
  imageRef: string;
  credentialMapping?: Record<string, ImagePullCredentialsJson>;
}

/**
 * Credentials in their JSON (file) shape: empty lists and `false` omitted.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const nodeWide = { kubernetesSecrets: [], kubernetesServiceAccounts: [], nodePodsAccessible: true };
 * const json = pullCredentials.pulledRecordToJson({
 *   lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
 *   imageRef: "sha256:1111",
 *   credentialMapping: new Map([["docker.io/library/nginx", nodeWide]]),
 * });
 * console.log(json.credentialMapping?.["docker.io/library/nginx"]); // { nodePodsAccessible: true }
 * ```
 */
export interface ImagePullCredentialsJson {
  kubernetesSecrets?: ImagePullSecret[];
  kubernetesServiceAccounts?: ImagePullServiceAccount[];
  nodePodsAccessible?: true;
}

/**
 * Returns the record as the JSON object the file holds (minus `kind` and
 * `apiVersion`): empty parts omitted, time in RFC 3339 whole seconds.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const record = {
 *   lastUpdatedTime: new Date("2025-01-01T00:00:00.750Z"),
 *   imageRef: "sha256:1111",
 *   credentialMapping: new Map(),
 * };
 * console.log(JSON.stringify(pullCredentials.pulledRecordToJson(record)));
 * // {"lastUpdatedTime":"2025-01-01T00:00:00Z","imageRef":"sha256:1111"}
 * ```
 */
export function pulledRecordToJson(record: ImagePulledRecord): ImagePulledRecordJson {
  const encoded = JSON.parse(encodePulledRecordFile(record)) as ImagePulledRecordJson & {
    kind?: string;
    apiVersion?: string;
  };
  delete encoded.kind;
  delete encoded.apiVersion;
  return encoded;
}

/**
 * Reads a record from its JSON shape (as in the v1beta1 file, `kind` and
 * `apiVersion` optional) with the same strictness as the file decoder.
 * Throws `PullRecordError` `DECODE_ERROR`.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const record = pullCredentials.pulledRecordFromJson({
 *   lastUpdatedTime: "2025-01-01T00:00:00Z",
 *   imageRef: "sha256:1111",
 * });
 * console.log(record.lastUpdatedTime.toISOString(), record.credentialMapping.size); // 2025-01-01T00:00:00.000Z 0
 * pullCredentials.pulledRecordFromJson({ imageRef: "sha256:1111", extra: 1 }); // throws DECODE_ERROR
 * ```
 */
export function pulledRecordFromJson(value: unknown): ImagePulledRecord {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new PullRecordError("DECODE_ERROR", "a pulled record must be a JSON object");
  }
  const withMeta = { kind: "ImagePulledRecord", apiVersion: currentRecordApiVersion, ...value };
  return decodePulledRecordFile(JSON.stringify(withMeta)).object;
}
