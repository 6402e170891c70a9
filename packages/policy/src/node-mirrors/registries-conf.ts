/**
 * containers/image v5.36.1 `registries.conf` (CRI-O, podman, buildah,
 * skopeo): loading the main file and its `registries.conf.d` drop-ins,
 * `FindRegistry`, and the pull sources a `docker://` pull tries in order.
 *
 * The surprises users hit are kept, and named in explain lines: a drop-in
 * replaces a registry wholesale (mirrors included), duplicates of a prefix
 * are dropped silently, `example.com` also matches `example.com:5000/x`,
 * a blocked registry's mirrors are still used, and digest-only mirrors are
 * skipped for tags.
 */
import { strings as goStrings } from "@kubeimg/core/internal";
import {
  anchoredDomainRegexp,
  type CiReference,
  CiReferenceError,
  ciName,
  ciParse,
  ciParseNamed,
  ciParseNormalizedNamed,
  ciString,
  ciTagNameOnly,
} from "./cimage-reference.js";
import { NodeMirrorsError, type NodeMirrorsWarning } from "./errors.js";
import {
  DecodeError,
  expectArray,
  expectBool,
  expectString,
  expectStringArray,
  expectTable,
  StructView,
} from "./go-decode.js";
import { parseToml, TomlSyntaxError, type TomlTable } from "./toml.js";

/** Where containers/image reads the system files. */
export const REGISTRIES_CONF_PATH = "/etc/containers/registries.conf";
export const REGISTRIES_CONF_DIR = "/etc/containers/registries.conf.d";

export type PullFromMirror = "" | "all" | "digest-only" | "tag-only";
export type ShortNameMode = "enforcing" | "permissive" | "disabled";

/** A mirror, or the registry's own location. */
export interface RegistryEndpoint {
  readonly location: string;
  readonly insecure: boolean;
  /** As written: `""`, `all`, `digest-only` or `tag-only`. */
  readonly pullFromMirror: string;
}

/** One `[[registry]]` after loading (a registry-level `pull-from-mirror` is refused). */
export interface RegistryEntry {
  readonly prefix: string;
  readonly location: string;
  readonly insecure: boolean;
  readonly blocked: boolean;
  readonly mirrorByDigestOnly: boolean;
  readonly mirrors: readonly RegistryEndpoint[];
}

export interface ShortNameAlias {
  /** The normalized target, or `null` when a later file reset it with `""`. */
  readonly value: string | null;
  /** The file that set it. */
  readonly origin: string;
}

/** The effective configuration after the main file and every drop-in. */
export interface RegistriesConf {
  /** Sorted by prefix (byte order). */
  readonly registries: readonly RegistryEntry[];
  readonly unqualifiedSearchRegistries: readonly string[];
  /** The main file, or the last drop-in that set the search list. */
  readonly unqualifiedSearchRegistriesOrigin: string;
  readonly shortNameMode: ShortNameMode;
  readonly credentialHelpers: readonly string[];
  readonly additionalLayerStoreAuthHelper: string;
  readonly aliases: Readonly<Record<string, ShortNameAlias>>;
  /** Things containers/image accepts silently but ignores. */
  readonly warnings: readonly NodeMirrorsWarning[];
}

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
}

interface MutableEndpoint {
  location: string;
  insecure: boolean;
  pullFromMirror: string;
}

interface MutableRegistry extends MutableEndpoint {
  prefix: string;
  blocked: boolean;
  mirrorByDigestOnly: boolean;
  mirrors: MutableEndpoint[];
}

interface ParsedFile {
  registries: MutableRegistry[];
  search: string[] | undefined;
  credentialHelpers: string[] | undefined;
  shortNameMode: ShortNameMode | undefined;
  layerStoreHelper: string;
  aliases: Map<string, ShortNameAlias>;
  origin: string;
}

function invalidRegistries(message: string, file: string, key?: string): NodeMirrorsError {
  return new NodeMirrorsError("INVALID_REGISTRIES", message, {
    file,
    ...(key !== undefined ? { key } : {}),
  });
}

