/**
 * The key layout of the shared availability state. Every key is
 * `<prefix>{<tag>}:v1:<what>`: the prefix separates deployments sharing one
 * server, the `{tag}` is a Redis Cluster hash tag, so that the keys one
 * command or script touches together always live in one slot, and `v1` is
 * the layout's version (a writer of another layout never reads ours).
 *
 * - An image's verdict and its single-flight marker share the tag of the
 *   image (`peekProbe` reads both with one MGET).
 * - A registry's failure count, open circuit, tripped flag and trial marker
 *   share the tag of the registry (`recordFailure` updates two of them in one
 *   script).
 *
 * Tags are SHA-256 digests (128 bits, hex) of the image key and of the
 * registry name: no image name, secret name or host appears in a key, and
 * key length does not depend on user input.
 */
import { createHash } from "node:crypto";
import type { VerdictKey } from "@kubeimg/policy/availability";
import { verdictKeyString } from "@kubeimg/policy/internal/availability";
import { RedisStateError } from "./errors.js";

/** Characters a prefix may use: no braces (they would become the hash tag), no spaces. */
const PREFIX_PATTERN = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,63}$/;

/** The version segment of every key; values carry their own version too. */
export const LAYOUT_VERSION = "v1";

/** Returns `prefix` when it is a valid key prefix; throws `INVALID_OPTION` otherwise. */
export function checkPrefix(prefix: string): string {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new RedisStateError(
      "INVALID_OPTION",
      `prefix ${JSON.stringify(prefix)} must be 1-64 characters of [A-Za-z0-9:._-], starting with a letter or digit`,
      { field: "prefix", value: prefix },
    );
  }
  return prefix;
}

function tagOf(kind: string, text: string): string {
  return createHash("sha256").update(`${kind}\u0000${text}`).digest("hex").slice(0, 32);
}

/** The keys of one image's verdict and single-flight marker. */
export interface ImageKeys {
  readonly verdict: string;
  readonly probe: string;
}

/** The keys of one registry's breaker. */
export interface RegistryKeys {
  readonly failures: string;
  readonly open: string;
  readonly tripped: string;
  readonly trial: string;
}

/**
 * Returns the keys of an image (its verdict and marker, one hash tag).
 *
 * @example
 * ```ts
 * import { imageKeys } from "@kubeimg/redis";
 *
 * imageKeys("prod:kubeimg:", { image: "quay.io/a/b:1", credentialSecret: undefined, registry: "quay.io" }).verdict;
 * // → "prod:kubeimg:{i263dd48bc1d392ce2eec62e04e8720c1}:v1:verdict"
 * ```
 */
export function imageKeys(prefix: string, key: VerdictKey): ImageKeys {
  const base = `${prefix}{i${tagOf("image", verdictKeyString(key))}}:${LAYOUT_VERSION}:`;
  return { verdict: `${base}verdict`, probe: `${base}probe` };
}

/** Returns the keys of a registry's breaker (one hash tag). */
export function registryKeys(prefix: string, registry: string): RegistryKeys {
  const base = `${prefix}{r${tagOf("registry", registry)}}:${LAYOUT_VERSION}:`;
  return {
    failures: `${base}failures`,
    open: `${base}open`,
    tripped: `${base}tripped`,
    trial: `${base}trial`,
  };
}

/** Redis glob metacharacters, escaped with a backslash in a `MATCH` pattern. */
const GLOB_META = /[*?[\]\\^]/g;

/**
 * Returns the `SCAN MATCH` pattern of this layout's keys under `prefix`:
 * the prefix escaped for Redis's glob, then `{`. Keys of a longer prefix
 * (`prod:eu:` under `prod:`) do not match, since a prefix holds no brace.
 */
export function scanPatternOf(prefix: string): string {
  return `${prefix.replace(GLOB_META, "\\$&")}{*}:${LAYOUT_VERSION}:*`;
}

/** Returns true when `key` is a key this layout writes under `prefix` (what `clear()` may delete). */
export function isLayoutKey(prefix: string, key: string): boolean {
  if (!key.startsWith(prefix)) return false;
  return /^\{[ir][0-9a-f]{32}\}:v1:(verdict|probe|failures|open|tripped|trial)$/.test(
    key.slice(prefix.length),
  );
}

/** The hash tag Redis Cluster hashes for `key`: the text between the first `{` and the next `}`, when not empty. */
export function hashTagOf(key: string): string {
  const open = key.indexOf("{");
  if (open === -1) return key;
  const close = key.indexOf("}", open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}
