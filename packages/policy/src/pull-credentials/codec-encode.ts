/**
 * Writes intent and pulled-record files byte for byte as kubelet v1.35
 * does: Go's `encoding/json` field order and string escaping, `metav1.Time`
 * in RFC 3339 (null for Go's zero time), credential mappings sorted by key.
 */
import { json, strings, time, utf8 } from "@kubeimg/core/internal";
import { PullRecordError } from "./errors.js";
import { currentRecordApiVersion } from "./record-versions.js";
import type { ImagePullCredentials, ImagePulledRecord, ImagePullIntent } from "./types.js";

/** A string as the kubelet's `encoding/json` (Go 1.19, the vectors' Go) writes it. */
export const goJson = (s: string): string => json.Quote(s, "go1.19");

function encodeTime(d: Date): string {
  const ms = d.getTime();
  if (Number.isNaN(ms)) {
    throw new PullRecordError("INVALID_ARGUMENT", "lastUpdatedTime is not a valid date");
  }
  // metav1.Time writes Go's zero time as null.
  return ms === time.ZeroTimeMillis ? "null" : goJson(time.FormatRFC3339(ms));
}

function encodeCredentials(c: ImagePullCredentials): string {
  const parts: string[] = [];
  if (c.kubernetesSecrets.length > 0) {
    const items = c.kubernetesSecrets.map(
      (s) =>
        `{"uid":${goJson(s.uid)},"namespace":${goJson(s.namespace)},"name":${goJson(s.name)},"credentialHash":${goJson(s.credentialHash)}}`,
    );
    parts.push(`"kubernetesSecrets":[${items.join(",")}]`);
  }
  if (c.kubernetesServiceAccounts.length > 0) {
    const items = c.kubernetesServiceAccounts.map(
      (s) => `{"uid":${goJson(s.uid)},"namespace":${goJson(s.namespace)},"name":${goJson(s.name)}}`,
    );
    parts.push(`"kubernetesServiceAccounts":[${items.join(",")}]`);
  }
  if (c.nodePodsAccessible) parts.push(`"nodePodsAccessible":true`);
  return `{${parts.join(",")}}`;
}

/**
 * Returns the exact file content v1.35 writes for an intent
 * (`kubelet.config.k8s.io/v1beta1`, trailing newline).
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * process.stdout.write(pullCredentials.encodeIntentFile({ image: "nginx" }));
 * // {"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1beta1","image":"nginx"}
 * ```
 */
export function encodeIntentFile(intent: ImagePullIntent): string {
  return `{"kind":"ImagePullIntent","apiVersion":${goJson(currentRecordApiVersion)},"image":${goJson(intent.image)}}\n`;
}

/**
 * Returns the exact file content v1.35 writes for a pulled record.
 *
 * @example
 * ```ts
 * import { pullCredentials } from "@kubeimg/policy/internal";
 *
 * const text = pullCredentials.encodePulledRecordFile({
 *   lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
 *   imageRef: "r",
 *   credentialMapping: new Map(),
 * });
 * process.stdout.write(text);
 * // {"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1beta1","lastUpdatedTime":"2025-01-01T00:00:00Z","imageRef":"r"}
 * ```
 */
export function encodePulledRecordFile(record: ImagePulledRecord): string {
  let out = `{"kind":"ImagePulledRecord","apiVersion":${goJson(currentRecordApiVersion)},"lastUpdatedTime":${encodeTime(record.lastUpdatedTime)},"imageRef":${goJson(record.imageRef)}`;
  if (record.credentialMapping.size > 0) {
    const entries = [...record.credentialMapping].map(
      ([k, v]) => [utf8.toWellFormed(k), v] as const,
    );
    entries.sort((a, b) => strings.Compare(a[0], b[0]));
    out += `,"credentialMapping":{${entries.map(([k, v]) => `${goJson(k)}:${encodeCredentials(v)}`).join(",")}}`;
  }
  return `${out}}\n`;
}
