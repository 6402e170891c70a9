import {
  type ContainersImageReference,
  ContainersImageReferenceError,
  ciName,
  ciParseNamed,
  ciParseNormalizedNamed,
  ciString,
  ciTagNameOnly,
} from "./containers-image-reference.js";
import { NodeMirrorsError } from "./errors.js";
import type { RegistriesConf, RegistryEndpoint, RegistryEntry } from "./registries-types.js";

function refMatchingSubdomainPrefix(ref: string, prefix: string): number {
  const tail = prefix.slice(1);
  let index = ref.indexOf(tail);
  if (index === -1) return -1;
  if (ref.slice(0, index).includes("/")) return -1;
  index += tail.length;
  if (index === ref.length) return index;
  return ":/@".includes(ref[index] as string) ? index : -1;
}

/** How much of `ref` the prefix matches (containers/image `refMatchingPrefix`), or -1. */
export function refMatchingPrefix(ref: string, prefix: string): number {
  if (prefix.startsWith("*.")) return refMatchingSubdomainPrefix(ref, prefix);
  if (ref.length < prefix.length) return -1;
  if (ref.length === prefix.length) return ref === prefix ? prefix.length : -1;
  if (!ref.startsWith(prefix)) return -1;
  return ":/@".includes(ref[prefix.length] as string) ? prefix.length : -1;
}

/**
 * `FindRegistry`: the registry whose prefix matches `name` with the longest
 * prefix string (the first in sorted order on a tie), or `null`.
 */
export function findRegistry(
  conf: Pick<RegistriesConf, "registries">,
  name: string,
): RegistryEntry | null {
  const index = indexOf(conf.registries);
  let found: IndexedRegistry | undefined;
  const consider = (candidate: IndexedRegistry | undefined) => {
    if (candidate === undefined || refMatchingPrefix(name, candidate.entry.prefix) === -1) return;
    const length = candidate.entry.prefix.length;
    const best = found?.entry.prefix.length ?? 0;
    if (
      length > best ||
      (found !== undefined && length === best && candidate.order < found.order)
    ) {
      found = candidate;
    }
  };
  // A plain prefix matches only up to a ':', '/' or '@' of the name, or all of it.
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === ":" || c === "/" || c === "@") consider(index.exact.get(name.slice(0, i)));
  }
  consider(index.exact.get(name));
  // A `*.D` prefix matches at the first ".D" with no '/' before it; D has no ':', '/' or '@'.
  if (index.wildcard.size > 0) {
    for (let i = 0; i < name.length && name[i] !== "/"; i++) {
      if (name[i] !== ".") continue;
      let j = i + 1;
      while (j < name.length && name[j] !== ":" && name[j] !== "/" && name[j] !== "@") j++;
      consider(index.wildcard.get(`*${name.slice(i, j)}`));
    }
  }
  for (const odd of index.other) consider(odd);
  return found?.entry ?? null;
}

interface IndexedRegistry {
  readonly entry: RegistryEntry;
  /** Position in the sorted list: the first wins a tie in prefix length. */
  readonly order: number;
}

interface RegistryIndex {
  readonly exact: Map<string, IndexedRegistry>;
  readonly wildcard: Map<string, IndexedRegistry>;
  /** Prefixes the index cannot place (from hand-built lists): checked one by one. */
  readonly other: IndexedRegistry[];
}

const indexes = new WeakMap<readonly RegistryEntry[], RegistryIndex>();

/** The prefix index of a registry list, built once per list (results are never mutated). */
function indexOf(registries: readonly RegistryEntry[]): RegistryIndex {
  const cached = indexes.get(registries);
  if (cached !== undefined) return cached;
  const index: RegistryIndex = { exact: new Map(), wildcard: new Map(), other: [] };
  registries.forEach((entry, order) => {
    const item = { entry, order };
    const wildcard = entry.prefix.startsWith("*.");
    if (wildcard && /[:/@]/.test(entry.prefix)) {
      index.other.push(item);
      return;
    }
    const map = wildcard ? index.wildcard : index.exact;
    if (!map.has(entry.prefix)) map.set(entry.prefix, item);
  });
  indexes.set(registries, index);
  return index;
}

/**
 * Rewrites `ref` (canonical string) from `prefix` onto `location`
 * (containers/image `Endpoint.rewriteReference`). Throws `REWRITE_ERROR`.
 */
export function rewriteReference(ref: string, prefix: string, location: string): string {
  const rewritten = rewriteParsed(ref, prefix, location);
  return rewritten === undefined ? ref : ciString(rewritten);
}

/** {@link rewriteReference}'s reference as parsed, or `undefined` when it is `ref` unchanged. */
function rewriteParsed(
  ref: string,
  prefix: string,
  location: string,
): ContainersImageReference | undefined {
  const n = refMatchingPrefix(ref, prefix);
  if (n === -1) {
    throw new NodeMirrorsError(
      "REWRITE_ERROR",
      `invalid prefix '${prefix}' for reference '${ref}'`,
    );
  }
  if (location === "") {
    if (!prefix.startsWith("*.")) {
      throw new NodeMirrorsError(
        "REWRITE_ERROR",
        `invalid prefix '${prefix}' for empty location, should be in the format: *.example.com`,
      );
    }
    return undefined;
  }
  const rewritten = location + ref.slice(n);
  try {
    return ciParseNamed(rewritten);
  } catch (error) {
    if (error instanceof ContainersImageReferenceError) {
      throw new NodeMirrorsError("REWRITE_ERROR", `rewriting reference: ${error.message}`);
    }
    throw error;
  }
}