function parseLocation(input: string, file: string, key: string): string {
  const trimmed = input.replace(/\/+$/, "");
  if (trimmed.startsWith("http://") || trimmed.startsWith("https://")) {
    throw invalidRegistries(
      `invalid location '${input}': URI schemes are not supported`,
      file,
      key,
    );
  }
  return trimmed;
}

function warnUnknown(view: StructView, file: string, warnings: NodeMirrorsWarning[]): void {
  for (const unknown of view.unknown()) {
    warnings.push({
      code: "UNKNOWN_KEY",
      file,
      line: unknown.at.line,
      column: unknown.at.column,
      key: unknown.path,
      message: `containers/image ignores the unknown key ${unknown.path}`,
    });
  }
}

function decodeEndpoint(view: StructView, into: MutableEndpoint): void {
  const location = view.field("location");
  if (location !== undefined)
    into.location = expectString(location.entry.value, view.keyPath(location.key));
  const insecure = view.field("insecure");
  if (insecure !== undefined)
    into.insecure = expectBool(insecure.entry.value, view.keyPath(insecure.key));
  const pfm = view.field("pull-from-mirror");
  if (pfm !== undefined) into.pullFromMirror = expectString(pfm.entry.value, view.keyPath(pfm.key));
}

interface DecodedFile {
  registries: MutableRegistry[] | undefined;
  search: string[] | undefined;
  credentialHelpers: string[] | undefined;
  shortNameMode: string;
  layerStoreHelper: string;
  aliases: Map<string, string> | undefined;
  v1: { search?: string[]; insecure?: string[]; block?: string[] };
}

/** BurntSushi/toml decoding into containers/image's `tomlConfig` struct. */
function decodeFile(root: TomlTable, file: string, warnings: NodeMirrorsWarning[]): DecodedFile {
  const top = new StructView(root, "");
  const out: DecodedFile = {
    registries: undefined,
    search: undefined,
    credentialHelpers: undefined,
    shortNameMode: "",
    layerStoreHelper: "",
    aliases: undefined,
    v1: {},
  };
  const registry = top.field("registry");
  if (registry !== undefined) {
    const items = expectArray(registry.entry.value, "registry");
    out.registries = items.map((item, i) => {
      const path = `registry[${i}]`;
      const view = new StructView(expectTable(item, path), path);
      const reg: MutableRegistry = {
        prefix: "",
        location: "",
        insecure: false,
        pullFromMirror: "",
        blocked: false,
        mirrorByDigestOnly: false,
        mirrors: [],
      };
      const prefix = view.field("prefix");
      if (prefix !== undefined)
        reg.prefix = expectString(prefix.entry.value, view.keyPath(prefix.key));
      decodeEndpoint(view, reg);
      const blocked = view.field("blocked");
      if (blocked !== undefined)
        reg.blocked = expectBool(blocked.entry.value, view.keyPath(blocked.key));
      const mbdo = view.field("mirror-by-digest-only");
      if (mbdo !== undefined)
        reg.mirrorByDigestOnly = expectBool(mbdo.entry.value, view.keyPath(mbdo.key));
      const mirror = view.field("mirror");
      if (mirror !== undefined) {
        const mirrorKey = view.keyPath(mirror.key);
        reg.mirrors = expectArray(mirror.entry.value, mirrorKey).map((m, j) => {
          const mpath = `${mirrorKey}[${j}]`;
          const mview = new StructView(expectTable(m, mpath), mpath);
          const endpoint: MutableEndpoint = { location: "", insecure: false, pullFromMirror: "" };
          decodeEndpoint(mview, endpoint);
          warnUnknown(mview, file, warnings);
          return endpoint;
        });
      }
      warnUnknown(view, file, warnings);
      return reg;
    });
  }
  const search = top.field("unqualified-search-registries");
  if (search !== undefined)
    out.search = expectStringArray(search.entry.value, "unqualified-search-registries");
  const helpers = top.field("credential-helpers");
  if (helpers !== undefined)
    out.credentialHelpers = expectStringArray(helpers.entry.value, "credential-helpers");
  const mode = top.field("short-name-mode");
  if (mode !== undefined) out.shortNameMode = expectString(mode.entry.value, "short-name-mode");
  const las = top.field("additional-layer-store-auth-helper");
  if (las !== undefined)
    out.layerStoreHelper = expectString(las.entry.value, "additional-layer-store-auth-helper");
  const aliases = top.field("aliases");
  if (aliases !== undefined) {
    const table = expectTable(aliases.entry.value, "aliases");
    out.aliases = new Map();
    for (const [name, entry] of table.entries) {
      out.aliases.set(name, expectString(entry.value, `aliases.${JSON.stringify(name)}`));
    }
  }
  const v1 = top.field("registries");
  if (v1 !== undefined) {
    const view = new StructView(expectTable(v1.entry.value, "registries"), "registries");
    for (const part of ["search", "insecure", "block"] as const) {
      const f = view.field(part);
      if (f === undefined) continue;
      const sub = new StructView(
        expectTable(f.entry.value, `registries.${part}`),
        `registries.${part}`,
      );
      const list = sub.field("registries");
      if (list !== undefined)
        out.v1[part] = expectStringArray(list.entry.value, sub.keyPath(list.key));
      warnUnknown(sub, file, warnings);
    }
    warnUnknown(view, file, warnings);
  }
  warnUnknown(top, file, warnings);
  return out;
}

