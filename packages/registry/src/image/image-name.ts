/**
 * The image names the client works with. A structural type, so the
 * `NamedReference` values of `@kubeimg/core/reference` can be passed as they
 * are; plain image strings are read by {@link parseImageName}, which follows
 * the distribution/reference normalisation (Docker Hub domain, `library/`).
 */
import { RegistryError } from "../errors/index.js";

/** A registry repository, optionally with a tag or digest (the shape of a normalised `NamedReference`). */
export interface ImageName {
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
const pathPattern = new RegExp(`^${pathComponent}(?:/${pathComponent})*$`);
const domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const domainPattern = new RegExp(
  `^(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?$`,
);
const tagPattern = /^[\w][\w.-]{0,127}$/;
const digestPattern = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;

const DOCKER_HUB = "docker.io";

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
 * `docker.io` + `library/nginx` + tag `1.25`), or throws a
 * `RegistryError` with code `INVALID_REFERENCE`.
 */
export function parseImageName(input: string): ImageName {
  if (input.length === 0) invalid(input, "empty");
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!isDigest(digest)) invalid(input, "malformed digest");
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(":");
  if (colon > rest.lastIndexOf("/")) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagPattern.test(tag)) invalid(input, "malformed tag");
  }
  let domain = DOCKER_HUB;
  let path = rest;
  const slash = rest.indexOf("/");
  const first = slash >= 0 ? rest.slice(0, slash) : "";
  if (
    slash >= 0 &&
    (/[.:]/.test(first) || first === "localhost" || first.toLowerCase() !== first)
  ) {
    domain = first;
    path = rest.slice(slash + 1);
  }
  if (domain === "index.docker.io") domain = DOCKER_HUB;
  if (domain === DOCKER_HUB && !path.includes("/")) path = `library/${path}`;
  if (!domainPattern.test(domain)) invalid(input, "malformed registry host");
  if (!pathPattern.test(path)) invalid(input, "repository name must be lowercase path components");
  if (domain.length + 1 + path.length > 255)
    invalid(input, "repository name longer than 255 characters");
  return { domain, path, tag, digest };
}

/** Returns `domain/path`, the repository name the kubelet keys credentials by. */
export function repositoryNameOf(image: ImageName): string {
  return `${image.domain}/${image.path}`;
}

/** Returns the image as a reference string, e.g. `quay.io/a/b:1.0@sha256:…`. */
export function imageString(image: ImageName): string {
  return `${repositoryNameOf(image)}${image.tag ? `:${image.tag}` : ""}${image.digest ? `@${image.digest}` : ""}`;
}

/** Validates a structural image name given by a caller (not parsed by us). */
export function checkImageName(image: ImageName): ImageName {
  const text = imageString(image);
  if (!domainPattern.test(image.domain)) invalid(text, "malformed registry host");
  if (!pathPattern.test(image.path)) invalid(text, "malformed repository path");
  if (image.tag !== undefined && !tagPattern.test(image.tag)) invalid(text, "malformed tag");
  if (image.digest !== undefined && !isDigest(image.digest)) invalid(text, "malformed digest");
  return image;
}
