/**
 * containers/image v5.36.1 `registries.conf` (CRI-O, podman, buildah,
 * skopeo): loading the main file and its `registries.conf.d` drop-ins
 * (one file's decoding is `registries-decode.ts`), and, re-exported from
 * `registries-lookup.ts`, `FindRegistry` and the pull sources a `docker://`
 * pull tries in order.
 *
 * The surprises users hit are kept, and named in explain lines: a drop-in
 * replaces a registry wholesale (mirrors included), duplicates of a prefix
 * are dropped silently, `example.com` also matches `example.com:5000/x`,
 * a blocked registry's mirrors are still used, and digest-only mirrors are
 * skipped for tags.
 */
import { strconv as goStrconv, strings as goStrings } from "@kubeimg/core/internal";
import { NodeMirrorsError, type NodeMirrorsWarning, tooDeep } from "./errors.js";
import {
  convertV1,
  type DecodedFile,
  decodeFile,
  invalidRegistries,
  type MutableRegistry,
  type ParsedFile,
  parseAliasValue,
  postProcessRegistries,
  shortNameProblem,
  v2IsSet,
} from "./registries-decode.js";
import type {
  RegistriesConf,
  RegistryEntry,
  ShortNameAlias,
  ShortNameMode,
} from "./registries-types.js";
import { parseToml, TomlDepthError, TomlSyntaxError } from "./toml/parse.js";
import { DecodeError } from "./toml/struct-view.js";

export {
  findRegistry,
  normalizeImage,
  type PullSource,
  type PullSourcesResult,
  pullSources,
  refMatchingPrefix,
  rewriteReference,
} from "./registries-lookup.js";
export type {
  PullFromMirror,
  RegistriesConf,
  RegistryEndpoint,
  RegistryEntry,
  ShortNameAlias,
  ShortNameMode,
} from "./registries-types.js";

import { type ContainersImageRelease, containersImageReleases } from "./releases.js";

/** Where containers/image reads the system files. */
export const REGISTRIES_CONF_PATH = "/etc/containers/registries.conf";
export const REGISTRIES_CONF_DIR = "/etc/containers/registries.conf.d";

export interface RegistriesConfInput {
  /** Text of the main file; `null` when it does not exist. */
  readonly conf: string | null;
  /** Drop-in file name (relative to the drop-in directory) → text. */
  readonly dropIns?: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
  /** Node path of the main file (for messages and origins). Default `/etc/containers/registries.conf`. */
  readonly confPath?: string;
  /** Node path of the drop-in directory. Default `/etc/containers/registries.conf.d`. */
  readonly dropInDir?: string;
  /**
   * A missing main file is an error when its path was given explicitly
   * (CRI-O, `--registries-conf`), the default; with `"empty"` it counts as
   * an empty file, as for the implicit system path.
   */
  readonly missingConf?: "error" | "empty";
  /**
   * The containers/image release reproduced. `"5.40"` (the default) rejects
   * a file written in the v1 format (`[registries.search]`,
   * `[registries.insecure]`, `[registries.block]`); `"5.36"` (v5.36.1)
   * converts it to v2 as that release does.
   */
  readonly containersImage?: ContainersImageRelease;
}

/** Appended to containers/image's v1 rejection: the setting that reads such a file. */
export const V1_HINT =
  ' (containers/image 5.40; the option containersImage: "5.36" reads v1 files)';

export type { ContainersImageRelease } from "./releases.js";
export { containersImageReleases } from "./releases.js";

/**
 * One file's configuration, or the error that fails the whole load. From
 * 5.40 every error from one file is wrapped with its name
 * (`tryUpdatingCache` in go.podman.io/image/v5 `sysregistriesv2`); 5.36
 * kept each error as the decoder gave it.
 */
export function loadFile(
  text: string,
  file: string,
  dropIn: boolean,
  warnings: NodeMirrorsWarning[],
  release: ContainersImageRelease,
): ParsedFile {
  if (release === "5.36") return decodeOneFile(text, file, dropIn, warnings, release);
  try {
    return decodeOneFile(text, file, dropIn, warnings, release);
  } catch (error) {
    if (error instanceof NodeMirrorsError && error.code !== "LIMIT_EXCEEDED") {
      throw new NodeMirrorsError(
        error.code,
        `loading registries configuration ${goStrconv.Quote(file)}: ${error.message}`,
        { file: error.file, line: error.line, column: error.column, key: error.key },
        { cause: error },
      );
    }
    throw error;
  }
}

