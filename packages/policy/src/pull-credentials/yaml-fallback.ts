/**
 * The other half of the kubelet's record decoder: apimachinery's universal
 * decoder hands content that does not start with `{` (after Unicode
 * whitespace) to its YAML serializer, which converts YAML to JSON
 * (`sigs.k8s.io/yaml`, YAML 1.1 scalars, duplicate keys refused in strict
 * mode, timestamps kept as strings) before the same strict decoding. So a
 * hand-written YAML record, or JSON behind a byte order mark, is readable.
 */

import type { json } from "@kubeimg/core/internal";
import { parseDocument } from "#yaml";
import {
  boundedValues,
  DEFAULT_MAX_EXPANDED_NODES,
  describeYamlProblem,
} from "../objects/yaml-documents.js";

/** Thrown when the content is not YAML the kubelet's converter accepts. */
export class YamlConversionError extends Error {
  override readonly name = "YamlConversionError";
}

/** True when apimachinery would treat `text` as JSON: `{` after leading Unicode whitespace. */
export function looksLikeJson(text: string, isSpace: (code: number) => boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isSpace(c)) return c === 0x7b;
  }
  return false;
}

/** Go's key conversion in `sigs.k8s.io/yaml`: strings as they are, numbers and booleans formatted. */
function keyString(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number" && Number.isFinite(key)) return String(key);
  if (typeof key === "boolean") return key ? "true" : "false";
  throw new YamlConversionError(`unsupported map key ${String(key)}`);
}

function toJsonValue(value: unknown): json.StrictValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new YamlConversionError("non-finite number");
    return value;
  }
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value instanceof Map) {
    const out: json.StrictObject = new Map();
    for (const [k, v] of value) {
      const key = keyString(k);
      if (out.has(key)) throw new YamlConversionError(`duplicate field ${JSON.stringify(key)}`);
      out.set(key, toJsonValue(v));
    }
    return out;
  }
  throw new YamlConversionError(`unsupported YAML value of type ${typeof value}`);
}

/** Converts YAML content to a JSON value as the kubelet's YAML serializer would; throws `YamlConversionError`. */
export function parseYamlLikeKubernetes(text: string): json.StrictValue {
  const doc = parseDocument(text, {
    version: "1.1",
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
    // Go's YAML library hands timestamp-looking scalars to untyped targets as strings.
    customTags: (tags) =>
      tags.filter(
        (t) =>
          typeof t === "string" ||
          (t.tag !== "tag:yaml.org,2002:timestamp" && !String(t.format ?? "").includes("TIME")),
      ),
  });
  // The one bounded step every YAML reader of the package shares: a record
  // whose aliases expand past the bound is refused before any value is built.
  const read = boundedValues([doc], {
    maxExpandedNodes: DEFAULT_MAX_EXPANDED_NODES,
    mapAsMap: true,
  });
  if (!read.ok) {
    const { problem } = read;
    throw new YamlConversionError(
      problem.kind === "syntax" ? problem.message : describeYamlProblem(problem),
    );
  }
  return toJsonValue(read.values[0] ?? null);
}
