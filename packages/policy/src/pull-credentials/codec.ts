/**
 * The file format of the kubelet's records (`<root-dir>/image_manager/`), as
 * v1.35 reads and writes it.
 *
 * Reading accepts `kubelet.config.k8s.io/v1alpha1`, `…/v1beta1` and the
 * untagged internal version `…/__internal`, requires
 * `kind` and `apiVersion`, and is strict like apimachinery's strict JSON
 * serializer: case-sensitive field names, unknown or repeated fields are
 * errors, a JSON `null` leaves a field at its zero value (Go semantics), and a
 * file of the other kind is an error. Content that does not start with `{`
 * goes through the YAML path as in apimachinery's universal decoder.
 *
 * Writing produces exactly what the v1.35 kubelet writes: compact JSON from
 * Go's encoder (HTML-safe escaping) with one trailing newline; `kind`,
 * `apiVersion`, then the type's fields in declaration order; mapping keys
 * sorted by bytes; empty lists, `false` and an empty mapping omitted;
 * `credentialHash` always written; `lastUpdatedTime` in UTC whole seconds.
 */

import { json, time, unicode, utf8 } from "@kubeimg/core/internal";
import { PullRecordError } from "./errors.js";
import {
  currentRecordApiVersion,
  readableRecordApiVersions,
  recordApiGroup,
} from "./record-versions.js";
import type {
  ImagePullCredentials,
  ImagePulledRecord,
  ImagePullIntent,
  ImagePullSecret,
  ImagePullServiceAccount,
} from "./types.js";
import { looksLikeJson, parseYamlLikeKubernetes, YamlConversionError } from "./yaml-fallback.js";

/**
 * JSON field names of the record types. The versioned types (`v1alpha1`,
 * `v1beta1`) carry lower-camel JSON tags; the internal version, which the
 * kubelet's decoding scheme also registers (`…/__internal`), has no tags, so
 * its fields are spelled as the Go field names. `kind` and `apiVersion` are
 * the same in both.
 */
const fieldNames = {
  versioned: {
    image: "image",
    lastUpdatedTime: "lastUpdatedTime",
    imageRef: "imageRef",
    credentialMapping: "credentialMapping",
    kubernetesSecrets: "kubernetesSecrets",
    kubernetesServiceAccounts: "kubernetesServiceAccounts",
    nodePodsAccessible: "nodePodsAccessible",
    uid: "uid",
    namespace: "namespace",
    name: "name",
    credentialHash: "credentialHash",
  },
  internal: {
    image: "Image",
    lastUpdatedTime: "LastUpdatedTime",
    imageRef: "ImageRef",
    credentialMapping: "CredentialMapping",
    kubernetesSecrets: "KubernetesSecrets",
    kubernetesServiceAccounts: "KubernetesServiceAccounts",
    nodePodsAccessible: "NodePodsAccessible",
    uid: "UID",
    namespace: "Namespace",
    name: "Name",
    credentialHash: "CredentialHash",
  },
} as const;

type FieldNames = (typeof fieldNames)[keyof typeof fieldNames];

const internalApiVersion = `${recordApiGroup}/__internal`;

function fieldNamesFor(apiVersion: string): FieldNames {
  return apiVersion === internalApiVersion ? fieldNames.internal : fieldNames.versioned;
}

/**
 * Which directory a file belongs to: `pulling` holds intents, `pulled` holds records.
 */
export type RecordFileKind = "intent" | "pulled";

const kindNames: Record<RecordFileKind, string> = {
  intent: "ImagePullIntent",
  pulled: "ImagePulledRecord",
};

/**
 * A decoded record file: the object, the version it was written in, and
 * whether that is the version v1.35 writes (files in other versions are
 * rewritten at open).
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const text = '{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1alpha1","image":"nginx"}';
 * const d = pullCredentials.decodeIntentFile(text);
 * if (!d.isCurrentVersion) console.log(`will be migrated from ${d.apiVersion}`);
 * // will be migrated from kubelet.config.k8s.io/v1alpha1
 * ```
 */
export interface DecodedRecordFile<T> {
  readonly apiVersion: string;
  readonly kind: string;
  readonly isCurrentVersion: boolean;
  readonly object: T;
}

const emptyCredentials: ImagePullCredentials = Object.freeze({
  kubernetesSecrets: Object.freeze([]) as readonly ImagePullSecret[],
  kubernetesServiceAccounts: Object.freeze([]) as readonly ImagePullServiceAccount[],
  nodePodsAccessible: false,
});