function v2IsSet(d: DecodedFile): boolean {
  return (
    d.registries !== undefined ||
    d.search !== undefined ||
    d.credentialHelpers !== undefined ||
    d.shortNameMode !== "" ||
    d.layerStoreHelper !== "" ||
    d.aliases !== undefined
  );
}

function convertV1(d: DecodedFile, file: string): void {
  const order: string[] = [];
  const byLocation = new Map<string, MutableRegistry>();
  const get = (raw: string, key: string): MutableRegistry => {
    const location = parseLocation(raw, file, key);
    let reg = byLocation.get(location);
    if (reg === undefined) {
      reg = {
        prefix: location,
        location,
        insecure: false,
        pullFromMirror: "",
        blocked: false,
        mirrorByDigestOnly: false,
        mirrors: [],
      };
      byLocation.set(location, reg);
      order.push(location);
    }
    return reg;
  };
  for (const b of d.v1.block ?? []) get(b, "registries.block.registries").blocked = true;
  for (const i of d.v1.insecure ?? []) get(i, "registries.insecure.registries").insecure = true;
  d.registries =
    order.length === 0 ? undefined : order.map((l) => byLocation.get(l) as MutableRegistry);
  d.search = d.v1.search;
}

function postProcessRegistries(
  d: DecodedFile,
  file: string,
  warnings: NodeMirrorsWarning[],
): MutableRegistry[] {
  const regs = d.registries ?? [];
  const groups = new Map<string, MutableRegistry[]>();
  regs.forEach((reg, i) => {
    const key = `registry[${i}]`;
    reg.location = parseLocation(reg.location, file, `${key}.location`);
    if (reg.prefix === "") {
      if (reg.location === "") {
        throw invalidRegistries("invalid condition: both location and prefix are unset", file, key);
      }
      reg.prefix = reg.location;
    } else {
      reg.prefix = parseLocation(reg.prefix, file, `${key}.prefix`);
      if (!reg.prefix.startsWith("*.") && reg.location === "") {
        throw invalidRegistries(
          "invalid condition: location is unset and prefix is not in the format: *.example.com",
          file,
          key,
        );
      }
    }
    if (reg.pullFromMirror !== "") {
      throw new NodeMirrorsError(
        "INVALID_CONFIG",
        `pull-from-mirror must not be set for a non-mirror registry ${JSON.stringify(reg.prefix)}`,
        { file, key: `${key}.pull-from-mirror` },
      );
    }
    reg.mirrors.forEach((mirror, j) => {
      const mkey = `${key}.mirror[${j}]`;
      mirror.location = parseLocation(mirror.location, file, `${mkey}.location`);
      if (mirror.location === "")
        throw invalidRegistries("invalid condition: mirror location is unset", file, mkey);
      if (reg.mirrorByDigestOnly && mirror.pullFromMirror !== "") {
        throw invalidRegistries(
          `cannot set mirror usage mirror-by-digest-only for the registry (${JSON.stringify(reg.prefix)}) and pull-from-mirror for per-mirror (${JSON.stringify(mirror.location)}) at the same time`,
          file,
          `${mkey}.pull-from-mirror`,
        );
      }
      if (!["", "all", "digest-only", "tag-only"].includes(mirror.pullFromMirror)) {
        throw invalidRegistries(
          `unsupported pull-from-mirror value ${JSON.stringify(mirror.pullFromMirror)} for mirror ${JSON.stringify(mirror.location)}`,
          file,
          `${mkey}.pull-from-mirror`,
        );
      }
    });
    const group = reg.location === "" ? reg.prefix : reg.location;
    const list = groups.get(group) ?? [];
    list.push(reg);
    groups.set(group, list);
  });
  for (const reg of regs) {
    const others = groups.get(reg.location === "" ? reg.prefix : reg.location) ?? [];
    for (const other of others) {
      if (reg.insecure !== other.insecure) {
        throw invalidRegistries(
          `registry '${reg.location}' is defined multiple times with conflicting 'insecure' setting`,
          file,
        );
      }
      if (reg.blocked !== other.blocked) {
        throw invalidRegistries(
          `registry '${reg.location}' is defined multiple times with conflicting 'blocked' setting`,
          file,
        );
      }
    }
  }
  if (d.search !== undefined) {
    d.search = d.search.map((entry, i) => {
      const registry = parseLocation(entry, file, `unqualified-search-registries[${i}]`);
      if (!anchoredDomainRegexp.test(registry)) {
        throw invalidRegistries(
          `Invalid unqualified-search-registries entry ${JSON.stringify(registry)}`,
          file,
          `unqualified-search-registries[${i}]`,
        );
      }
      return registry;
    });
  }
  const unique = new Map<string, MutableRegistry>();
  for (const reg of regs) {
    if (unique.has(reg.prefix)) {
      warnings.push({
        code: "DUPLICATE_PREFIX",
        file,
        key: "registry",
        message: `a second [[registry]] with prefix ${JSON.stringify(reg.prefix)} is dropped silently: containers/image keeps only the first`,
      });
      continue;
    }
    unique.set(reg.prefix, reg);
  }
  return [...unique.keys()].sort(goStrings.Compare).map((p) => unique.get(p) as MutableRegistry);
}

