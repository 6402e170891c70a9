/**
 * The kubelet's credential keyring (`BasicDockerKeyring`,
 * `UnionDockerKeyring` in `pkg/credentialprovider/keyring.go`, Kubernetes
 * v1.35): registry keys normalised from docker config keys, an index sorted
 * in descending byte order, glob host labels, exact ports, path prefixes,
 * and the Docker Hub fallback.
 */

import * as net from "../internal/net.js";
import * as path from "../internal/path.js";
import * as url from "../internal/url.js";
import * as utf8 from "../internal/utf8.js";
import type { DockerConfig } from "./docker-config.js";

/** Where a credential came from: a pod's pull Secret, or the node (config files, credential providers).
 *
 * @inline
 */
export type CredentialSource =
  | {
      readonly kind: "secret";
      readonly namespace: string;
      readonly name: string;
      readonly uid: string;
    }
  | { readonly kind: "node" };

/** A credential returned by a keyring lookup, in the order the kubelet tries them. */
export interface TrackedCredential {
  readonly username: string;
  readonly password: string;
  readonly email: string;
  /** The kubelet's credential hash (lowercase hex SHA-256 of the Go JSON of username/password/email). */
  readonly credentialHash: string;
  /** The normalised key the credential is stored under, e.g. `index.docker.io` or `quay.io/team`. */
  readonly matchedKey: string;
  /** Where the credential came from. */
  readonly source: CredentialSource;
}

/**
 * Anything that returns credentials for an image, like the kubelet's
 * `DockerKeyring`.
 */
export interface DockerKeyring {
  /**
   * Returns every credential that applies to `image` (the kubelet passes
   * the normalised repository name without tag or digest, e.g.
   * `docker.io/library/nginx`), in the order to try them; empty when none.
   */
  lookup(image: string): readonly TrackedCredential[];
}

/** The key Docker Hub credentials are stored under once normalised. */
const defaultRegistryHost = "index.docker.io";

/**
 * Returns the keyring key for a docker config key (mirrors the key part of
 * `BasicDockerKeyring.Add`), or `undefined` when the kubelet would skip it.
 * Works on byte strings.
 */
function normalizeKeyBytes(location: string): string | undefined {
  const value =
    location.startsWith("https://") || location.startsWith("http://")
      ? location
      : `https://${location}`;
  const parsed = url.Parse(value);
  if (!parsed) return undefined;
  let urlPath = parsed.path;
  if (urlPath.startsWith("/v2/") || urlPath.startsWith("/v1/")) urlPath = urlPath.slice(3);
  return urlPath.length > 0 && urlPath !== "/" ? parsed.host + urlPath : parsed.host;
}

/**
 * Returns the key the kubelet stores a docker config key under: scheme,
 * userinfo, query and fragment dropped, a leading `/v1/` or `/v2/` cut to
 * `/`, a bare `/` path dropped. `undefined` when the key is not a valid URL
 * (the kubelet logs and ignores such entries).
 */
export function normalizeKeyringKey(key: string): string | undefined {
  const normalized = normalizeKeyBytes(utf8.toByteString(key));
  return normalized === undefined ? undefined : utf8.fromByteString(normalized);
}

function parseSchemeless(value: string) {
  return url.Parse(`https://${value}`);
}

/** Mirrors `URLsMatchStr`: whether the image matches the key, both byte strings. */
function keyMatches(key: string, image: string): boolean {
  const glob = parseSchemeless(key);
  const target = parseSchemeless(image);
  if (!glob || !target) return false;
  const g = net.SplitHostPortLoose(glob.host);
  const t = net.SplitHostPortLoose(target.host);
  if (g.port !== t.port) return false;
  const globLabels = g.host.split(".");
  const targetLabels = t.host.split(".");
  if (globLabels.length !== targetLabels.length) return false;
  if (!target.path.startsWith(glob.path)) return false;
  // Match reads code points, with a lone surrogate for each byte Go cannot decode.
  return globLabels.every(
    (label, i) =>
      path.Match(
        utf8.fromByteStringEscaped(label),
        utf8.fromByteStringEscaped(targetLabels[i] ?? ""),
      ) === true,
  );
}

