/**
 * The image names the client works with. A structural type, so the
 * `NamedReference` values of `@kubeimg/core/reference` can be passed as they
 * are; plain image strings are read with `parseNormalizedNamed`.
 */
import {
  isImageReferenceError,
  type NamedReference,
  parseNormalizedNamed,
} from "@kubeimg/core/reference";
import { RegistryError } from "../errors/index.js";

/** A registry repository, optionally with a tag or digest (the shape of a normalised `NamedReference`). */
export interface RegistryImage {
  /** Registry host and port as written in the reference, e.g. `docker.io`, `localhost:5000`. */
  readonly domain: string;
  /** Repository path, e.g. `library/nginx`. */
  readonly path: string;
  readonly tag?: string | undefined;
  readonly digest?: string | undefined;
}

/** distribution/reference's grammar, smallest pieces first. */
const alphanumeric = "[a-z0-9]+";
/** One `.`, one or two `_`, or any run of `-`. */
const separator = "(?:[._]|__|[-]+)";
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const pathPattern = /*#__PURE__*/ new RegExp(`^${pathComponent}(?:/${pathComponent})*$`);
const domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const domainPattern = /*#__PURE__*/ new RegExp(
  `^(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?$`,
);
const tagPattern = /^[\w][\w.-]{0,127}$/;
const digestPattern = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;

/** Hex lengths of the registered digest algorithms; a wrong length makes distribution answer 500. */
const digestHexLength: Readonly<Record<string, number>> = { sha256: 64, sha512: 128 };

/** Returns true for `algorithm:encoded` with the right length for sha256/sha512. */
export function isDigest(value: string): boolean {
  if (!digestPattern.test(value)) return false;
  const [algorithm = "", hex = ""] = value.split(":");
  const length = digestHexLength[algorithm];
  return length === undefined || new RegExp(`^[a-f0-9]{${length}}$`).test(hex);
}

function invalid(input: string, why: string): never {
  throw new RegistryError(
    "INVALID_REFERENCE",
    `invalid image reference ${JSON.stringify(input)}: ${why}`,
    {
      reference: input,
    },
  );
}

/**
 * Returns the normalised name of an image string (`nginx:1.25` →
 * `docker.io` + `library/nginx` + tag `1.25`), read by
 * `@kubeimg/core/reference` exactly as distribution/reference does, or
 * throws a `RegistryError` with code `INVALID_REFERENCE`.
 */
export function parseRegistryImage(input: string): RegistryImage {
  let named: NamedReference;
  try {
    named = parseNormalizedNamed(input);
  } catch (cause) {
    const why = isImageReferenceError(cause) ? `${cause.message} (${cause.code})` : String(cause);
    throw new RegistryError(
      "INVALID_REFERENCE",
      `invalid image reference ${JSON.stringify(input)}: ${why}`,
      {
        reference: input,
        cause,
      },
    );
  }
  return checkRegistryImage({
    domain: named.domain,
    path: named.path,
    tag: named.tag,
    digest: named.digest,
  });
}

/** Returns `domain/path`, the repository name the kubelet keys credentials by. */
export function repositoryNameOf(image: RegistryImage): string {
  return `${image.domain}/${image.path}`;
}

/** Returns the image as a reference string, e.g. `quay.io/a/b:1.0@sha256:…`. */
export function imageString(image: RegistryImage): string {
  return `${repositoryNameOf(image)}${image.tag ? `:${image.tag}` : ""}${image.digest ? `@${image.digest}` : ""}`;
}

/** Validates a structural image name given by a caller (not parsed by us). */
export function checkRegistryImage(image: RegistryImage): RegistryImage {
  const text = imageString(image);
  if (!domainPattern.test(image.domain)) invalid(text, "malformed registry host");
  if (!pathPattern.test(image.path)) invalid(text, "malformed repository path");
  if (image.tag !== undefined && !tagPattern.test(image.tag)) invalid(text, "malformed tag");
  if (image.digest !== undefined && !isDigest(image.digest)) invalid(text, "malformed digest");
  return image;
}
