/**
 * The image-reference grammar of containers/image v5.36.1 (its own copy of
 * docker/reference), which registries.conf matching and short-name
 * resolution run on. It is older than the distribution/reference that
 * `@kubeimg/core/reference` follows: no IPv6 literals in the domain, and
 * `ParseNamed` demands the canonical (normalized) spelling. The patterns are
 * rewritten into forms with the same language and the same submatches that
 * a backtracking engine runs in linear time.
 */
import { DigestError, parseDigest } from "@kubeimg/core/digest";

const nameComponent = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const domainComponent = "[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?";
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const tag = "[\\w][\\w.-]{0,127}";
const digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}";
const namePat = `(?:${domain}/)?${nameComponent}(?:/${nameComponent})*`;
const referenceRegexp = new RegExp(`^(${namePat})(?::(${tag}))?(?:@(${digest}))?$`);
const anchoredName = new RegExp(`^(?:(${domain})/)?(${nameComponent}(?:/${nameComponent})*)$`);
/** `^(domain)$`, which registries.conf's unqualified-search entries must match. */
export const anchoredDomainRegexp = new RegExp(`^${domain}$`);
const anchoredIdentifier = /^[a-f0-9]{64}$/;

const NAME_TOTAL_LENGTH_MAX = 255;

/** A parsed reference of containers/image's grammar. */
export interface ContainersImageReference {
  /** Domain part of the name as the grammar splits it (`""` when none). */
  readonly domain: string;
  readonly path: string;
  readonly tag: string | undefined;
  readonly digest: string | undefined;
}

/** Why a string is not a reference, with Go's message. */
export class ContainersImageReferenceError extends Error {
  override readonly name = "ContainersImageReferenceError";
}

/** The name: `domain/path` or `path`. */
export function ciName(ref: ContainersImageReference): string {
  return ref.domain === "" ? ref.path : `${ref.domain}/${ref.path}`;
}

/** The full string: name, `:tag`, `@digest`. */
export function ciString(ref: ContainersImageReference): string {
  return `${ciName(ref)}${ref.tag !== undefined ? `:${ref.tag}` : ""}${ref.digest !== undefined ? `@${ref.digest}` : ""}`;
}

/** `reference.Parse`: no normalization. */
export function ciParse(s: string): ContainersImageReference {
  const m = referenceRegexp.exec(s);
  if (m === null) {
    if (s === "")
      throw new ContainersImageReferenceError("repository name must have at least one component");
    if (referenceRegexp.test(s.toLowerCase())) {
      throw new ContainersImageReferenceError("repository name must be lowercase");
    }
    throw new ContainersImageReferenceError("invalid reference format");
  }
  const name = m[1] as string;
  if (name.length > NAME_TOTAL_LENGTH_MAX) {
    throw new ContainersImageReferenceError(
      `repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`,
    );
  }
  const d = m[3];
  if (d !== undefined) {
    // go-digest's own text names the rule broken (format, length, algorithm).
    try {
      parseDigest(d);
    } catch (error) {
      if (error instanceof DigestError) throw new ContainersImageReferenceError(error.message);
      throw error;
    }
  }
  const split = anchoredName.exec(name) as RegExpExecArray;
  return { domain: split[1] ?? "", path: split[2] as string, tag: m[2], digest: d };
}

function splitDockerDomain(name: string): [string, string] {
  const i = name.indexOf("/");
  let d: string;
  let remainder: string;
  if (i === -1 || (!/[.:]/.test(name.slice(0, i)) && name.slice(0, i) !== "localhost")) {
    d = "docker.io";
    remainder = name;
  } else {
    d = name.slice(0, i);
    remainder = name.slice(i + 1);
  }
  if (d === "index.docker.io") d = "docker.io";
  if (d === "docker.io" && !remainder.includes("/")) remainder = `library/${remainder}`;
  return [d, remainder];
}

/** `reference.ParseNormalizedNamed`. */
export function ciParseNormalizedNamed(s: string): ContainersImageReference {
  if (anchoredIdentifier.test(s)) {
    throw new ContainersImageReferenceError(
      `invalid repository name (${s}), cannot specify 64-byte hexadecimal strings`,
    );
  }
  const [d, remainder] = splitDockerDomain(s);
  const tagSep = remainder.indexOf(":");
  const remoteName = tagSep > -1 ? remainder.slice(0, tagSep) : remainder;
  if (remoteName.toLowerCase() !== remoteName) {
    throw new ContainersImageReferenceError(
      "invalid reference format: repository name must be lowercase",
    );
  }
  return ciParse(`${d}/${remainder}`);
}

/** `reference.ParseNamed`: normalized, and the input must already be the canonical spelling. */
export function ciParseNamed(s: string): ContainersImageReference {
  const ref = ciParseNormalizedNamed(s);
  if (ciString(ref) !== s)
    throw new ContainersImageReferenceError("repository name must be canonical");
  return ref;
}

/** `reference.TagNameOnly`: adds `:latest` when there is neither tag nor digest. */
export function ciTagNameOnly(ref: ContainersImageReference): ContainersImageReference {
  return ref.tag === undefined && ref.digest === undefined ? { ...ref, tag: "latest" } : ref;
}

/** `reference.TrimNamed`. */
export function ciTrim(ref: ContainersImageReference): ContainersImageReference {
  return { domain: ref.domain, path: ref.path, tag: undefined, digest: undefined };
}