function decodeOneFile(
  text: string,
  file: string,
  dropIn: boolean,
  warnings: NodeMirrorsWarning[],
  release: ContainersImageRelease,
): ParsedFile {
  // 5.36 put the file name before the decoder's text; 5.40 wraps it instead (loadFile).
  const at = release === "5.36" ? `${file}: ` : "";
  let decoded: DecodedFile;
  try {
    decoded = decodeFile(
      parseToml(text, { flavor: "burntsushi", copyStrings: true }).root,
      file,
      warnings,
    );
  } catch (error) {
    if (error instanceof TomlSyntaxError) {
      throw new NodeMirrorsError("TOML_ERROR", `${at}toml: ${error.message}`, {
        file,
        line: error.line,
        column: error.column,
      });
    }
    if (error instanceof DecodeError) {
      throw new NodeMirrorsError("TOML_ERROR", `${at}${error.message}`, {
        file,
        line: error.at.line,
        column: error.at.column,
        key: error.key,
      });
    }
    if (error instanceof TomlDepthError) throw tooDeep(error, file);
    throw error;
  }
  const v1 = decoded.v1;
  if (v1.search !== undefined || v1.insecure !== undefined || v1.block !== undefined) {
    // 5.40 dropped the v1 conversion: any set v1 list (even an empty one)
    // fails the file, and every per-file error is wrapped with its name.
    if (release === "5.40") {
      throw invalidRegistries(
        `registries.conf must be in v2 format but is in v1${V1_HINT}`,
        file,
        "registries",
      );
    }
    if (dropIn)
      throw invalidRegistries("registry must be in v2 format but is in v1", file, "registries");
    if (v2IsSet(decoded))
      throw invalidRegistries("mixing sysregistry v1/v2 is not supported", file, "registries");
    convertV1(decoded, file);
  }
  const registries = postProcessRegistries(decoded, file, warnings);
  let shortNameMode: ShortNameMode | undefined;
  if (decoded.shortNameMode !== "") {
    if (!["enforcing", "permissive", "disabled"].includes(decoded.shortNameMode)) {
      throw new NodeMirrorsError(
        "INVALID_SHORT_NAME_MODE",
        `invalid short-name mode: ${JSON.stringify(decoded.shortNameMode)}`,
        { file, key: "short-name-mode" },
      );
    }
    shortNameMode = decoded.shortNameMode as ShortNameMode;
  }
  for (const reg of registries) {
    if (reg.prefix.startsWith("*.") && /[/@:]/.test(reg.prefix)) {
      throw invalidRegistries(
        `Wildcarded prefix should be in the format: *.example.com. Current prefix ${JSON.stringify(reg.prefix)} is incorrectly formatted`,
        file,
        "registry.prefix",
      );
    }
  }
  const aliases = new Map<string, ShortNameAlias>();
  const problems: string[] = [];
  for (const [name, value] of decoded.aliases ?? []) {
    const problem = shortNameProblem(name);
    if (problem !== undefined) problems.push(problem);
    if (value === "") {
      aliases.set(name, { value: null, origin: file });
      continue;
    }
    const parsed = parseAliasValue(value);
    if ("error" in parsed) problems.push(parsed.error);
    else aliases.set(name, { value: parsed.value, origin: file });
  }
  if (problems.length > 0) {
    throw new NodeMirrorsError(
      "INVALID_ALIAS",
      `validating short-name aliases: ${problems.join("\n")}`,
      {
        file,
        key: "aliases",
      },
    );
  }
  return {
    registries,
    search: decoded.search,
    credentialHelpers: decoded.credentialHelpers,
    shortNameMode,
    layerStoreHelper: decoded.layerStoreHelper,
    aliases,
    origin: file,
  };
}

/**
 * Loads registries.conf and its drop-ins as containers/image does, or
 * throws the {@link NodeMirrorsError} that makes every pull on the node fail
 * (`TOML_ERROR`, `INVALID_REGISTRIES`, `INVALID_CONFIG`,
 * `INVALID_SHORT_NAME_MODE`, `INVALID_ALIAS`, `NO_CONFIG_FILE`).
 *
 * @example
 * ```ts
 * import { loadRegistriesConf } from "@kubeimg/policy/node-mirrors";
 *
 * const conf = loadRegistriesConf({ conf: '[[registry]]\nlocation = "quay.io"\n' });
 * conf.registries[0]?.prefix; // "quay.io"
 * ```
 */