/** One attempt of a pull: an endpoint and the reference it is asked for.
 *
 * @inline
 */
export interface PullSource extends RegistryEndpoint {
  /** The rewritten reference pulled from this endpoint. */
  readonly reference: string;
  /** The rewritten name falls under a blocked registry: this attempt is refused. */
  readonly blocked: boolean;
  /** Why this endpoint is tried, or skipped ones before it. */
  readonly explain: readonly string[];
}

export interface PullSourcesResult {
  /** The prefix of the registry that matched, or `null`. */
  readonly registry: string | null;
  /** The normalized image (`:latest` added when it had neither tag nor digest). */
  readonly reference: string;
  readonly sources: readonly PullSource[];
  readonly explain: readonly string[];
}

/** Parses and normalizes an image as the docker transport does; `INVALID_REFERENCE` on failure. */
export function normalizeImage(image: string): ContainersImageReference {
  try {
    return ciTagNameOnly(ciParseNormalizedNamed(image));
  } catch (error) {
    if (error instanceof ContainersImageReferenceError) {
      throw new NodeMirrorsError("INVALID_REFERENCE", `${JSON.stringify(image)}: ${error.message}`);
    }
    throw error;
  }
}

/**
 * The sources a `docker://` pull of `image` tries, in order: the mirrors
 * that apply (by `mirror-by-digest-only` or each mirror's
 * `pull-from-mirror`), then the registry's own location, each with the
 * rewritten reference; or the image itself when no registry matches.
 *
 * `source` may be a function that loads the config (`loadRegistriesConf`):
 * it is called only once the image has parsed, so an invalid image is
 * reported (`INVALID_REFERENCE`) before an invalid config, as containers/image
 * reports it: its docker transport parses the reference before `FindRegistry`
 * reads registries.conf.
 *
 * @example
 * ```ts
 * import { loadRegistriesConf, pullSources } from "@kubeimg/policy/node-mirrors";
 *
 * declare const text: string; // YAML text
 * pullSources(() => loadRegistriesConf({ conf: text }), "UPPER/x"); // INVALID_REFERENCE, whatever text holds
 * ```
 */
export function pullSources(
  source: Pick<RegistriesConf, "registries"> | (() => Pick<RegistriesConf, "registries">),
  image: string,
): PullSourcesResult {
  const ref = normalizeImage(image);
  const conf = typeof source === "function" ? source() : source;
  const refString = ciString(ref);
  const explain: string[] = [];
  const registry = findRegistry(conf, ciName(ref));
  if (registry === null) {
    explain.push(`no [[registry]] prefix matches ${ciName(ref)}: pulled as is`);
    return {
      registry: null,
      reference: refString,
      sources: [
        {
          location: refString,
          insecure: false,
          pullFromMirror: "",
          reference: refString,
          // No registry matches the name, so none blocks it.
          blocked: false,
          explain: ["no registry entry: the image itself"],
        },
      ],
      explain,
    };
  }
  explain.push(
    `[[registry]] prefix ${JSON.stringify(registry.prefix)} matches ${ciName(ref)} (longest prefix)`,
  );
  const digested = ref.digest !== undefined;
  const endpoints: { endpoint: RegistryEndpoint; why: string }[] = [];
  if (registry.mirrorByDigestOnly) {
    if (digested) {
      for (const m of registry.mirrors)
        endpoints.push({ endpoint: m, why: "mirror (mirror-by-digest-only, digested image)" });
    } else if (registry.mirrors.length > 0) {
      explain.push(`mirrors skipped: mirror-by-digest-only and ${refString} has no digest`);
    }
  } else {
    for (const m of registry.mirrors) {
      if (m.pullFromMirror === "digest-only" && !digested) {
        explain.push(
          `mirror ${m.location} skipped: pull-from-mirror = "digest-only" and the image has no digest`,
        );
        continue;
      }
      if (m.pullFromMirror === "tag-only" && digested) {
        explain.push(
          `mirror ${m.location} skipped: pull-from-mirror = "tag-only" and the image has a digest`,
        );
        continue;
      }
      endpoints.push({
        endpoint: m,
        why: `mirror${m.pullFromMirror !== "" ? ` (pull-from-mirror = "${m.pullFromMirror}")` : ""}`,
      });
    }
  }
  endpoints.push({
    endpoint: { location: registry.location, insecure: registry.insecure, pullFromMirror: "" },
    why: "the registry's own location, always last",
  });
  const sources = endpoints.map(({ endpoint, why }): PullSource => {
    // The rewritten reference is read once, for its text and for the registry that may block it.
    const rewritten = rewriteParsed(refString, registry.prefix, endpoint.location) ?? ref;
    const reference = ciString(rewritten);
    const blocked = findRegistry(conf, ciName(rewritten))?.blocked === true;
    return {
      location: endpoint.location,
      insecure: endpoint.insecure,
      pullFromMirror: endpoint.pullFromMirror,
      reference,
      blocked,
      explain: [
        why,
        ...(blocked
          ? [`${reference} falls under a blocked registry: this attempt is refused`]
          : []),
        ...(endpoint.insecure ? ["insecure: TLS verification off, plain HTTP allowed"] : []),
      ],
    };
  });
  return { registry: registry.prefix, reference: refString, sources, explain };
}
