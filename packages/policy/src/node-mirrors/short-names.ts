/**
 * containers/image v5.36.1 short-name resolution (`pkg/shortnames`) as
 * podman, buildah and skopeo run it without a terminal: an alias from the
 * config wins, else each unqualified-search registry is a candidate, and
 * `enforcing` mode refuses a choice it cannot ask about. CRI-O resolves
 * with `disabled`. The config is loaded only when a step needs it, so a
 * broken registries.conf fails exactly the calls it fails upstream.
 */
import {
  type ContainersImageReference,
  ContainersImageReferenceError,
  ciParse,
  ciParseNormalizedNamed,
  ciString,
  ciTagNameOnly,
  ciTrim,
} from "./containers-image-reference.js";
import { NodeMirrorsError } from "./errors.js";
import type { RegistriesConf, ShortNameMode } from "./registries-conf.js";

export interface ShortNameOptions {
  /**
   * Overrides the config's `short-name-mode`, as a caller can. `invalid`
   * stands for Go's zero value (an unsupported mode).
   */
  readonly mode?: ShortNameMode | "invalid";
  /** Send short names to Docker Hub regardless of the config (podman's Docker-compatible API). */
  readonly forceDockerHub?: boolean;
}

export interface ShortNameResolution {
  /** The references to pull, in order. */
  readonly candidates: readonly string[];
  /** The line podman prints before pulling (`""` when none). */
  readonly description: string;
}

/** A config, or a function loading it on first use (so load errors surface where upstream's do).
 *
 * @inline
 */
export type ConfSource = RegistriesConf | (() => RegistriesConf);

function lazy(source: ConfSource): () => RegistriesConf {
  if (typeof source !== "function") return () => source;
  let cached: RegistriesConf | undefined;
  return () => {
    cached ??= source();
    return cached;
  };
}

function inputError(name: string, error: unknown, verb: string): NodeMirrorsError {
  if (error instanceof ContainersImageReferenceError) {
    return new NodeMirrorsError(
      "INVALID_INPUT",
      `cannot ${verb} input: ${JSON.stringify(name)}: ${error.message}`,
    );
  }
  throw error;
}

function parseUnnormalizedShortName(name: string): {
  isShort: boolean;
  ref: ContainersImageReference;
} {
  let ref: ContainersImageReference;
  try {
    ref = ciParse(name);
  } catch (error) {
    throw inputError(name, error, "parse");
  }
  if (/[.:]/.test(ref.domain) || ref.domain === "localhost") {
    try {
      return { isShort: false, ref: ciParseNormalizedNamed(name) };
    } catch (error) {
      throw inputError(name, error, "normalize");
    }
  }
  return { isShort: true, ref };
}

function normalized(text: string, name: string): ContainersImageReference {
  try {
    return ciTagNameOnly(ciParseNormalizedNamed(text));
  } catch (error) {
    throw inputError(name, error, "normalize");
  }
}

/** `registry/name`, normalized; a failure names the input, then the registry as upstream words it. */
function completed(registry: string, name: string): string {
  try {
    return ciString(ciTagNameOnly(ciParseNormalizedNamed(`${registry}/${name}`)));
  } catch (error) {
    if (error instanceof ContainersImageReferenceError) {
      throw new NodeMirrorsError(
        "INVALID_INPUT",
        `${JSON.stringify(name)}: creating reference with unqualified-search registry ${JSON.stringify(registry)}: ${error.message}`,
      );
    }
    throw error;
  }
}

function ownAlias(
  conf: RegistriesConf,
  name: string,
): RegistriesConf["aliases"][string] | undefined {
  return Object.hasOwn(conf.aliases, name) ? conf.aliases[name] : undefined;
}

function withUserTagAndDigest(
  alias: string,
  ref: ContainersImageReference,
): ContainersImageReference {
  const target = ciParse(alias);
  return { ...target, tag: ref.tag, digest: ref.digest };
}

/**
 * `shortnames.Resolve` with no terminal attached: the candidates a pull
 * tries and the description podman prints.
 *
 * @example
 * ```ts
 * import { loadRegistriesConf, resolveShortName } from "@kubeimg/policy/node-mirrors";
 *
 * const conf = loadRegistriesConf({ conf: 'unqualified-search-registries = ["quay.io"]' });
 * resolveShortName(conf, "nginx").candidates; // ["quay.io/nginx:latest"]
 * ```
 */
export function resolveShortName(
  source: ConfSource,
  name: string,
  options: ShortNameOptions = {},
): ShortNameResolution {
  const conf = lazy(source);
  const mode = options.mode ?? conf().shortNameMode;
  if (mode !== "disabled" && mode !== "permissive" && mode !== "enforcing") {
    throw new NodeMirrorsError("UNSUPPORTED_MODE", "unsupported short-name mode (0)");
  }
  const { isShort, ref } = parseUnnormalizedShortName(name);
  if (!isShort) return { candidates: [ciString(ciTagNameOnly(ref))], description: "" };
  if (options.forceDockerHub === true) {
    return {
      candidates: [ciString(normalized(name, name))],
      description: "Resolving %!q(<nil>) to docker.io (enforced by caller)",
    };
  }
  const userInput = ciString(ciTrim(ref));
  const alias = ownAlias(conf(), userInput);
  if (alias !== undefined && alias.value !== null) {
    return {
      candidates: [ciString(ciTagNameOnly(withUserTagAndDigest(alias.value, ref)))],
      description: `Resolved ${JSON.stringify(userInput)} as an alias (${alias.origin})`,
    };
  }
  const { unqualifiedSearchRegistries: search, unqualifiedSearchRegistriesOrigin: origin } = conf();
  if (search.length === 0) {
    throw new NodeMirrorsError(
      "NO_SEARCH_REGISTRIES",
      origin !== ""
        ? `short-name ${JSON.stringify(name)} did not resolve to an alias and no unqualified-search registries are defined in ${JSON.stringify(origin)}`
        : `short-name ${JSON.stringify(name)} did not resolve to an alias and no containers-registries.conf(5) was found`,
    );
  }
  const candidates = search.map((registry) => completed(registry, name));
  const description = `Resolving ${JSON.stringify(userInput)} using unqualified-search registries (${origin})`;
  if (mode === "enforcing" && candidates.length > 1) {
    throw new NodeMirrorsError(
      "ENFORCING_NO_TTY",
      "short-name resolution enforced but cannot prompt without a TTY",
    );
  }
  return { candidates, description };
}

/**
 * `shortnames.ResolveLocally`: the names to look up in local storage, in
 * order (duplicates kept). The mode is not consulted.
 */
export function resolveShortNameLocally(
  source: ConfSource,
  name: string,
  options: Pick<ShortNameOptions, "forceDockerHub"> = {},
): readonly string[] {
  const conf = lazy(source);
  const { isShort, ref } = parseUnnormalizedShortName(name);
  if (!isShort) return [ciString(ciTagNameOnly(ref))];
  const complete = (registries: readonly string[]) =>
    registries.map((registry) => completed(registry, name));
  if (options.forceDockerHub === true) return complete(["docker.io"]);
  const out: string[] = [];
  const alias = ownAlias(conf(), ciString(ciTrim(ref)));
  if (alias !== undefined && alias.value !== null) {
    out.push(ciString(ciTagNameOnly(withUserTagAndDigest(alias.value, ref))));
  }
  out.push(...complete(["localhost", ...conf().unqualifiedSearchRegistries]));
  return out;
}