class FieldError extends Error {
  override readonly name = "FieldError";
}

function fail(message: string): never {
  throw new FieldError(message);
}

function asObject(v: json.StrictValue | undefined, where: string): json.StrictObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (v instanceof Map) return v;
  return fail(`${where}: expected an object`);
}

function asString(v: json.StrictValue | undefined, where: string): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  return fail(`${where}: expected a string`);
}

function asBool(v: json.StrictValue | undefined, where: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean") return v;
  return fail(`${where}: expected a boolean`);
}

function asArray(v: json.StrictValue | undefined, where: string): json.StrictValue[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  return fail(`${where}: expected a list`);
}

function checkFields(obj: json.StrictObject, allowed: readonly string[], where: string): void {
  for (const key of obj.keys()) {
    if (!allowed.includes(key)) fail(`${where}: unknown field ${JSON.stringify(key)}`);
  }
}

function readSecret(v: json.StrictValue, f: FieldNames, where: string): ImagePullSecret {
  const o = asObject(v, where);
  if (o) checkFields(o, [f.uid, f.namespace, f.name, f.credentialHash], where);
  return Object.freeze({
    uid: asString(o?.get(f.uid), `${where}.${f.uid}`),
    namespace: asString(o?.get(f.namespace), `${where}.${f.namespace}`),
    name: asString(o?.get(f.name), `${where}.${f.name}`),
    credentialHash: asString(o?.get(f.credentialHash), `${where}.${f.credentialHash}`),
  });
}

function readServiceAccount(
  v: json.StrictValue,
  f: FieldNames,
  where: string,
): ImagePullServiceAccount {
  const o = asObject(v, where);
  if (o) checkFields(o, [f.uid, f.namespace, f.name], where);
  return Object.freeze({
    uid: asString(o?.get(f.uid), `${where}.${f.uid}`),
    namespace: asString(o?.get(f.namespace), `${where}.${f.namespace}`),
    name: asString(o?.get(f.name), `${where}.${f.name}`),
  });
}

function readCredentials(v: json.StrictValue, f: FieldNames, where: string): ImagePullCredentials {
  const o = asObject(v, where);
  if (!o) return emptyCredentials;
  checkFields(o, [f.kubernetesSecrets, f.kubernetesServiceAccounts, f.nodePodsAccessible], where);
  const secrets = `${where}.${f.kubernetesSecrets}`;
  const accounts = `${where}.${f.kubernetesServiceAccounts}`;
  return Object.freeze({
    kubernetesSecrets: Object.freeze(
      asArray(o.get(f.kubernetesSecrets), secrets).map((s, i) =>
        readSecret(s, f, `${secrets}[${i}]`),
      ),
    ),
    kubernetesServiceAccounts: Object.freeze(
      asArray(o.get(f.kubernetesServiceAccounts), accounts).map((s, i) =>
        readServiceAccount(s, f, `${accounts}[${i}]`),
      ),
    ),
    nodePodsAccessible: asBool(o.get(f.nodePodsAccessible), `${where}.${f.nodePodsAccessible}`),
  });
}

function readTime(v: json.StrictValue | undefined, where: string): Date {
  if (v === undefined || v === null) return new Date(time.ZeroTimeMillis);
  if (typeof v !== "string") fail(`${where}: expected an RFC 3339 timestamp`);
  const ms = time.ParseRFC3339(v);
  if (ms === undefined) fail(`${where}: ${JSON.stringify(v)} is not an RFC 3339 timestamp`);
  return new Date(ms);
}

