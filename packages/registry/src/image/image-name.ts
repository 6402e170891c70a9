/**
 * The image names the client works with. A structural type, so the
 * `NamedReference` values of `@kubeimg/core/reference` can be passed as they
 * are. Image strings are read, and structural names checked, by
 * `@kubeimg/core/reference` (distribution/reference's grammar and go-digest's
 * rules, with its own error codes kept in the message); this module only
 * turns its errors into the client's `INVALID_REFERENCE`.
 */
import { isValidDigest } from "@kubeimg/core/digest";
import {
  ImageReferenceError,
  isNamedReference,
  type NamedReference,
  parse,
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

/** Returns true for a digest go-digest accepts (`sha256`, `sha384`, `sha512`, lower-case hex of the right length). */
export function isDigest(value: string): boolean {
  return isValidDigest(value);
}

function invalid(input: string, why: string, cause?: unknown): never {
  throw new RegistryError(
    "INVALID_REFERENCE",
    `invalid image reference ${JSON.stringify(input)}: ${why}`,
    { reference: input, ...(cause === undefined ? {} : { cause }) },
  );
}

function whyOf(cause: unknown): string {
  return cause instanceof ImageReferenceError ? `${cause.message} (${cause.code})` : "unreadable";
}

/**
 * Returns the normalised name of an image string (`nginx:1.25` →
 * `docker.io` + `library/nginx` + tag `1.25`), read by
 * `@kubeimg/core/reference` exactly as distribution/reference does (the
 * reference itself, which the client then uses without reading it again), or
 * throws a `RegistryError` with code `INVALID_REFERENCE`.
 */
export function parseRegistryImage(input: string): NamedReference {
  if (typeof input !== "string") invalid(String(input), "not a string");
  try {
    return parseNormalizedNamed(input);
  } catch (cause) {
    invalid(input, whyOf(cause), cause);
  }
}

/** Returns `domain/path`, the repository name the kubelet keys credentials by. */
export function repositoryNameOf(image: RegistryImage): string {
  return `${image.domain}/${image.path}`;
}

/** Returns the image as a reference string, e.g. `quay.io/a/b:1.0@sha256:…`. */
export function imageString(image: RegistryImage): string {
  return `${repositoryNameOf(image)}${image.tag ? `:${image.tag}` : ""}${image.digest ? `@${image.digest}` : ""}`;
}

const optionalString = (value: unknown) => value === undefined || typeof value === "string";

/**
 * Validates an image name given by a caller: a reference core's parser made
 * (with a registry host) is used as it is; any other object's string form
 * must parse (distribution's `Parse`) back into the same domain, path, tag
 * and digest.
 */
export function checkRegistryImage(image: RegistryImage): RegistryImage {
  if (isNamedReference(image) && image.domain !== "") return image;
  const given = image as unknown as Record<string, unknown> | null;
  if (
    typeof given !== "object" ||
    given === null ||
    typeof given.domain !== "string" ||
    typeof given.path !== "string" ||
    !optionalString(given.tag) ||
    !optionalString(given.digest)
  ) {
    invalid(
      String(typeof given === "object" && given !== null ? "(object)" : given),
      "not an image name: { domain, path, tag?, digest? } of strings",
    );
  }
  const text = imageString(image);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text);
  } catch (cause) {
    invalid(text, whyOf(cause), cause);
  }
  const named = parsed as Partial<NamedReference>;
  if (named.domain !== image.domain || named.path !== image.path) {
    invalid(text, "the registry host and repository path do not read back as given");
  }
  if (named.tag !== image.tag || named.digest !== image.digest) {
    invalid(text, "the tag or digest does not read back as given");
  }
  return image;
}