export function loadRegistriesConf(input: RegistriesConfInput): RegistriesConf {
  const release = input.containersImage ?? "5.40";
  if (!(containersImageReleases as readonly string[]).includes(release)) {
    throw new NodeMirrorsError(
      "INVALID_ARGUMENT",
      `containersImage: ${JSON.stringify(release)} is not a reproduced release (${containersImageReleases.join(", ")})`,
      { key: "containersImage" },
    );
  }
  const confPath = input.confPath ?? REGISTRIES_CONF_PATH;
  const dropInDir = input.dropInDir ?? REGISTRIES_CONF_DIR;
  const warnings: NodeMirrorsWarning[] = [];
  let main: ParsedFile | undefined;
  if (input.conf === null) {
    if (input.missingConf !== "empty") {
      // 5.40's configfile returns the open error as it is; 5.36 wrapped it with the file name.
      const open = `open ${confPath}: no such file or directory`;
      throw new NodeMirrorsError(
        "NO_CONFIG_FILE",
        release === "5.36"
          ? `loading registries configuration ${JSON.stringify(confPath)}: ${open}`
          : open,
        { file: confPath },
      );
    }
  } else {
    main = loadFile(input.conf, confPath, false, warnings, release);
  }
  const dropIns =
    input.dropIns instanceof Map
      ? [...input.dropIns.entries()]
      : Object.entries(input.dropIns ?? {});
  const names = dropIns
    .filter(([name]) => {
      const direct = !name.includes("/");
      if (direct && !name.endsWith(".conf")) {
        warnings.push({
          code: "IGNORED_FILE",
          file: `${dropInDir}/${name}`,
          message: `containers/image reads only files ending in .conf from ${dropInDir}; ${name} is ignored`,
        });
      }
      if (!direct) {
        warnings.push({
          code: "IGNORED_FILE",
          file: `${dropInDir}/${name}`,
          message: `containers/image does not read sub-directories of ${dropInDir}; ${name} is ignored`,
        });
      }
      return direct && name.endsWith(".conf");
    })
    .sort((a, b) => goStrings.Compare(a[0], b[0]));
  const loaded = names.map(([name, text]) =>
    loadFile(text, `${dropInDir}/${name}`, true, warnings, release),
  );
  return mergeFiles(main, loaded, release, warnings);
}

function emptyFile(): ParsedFile {
  return {
    registries: [],
    search: undefined,
    credentialHelpers: undefined,
    shortNameMode: undefined,
    layerStoreHelper: "",
    aliases: new Map(),
    origin: "",
  };
}

/**
 * The effective configuration of a main file (when one was read) and the
 * files read after it, each merged over the ones before
 * (`updateWithConfigurationFrom`). 5.36 started from the main file, so its
 * name was the search list's origin even when it set no list; 5.40 starts
 * from an empty configuration and merges the main file like any other.
 */
export function mergeFiles(
  main: ParsedFile | undefined,
  updates: readonly ParsedFile[],
  release: ContainersImageRelease,
  warnings: NodeMirrorsWarning[],
): RegistriesConf {
  const base = release === "5.36" ? (main ?? emptyFile()) : emptyFile();
  const rest = release === "5.36" || main === undefined ? updates : [main, ...updates];
  const registries = new Map<string, MutableRegistry>(base.registries.map((r) => [r.prefix, r]));
  let search = base.search;
  let searchOrigin = base.origin;
  let helpers = base.credentialHelpers;
  let mode = base.shortNameMode;
  let layerStoreHelper = base.layerStoreHelper;
  const aliases = new Map(base.aliases);
  for (const file of rest) {
    for (const reg of file.registries) registries.set(reg.prefix, reg);
    if (file.search !== undefined) {
      search = file.search;
      searchOrigin = file.origin;
    }
    if (file.credentialHelpers !== undefined) helpers = file.credentialHelpers;
    if (file.shortNameMode !== undefined) mode = file.shortNameMode;
    if (file.layerStoreHelper !== "") layerStoreHelper = file.layerStoreHelper;
    for (const [k, v] of file.aliases) aliases.set(k, v);
  }
  const sorted = [...registries.keys()]
    .sort(goStrings.Compare)
    .map((p) => registries.get(p) as MutableRegistry);
  return {
    registries: sorted.map(freezeRegistry),
    unqualifiedSearchRegistries: search ?? [],
    unqualifiedSearchRegistriesOrigin: searchOrigin,
    shortNameMode: mode ?? "permissive",
    credentialHelpers:
      helpers !== undefined && helpers.length > 0 ? helpers : ["containers-auth.json"],
    additionalLayerStoreAuthHelper: layerStoreHelper,
    aliases: Object.fromEntries(aliases),
    warnings,
    files: [...(main === undefined ? [] : [main.origin]), ...updates.map((f) => f.origin)],
  };
}

function freezeRegistry(r: MutableRegistry): RegistryEntry {
  return {
    prefix: r.prefix,
    location: r.location,
    insecure: r.insecure,
    blocked: r.blocked,
    mirrorByDigestOnly: r.mirrorByDigestOnly,
    mirrors: r.mirrors.map((m) => ({
      location: m.location,
      insecure: m.insecure,
      pullFromMirror: m.pullFromMirror,
    })),
  };
}