/**
 * Returns whether the kubelet treats `image` as a Docker Hub image (mirrors
 * `isDefaultRegistryMatch`): the first `/` component is `docker.io` or
 * `index.docker.io`, or holds neither `.` nor `:`, or there is no `/`.
 */
export function isDefaultRegistryMatch(image: string): boolean {
  const slash = image.indexOf("/");
  const first = slash < 0 ? image : image.slice(0, slash);
  if (first.length === 0) return false;
  if (slash < 0) return true;
  if (first === "docker.io" || first === "index.docker.io") return true;
  return !/[.:]/.test(first);
}

interface StoredCredential {
  readonly username: string;
  readonly password: string;
  readonly email: string;
  readonly credentialHash: string;
  readonly source: CredentialSource;
}

/** One docker config added to a keyring, with where it came from (the node when omitted). */
export interface KeyringConfig {
  readonly config: DockerConfig;
  readonly source?: CredentialSource;
}

const nodeSource: CredentialSource = /*#__PURE__*/ Object.freeze({ kind: "node" });

class BasicDockerKeyring implements DockerKeyring {
  readonly #index: readonly string[];
  readonly #creds: ReadonlyMap<string, readonly StoredCredential[]>;

  constructor(configs: readonly KeyringConfig[]) {
    const creds = new Map<string, StoredCredential[]>();
    for (const { config, source } of configs) {
      for (const { key, entry } of config.auths) {
        const normalized = normalizeKeyBytes(utf8.toByteString(key));
        if (normalized === undefined) continue;
        const list = creds.get(normalized) ?? [];
        list.push({
          username: entry.username,
          password: entry.password,
          email: entry.email,
          credentialHash: entry.credentialHash,
          source: source ?? nodeSource,
        });
        creds.set(normalized, list);
      }
    }
    this.#creds = creds;
    // Byte strings compare bytewise, as Go's sort.Reverse(sort.StringSlice).
    this.#index = [...creds.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  }

  lookup(image: string): readonly TrackedCredential[] {
    const target = utf8.toByteString(image);
    const out: TrackedCredential[] = [];
    for (const key of this.#index) {
      if (keyMatches(key, target)) out.push(...this.#tracked(key));
    }
    if (out.length > 0) return out;
    if (isDefaultRegistryMatch(image)) return this.#tracked(defaultRegistryHost);
    return out;
  }

  #tracked(key: string): TrackedCredential[] {
    const matchedKey = utf8.fromByteString(key);
    return (this.#creds.get(key) ?? []).map((c) => ({ ...c, matchedKey }));
  }
}

/**
 * Returns a keyring holding the credentials of `configs` (mirrors
 * `BasicDockerKeyring.Add` called once per config). Credentials under one
 * key keep the order of `configs`.
 *
 * @example
 * ```ts
 * import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
 *
 * declare const text: string; // YAML text
 * const keyring = createDockerKeyring([{ config: parseDockerConfigJson(text) }]);
 * keyring.lookup("quay.io/team/app").map((c) => c.username);
 * ```
 */
export function createDockerKeyring(configs: readonly KeyringConfig[]): DockerKeyring {
  return new BasicDockerKeyring(configs);
}

/**
 * Returns a keyring whose lookup concatenates the lookups of `keyrings` in
 * order (mirrors `UnionDockerKeyring`): the kubelet puts the pod's Secret
 * keyring first and the node's keyring second.
 *
 * @example
 * ```ts
 * import { createDockerKeyring, parseDockerConfigJson, unionDockerKeyrings } from "@kubeimg/core/keyring";
 *
 * const keyringOf = (username: string) =>
 *   createDockerKeyring([
 *     { config: parseDockerConfigJson(JSON.stringify({ auths: { "quay.io": { username, password: "…" } } })) },
 *   ]);
 * const keyring = unionDockerKeyrings([keyringOf("pod"), keyringOf("node")]);
 * keyring.lookup("quay.io/team/app").map((c) => c.username); // → ["pod", "node"]
 * ```
 */
export function unionDockerKeyrings(
  keyrings: readonly (DockerKeyring | undefined)[],
): DockerKeyring {
  const members = keyrings.filter((k): k is DockerKeyring => k !== undefined);
  return { lookup: (image) => members.flatMap((k) => k.lookup(image)) };
}
