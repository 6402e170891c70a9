/**
 * Reading the three documents platform resolution needs: an image index
 * (OCI index or Docker manifest list), an image manifest (for its config
 * descriptor), and the image config (for its platform, creation time and
 * labels). Every field we use is type-checked and a wrong one is an
 * `INVALID_RESPONSE` error naming it; fields we do not use are left alone,
 * as the OCI image spec tells readers to ignore unknown properties.
 */
import type { Platform } from "@kubeimg/core/platform";
import { RegistryError } from "../errors/index.js";
import { isDigest } from "../image/image-name.js";

/** The index media types: an OCI image index or a Docker manifest list. */
export const INDEX_MEDIA_TYPES: ReadonlySet<string> = /*#__PURE__*/ new Set([
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
]);

/** The single-image manifest media types. */
export const IMAGE_MANIFEST_MEDIA_TYPES: ReadonlySet<string> = /*#__PURE__*/ new Set([
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.docker.distribution.manifest.v2+json",
]);

/**
 * The annotation BuildKit puts on the manifests it adds to an index to carry
 * provenance and SBOM attestations (their platform is `unknown/unknown`);
 * they are not images and are never chosen for a node.
 */
export const ATTESTATION_REFERENCE_TYPE = "vnd.docker.reference.type";

/** One entry of an image index.
 *
 * @inline
 */
export interface IndexEntry {
  /** Position in the index's `manifests` list. */
  readonly position: number;
  readonly digest: string;
  readonly mediaType: string;
  readonly size: number;
  /** The platform the entry states, all five parts present; `undefined` when it states none. */
  readonly platform: Platform | undefined;
  /** The entry's annotations (an object without a prototype). */
  readonly annotations: Readonly<Record<string, string>>;
  /** True for a BuildKit attestation manifest (`vnd.docker.reference.type: attestation-manifest`). */
  readonly attestation: boolean;
}

/** What platform resolution reads from an image config.
 *
 * @inline
 */
export interface ImageConfigSummary {
  readonly os: string;
  readonly architecture: string;
  readonly variant: string;
  readonly osVersion: string;
  readonly osFeatures: readonly string[];
  /** The config's `created` timestamp as written (RFC 3339), when present. */
  readonly created: string | undefined;
  /** `config.Labels` (an object without a prototype; empty when absent or null). */
  readonly labels: Readonly<Record<string, string>>;
}

/** A content descriptor as a manifest names its config.
 *
 * @inline
 */
export interface BlobDescriptor {
  readonly digest: string;
  readonly mediaType: string;
  readonly size: number;
}

type Context = { readonly reference: string };

function invalid(context: Context, what: string): never {
  throw new RegistryError("INVALID_RESPONSE", `${context.reference}: ${what}`, {
    reference: context.reference,
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function optionalString(
  record: Record<string, unknown>,
  key: string,
  field: string,
  context: Context,
): string {
  const value = own(record, key);
  if (value === undefined) return "";
  if (typeof value !== "string") invalid(context, `${field} must be a string`);
  return value;
}

function stringMap(
  value: unknown,
  field: string,
  context: Context,
): Readonly<Record<string, string>> {
  const out: Record<string, string> = Object.create(null);
  if (value === undefined || value === null) return out;
  if (!isObject(value)) invalid(context, `${field} must be an object of strings`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") invalid(context, `${field}[${JSON.stringify(k)}] must be a string`);
    out[k] = v;
  }
  return out;
}

function stringList(value: unknown, field: string, context: Context): readonly string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    invalid(context, `${field} must be a list of strings`);
  }
  return value as string[];
}

/** Reads a descriptor's `digest`, `mediaType` and `size`. */
export function readDescriptor(value: unknown, field: string, context: Context): BlobDescriptor {
  if (!isObject(value)) invalid(context, `${field} must be an object`);
  const digest = own(value, "digest");
  if (typeof digest !== "string" || !isDigest(digest))
    invalid(context, `${field}.digest is not a valid digest`);
  const mediaType = own(value, "mediaType");
  if (typeof mediaType !== "string") invalid(context, `${field}.mediaType must be a string`);
  const size = own(value, "size");
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) {
    invalid(context, `${field}.size must be a non-negative integer`);
  }
  return { digest, mediaType, size };
}

function readPlatform(value: unknown, field: string, context: Context): Platform | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) invalid(context, `${field} must be an object`);
  const os = own(value, "os");
  const architecture = own(value, "architecture");
  if (typeof os !== "string") invalid(context, `${field}.os must be a string`);
  if (typeof architecture !== "string") invalid(context, `${field}.architecture must be a string`);
  return {
    os,
    architecture,
    variant: optionalString(value, "variant", `${field}.variant`, context),
    osVersion: optionalString(value, "os.version", `${field}["os.version"]`, context),
    osFeatures: stringList(own(value, "os.features"), `${field}["os.features"]`, context),
  };
}

/** Reads the `manifests` of an image index. */
export function readIndex(document: unknown, context: Context): IndexEntry[] {
  if (!isObject(document)) invalid(context, "index is not a JSON object");
  const manifests = own(document, "manifests");
  if (!Array.isArray(manifests)) invalid(context, "index manifests must be a list");
  return manifests.map((item, position) => {
    const field = `index manifests[${position}]`;
    const descriptor = readDescriptor(item, field, context);
    const record = item as Record<string, unknown>;
    const annotations = stringMap(own(record, "annotations"), `${field}.annotations`, context);
    return {
      position,
      ...descriptor,
      platform: readPlatform(own(record, "platform"), `${field}.platform`, context),
      annotations,
      attestation: annotations[ATTESTATION_REFERENCE_TYPE] === "attestation-manifest",
    };
  });
}

/** Reads the config descriptor of an image manifest. */
export function readManifestConfig(document: unknown, context: Context): BlobDescriptor {
  if (!isObject(document)) invalid(context, "manifest is not a JSON object");
  return readDescriptor(own(document, "config"), "manifest config", context);
}

/** Reads the platform, `created` and labels of an image config blob. */
export function readImageConfig(bytes: Uint8Array, context: Context): ImageConfigSummary {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new RegistryError("INVALID_RESPONSE", `${context.reference}: image config is not JSON`, {
      reference: context.reference,
      cause,
    });
  }
  if (!isObject(document)) invalid(context, "image config is not a JSON object");
  const created = own(document, "created");
  if (created !== undefined && created !== null && typeof created !== "string") {
    invalid(context, "image config created must be a string");
  }
  const config = own(document, "config");
  if (config !== undefined && config !== null && !isObject(config)) {
    invalid(context, "image config config must be an object");
  }
  return {
    os: optionalString(document, "os", "image config os", context),
    architecture: optionalString(document, "architecture", "image config architecture", context),
    variant: optionalString(document, "variant", "image config variant", context),
    osVersion: optionalString(document, "os.version", 'image config "os.version"', context),
    osFeatures: stringList(own(document, "os.features"), 'image config "os.features"', context),
    created: typeof created === "string" ? created : undefined,
    labels: stringMap(
      isObject(config) ? own(config, "Labels") : undefined,
      "image config config.Labels",
      context,
    ),
  };
}