function decodeTop(
  content: string | Uint8Array,
  kind: RecordFileKind,
): { apiVersion: string; obj: json.StrictObject } {
  const text = typeof content === "string" ? utf8.toWellFormed(content) : utf8.decodeBytes(content);
  const top = looksLikeJson(text, unicode.IsSpace)
    ? json.Decode(text, json.strict)
    : parseYamlLikeKubernetes(text);
  if (!(top instanceof Map)) fail("the file does not hold a JSON object");
  const fileKind = asString(top.get("kind"), "kind");
  const apiVersion = asString(top.get("apiVersion"), "apiVersion");
  if (fileKind === "") fail("Object 'Kind' is missing");
  if (apiVersion === "") fail("Object 'apiVersion' is missing");
  if (!readableRecordApiVersions.includes(apiVersion)) {
    fail(
      `no kind ${JSON.stringify(fileKind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  if (fileKind !== kindNames[kind]) {
    fail(`expected kind ${kindNames[kind]}, found ${JSON.stringify(fileKind)}`);
  }
  return { apiVersion, obj: top };
}

function wrapDecode<T>(kind: RecordFileKind, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (
      error instanceof FieldError ||
      error instanceof json.JsonSyntaxError ||
      error instanceof YamlConversionError
    ) {
      throw new PullRecordError(
        "DECODE_ERROR",
        `cannot decode ${kindNames[kind]}: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/**
 * Decodes the content of a file from `image_manager/pulling/`.
 *
 * Throws `PullRecordError` with code `DECODE_ERROR` for anything v1.35 would
 * not read (syntax, unknown or repeated field, missing `kind`/`apiVersion`,
 * unknown version, a record instead of an intent).
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const decoded = pullCredentials.decodeIntentFile(
 *   '{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1alpha1","image":"nginx"}',
 * );
 * console.log(decoded);
 * // {
 * //   apiVersion: 'kubelet.config.k8s.io/v1alpha1',
 * //   kind: 'ImagePullIntent',
 * //   isCurrentVersion: false,
 * //   object: { image: 'nginx' }
 * // }
 * pullCredentials.decodeIntentFile('{"kind":"ImagePullIntent"}'); // throws DECODE_ERROR
 * ```
 */
export function decodeIntentFile(content: string | Uint8Array): DecodedRecordFile<ImagePullIntent> {
  return wrapDecode("intent", () => {
    const { apiVersion, obj } = decodeTop(content, "intent");
    const f = fieldNamesFor(apiVersion);
    checkFields(obj, ["kind", "apiVersion", f.image], "ImagePullIntent");
    return {
      apiVersion,
      kind: kindNames.intent,
      isCurrentVersion: apiVersion === currentRecordApiVersion,
      object: Object.freeze({ image: asString(obj.get(f.image), f.image) }),
    };
  });
}

/**
 * Decodes the content of a file from `image_manager/pulled/`.
 *
 * Throws `PullRecordError` with code `DECODE_ERROR` for anything v1.35 would
 * not read. A `null` or missing `lastUpdatedTime` is Go's zero time.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const { object } = pullCredentials.decodePulledRecordFile(
 *   JSON.stringify({
 *     kind: "ImagePulledRecord",
 *     apiVersion: "kubelet.config.k8s.io/v1beta1",
 *     lastUpdatedTime: "2025-01-01T00:00:00Z",
 *     imageRef: "sha256:1111",
 *     credentialMapping: { "docker.io/library/nginx": { nodePodsAccessible: true } },
 *   }),
 * );
 * console.log(object.credentialMapping.get("docker.io/library/nginx"));
 * // { kubernetesSecrets: [], kubernetesServiceAccounts: [], nodePodsAccessible: true }
 * ```
 */
export function decodePulledRecordFile(
  content: string | Uint8Array,
): DecodedRecordFile<ImagePulledRecord> {
  return wrapDecode("pulled", () => {
    const { apiVersion, obj } = decodeTop(content, "pulled");
    const f = fieldNamesFor(apiVersion);
    checkFields(
      obj,
      ["kind", "apiVersion", f.lastUpdatedTime, f.imageRef, f.credentialMapping],
      "ImagePulledRecord",
    );
    const mapping = new Map<string, ImagePullCredentials>();
    const rawMapping = asObject(obj.get(f.credentialMapping), f.credentialMapping);
    if (rawMapping) {
      for (const [key, value] of rawMapping) {
        mapping.set(
          key,
          readCredentials(value, f, `${f.credentialMapping}[${JSON.stringify(key)}]`),
        );
      }
    }
    return {
      apiVersion,
      kind: kindNames.pulled,
      isCurrentVersion: apiVersion === currentRecordApiVersion,
      object: Object.freeze({
        lastUpdatedTime: readTime(obj.get(f.lastUpdatedTime), f.lastUpdatedTime),
        imageRef: asString(obj.get(f.imageRef), f.imageRef),
        credentialMapping: mapping,
      }),
    };
  });
}

export { encodeIntentFile, encodePulledRecordFile } from "./codec-encode.js";
export {
  currentRecordApiVersion,
  readableRecordApiVersions,
  recordApiGroup,
} from "./record-versions.js";