/** Why `name` is not a valid short name for an alias (containers/image `validateShortName`), or `undefined`. */
export function shortNameProblem(name: string): string | undefined {
  let ref: CiReference;
  try {
    ref = ciParse(name);
  } catch (error) {
    return `cannot parse short name: ${JSON.stringify(name)}: ${(error as Error).message}`;
  }
  if (ref.digest !== undefined)
    return `invalid short name ${JSON.stringify(name)}: must not contain digest`;
  if (ref.tag !== undefined)
    return `invalid short name ${JSON.stringify(name)}: must not contain tag`;
  if (/[.:]/.test(ref.domain) || ref.domain === "localhost") {
    return `invalid short name ${JSON.stringify(name)}: must not contain registry`;
  }
  return undefined;
}

/** containers/image's check of an alias value; returns the normalized value or a message. */
function parseAliasValue(value: string): { value: string } | { error: string } {
  let ref: CiReference;
  try {
    ref = ciParse(value);
  } catch (error) {
    return { error: `parsing alias ${JSON.stringify(value)}: ${(error as Error).message}` };
  }
  if (ref.digest !== undefined)
    return { error: `invalid alias ${JSON.stringify(value)}: must not contain digest` };
  if (ref.tag !== undefined)
    return { error: `invalid alias ${JSON.stringify(value)}: must not contain tag` };
  if (!/[.:]/.test(ref.domain) && ref.domain !== "localhost") {
    return {
      error: `invalid alias ${JSON.stringify(value)}: must contain registry and repository`,
    };
  }
  try {
    return { value: ciString(ciParseNormalizedNamed(value)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function loadFile(
  text: string,
  file: string,
  dropIn: boolean,
  warnings: NodeMirrorsWarning[],
): ParsedFile {
  let decoded: DecodedFile;
  try {
    decoded = decodeFile(parseToml(text, { flavor: "burntsushi" }).root, file, warnings);
  } catch (error) {
    if (error instanceof TomlSyntaxError) {
      throw new NodeMirrorsError("TOML_ERROR", `${file}: toml: ${error.message}`, {
        file,
        line: error.line,
        column: error.column,
      });
    }
    if (error instanceof DecodeError) {
      throw new NodeMirrorsError("TOML_ERROR", `${file}: ${error.message}`, {
        file,
        line: error.at.line,
        column: error.at.column,
        key: error.key,
      });
    }
    throw error;
  }
  const v1 = decoded.v1;
  if (v1.search !== undefined || v1.insecure !== undefined || v1.block !== undefined) {
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
 * const conf = loadRegistriesConf({ conf: '[[registry]]\nlocation = "quay.io"\n' });
 * conf.registries[0]?.prefix; // "quay.io"
 * ```
 */
export function loadRegistriesConf(input: RegistriesConfInput): RegistriesConf {
  const confPath = input.confPath ?? REGISTRIES_CONF_PATH;
  const dropInDir = input.dropInDir ?? REGISTRIES_CONF_DIR;
  const warnings: NodeMirrorsWarning[] = [];
  let main: ParsedFile;
  if (input.conf === null) {
    if (input.missingConf !== "empty") {
      throw new NodeMirrorsError(
        "NO_CONFIG_FILE",
        `loading registries configuration ${JSON.stringify(confPath)}: open ${confPath}: no such file or directory`,
        { file: confPath },
      );
    }
    main = {
      registries: [],
      search: undefined,
      credentialHelpers: undefined,
      shortNameMode: undefined,
      layerStoreHelper: "",
      aliases: new Map(),
      origin: "",
    };
  } else {
    main = loadFile(input.conf, confPath, false, warnings);
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
  const registries = new Map<string, MutableRegistry>(main.registries.map((r) => [r.prefix, r]));
  let search = main.search;
  let searchOrigin = main.origin;
  let helpers = main.credentialHelpers;
  let mode = main.shortNameMode;
  let layerStoreHelper = main.layerStoreHelper;
  const aliases = new Map(main.aliases);
  for (const [name, text] of names) {
    const file = `${dropInDir}/${name}`;
    const dropIn = loadFile(text, file, true, warnings);
    for (const reg of dropIn.registries) registries.set(reg.prefix, reg);
    if (dropIn.search !== undefined) {
      search = dropIn.search;
      searchOrigin = file;
    }
    if (dropIn.credentialHelpers !== undefined) helpers = dropIn.credentialHelpers;
    if (dropIn.shortNameMode !== undefined) mode = dropIn.shortNameMode;
    if (dropIn.layerStoreHelper !== "") layerStoreHelper = dropIn.layerStoreHelper;
    for (const [k, v] of dropIn.aliases) aliases.set(k, v);
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
    return ref;
  }
  const rewritten = location + ref.slice(n);
  try {
    return ciString(ciParseNamed(rewritten));
  } catch (error) {
    if (error instanceof CiReferenceError) {
      throw new NodeMirrorsError("REWRITE_ERROR", `rewriting reference: ${error.message}`);
    }
    throw error;
  }
}

/** One attempt of a pull: an endpoint and the reference it is asked for. */
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
export function normalizeImage(image: string): CiReference {
  try {
    return ciTagNameOnly(ciParseNormalizedNamed(image));
  } catch (error) {
    if (error instanceof CiReferenceError) {
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
 */
export function pullSources(
  conf: Pick<RegistriesConf, "registries">,
  image: string,
): PullSourcesResult {
  const ref = normalizeImage(image);
  const refString = ciString(ref);
  const explain: string[] = [];
  const registry = findRegistry(conf, ciName(ref));
  const blockedFor = (reference: string): boolean => {
    const name = ciName(ciParse(reference));
    return findRegistry(conf, name)?.blocked === true;
  };
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
          blocked: blockedFor(refString),
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
    const reference = rewriteReference(refString, registry.prefix, endpoint.location);
    const blocked = blockedFor(reference);
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
