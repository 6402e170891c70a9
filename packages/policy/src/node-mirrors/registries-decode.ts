/**
 * One `registries.conf` file decoded as containers/image v5.36.1 decodes it:
 * the v1 and v2 tables (and the v1 to v2 conversion), each `[[registry]]`
 * and its mirrors checked and normalised, short-name aliases checked, and
 * every key no field takes reported as a warning. Merging the main file and
 * its drop-ins is `registries-conf.ts`'s.
 */
import { strings as goStrings } from "@kubeimg/core/internal";
import {
  anchoredDomainRegexp,
  type ContainersImageReference,
  ciParse,
  ciParseNormalizedNamed,
  ciString,
} from "./containers-image-reference.js";
import { NodeMirrorsError, type NodeMirrorsWarning } from "./errors.js";
import type { ShortNameAlias, ShortNameMode } from "./registries-types.js";
import type { TomlTable } from "./toml/parse.js";
import {
  expectArray,
  expectString,
  expectStringArray,
  expectTable,
  GoStruct,
  StructView,
} from "./toml/struct-view.js";

/** containers/image's structs as BurntSushi/toml decodes them, field names as tagged. */
const ENDPOINT = /*#__PURE__*/ new GoStruct("burntsushi", [
  "location",
  "insecure",
  "pull-from-mirror",
]);
const REGISTRY = /*#__PURE__*/ new GoStruct("burntsushi", [
  "prefix",
  ...ENDPOINT.fields,
  "blocked",
  "mirror-by-digest-only",
  "mirror",
]);
const CONFIG = /*#__PURE__*/ new GoStruct("burntsushi", [
  "registry",
  "unqualified-search-registries",
  "credential-helpers",
  "short-name-mode",
  "additional-layer-store-auth-helper",
  "aliases",
  "registries",
]);
const V1_CONFIG = /*#__PURE__*/ new GoStruct("burntsushi", ["search", "insecure", "block"]);
const V1_REGISTRIES = /*#__PURE__*/ new GoStruct("burntsushi", ["registries"]);

interface MutableEndpoint {
  location: string;
  insecure: boolean;
  pullFromMirror: string;
}

export interface MutableRegistry extends MutableEndpoint {
  prefix: string;
  blocked: boolean;
  mirrorByDigestOnly: boolean;
  mirrors: MutableEndpoint[];
}

export interface ParsedFile {
  registries: MutableRegistry[];
  search: string[] | undefined;
  credentialHelpers: string[] | undefined;
  shortNameMode: ShortNameMode | undefined;
  layerStoreHelper: string;
  aliases: Map<string, ShortNameAlias>;
  origin: string;
}

export function invalidRegistries(message: string, file: string, key?: string): NodeMirrorsError {
  return new NodeMirrorsError("INVALID_REGISTRIES", message, {
    file,
    ...(key !== undefined ? { key } : {}),
  });
}

/** `key` spells the key path for an error only. */
function parseLocation(input: string, file: string, key: () => string): string {
  let end = input.length;
  while (end > 0 && input.charCodeAt(end - 1) === 0x2f) end--;
  const trimmed = end === input.length ? input : input.slice(0, end);
  if (trimmed.startsWith("http://") || trimmed.startsWith("https://")) {
    throw invalidRegistries(
      `invalid location '${input}': URI schemes are not supported`,
      file,
      key(),
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
  if (location !== undefined) into.location = view.string(location);
  const insecure = view.field("insecure");
  if (insecure !== undefined) into.insecure = view.bool(insecure);
  const pfm = view.field("pull-from-mirror");
  if (pfm !== undefined) into.pullFromMirror = view.string(pfm);
}

export interface DecodedFile {
  registries: MutableRegistry[] | undefined;
  search: string[] | undefined;
  credentialHelpers: string[] | undefined;
  shortNameMode: string;
  layerStoreHelper: string;
  aliases: Map<string, string> | undefined;
  v1: { search?: string[]; insecure?: string[]; block?: string[] };
}

/** BurntSushi/toml decoding into containers/image's `tomlConfig` struct. */
export function decodeFile(
  root: TomlTable,
  file: string,
  warnings: NodeMirrorsWarning[],
): DecodedFile {
  const top = new StructView(root, "", CONFIG);
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
      const path = () => `registry[${i}]`;
      const table = item.kind === "table" ? item : expectTable(item, path());
      const view = new StructView(table, path, REGISTRY);
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
      if (prefix !== undefined) reg.prefix = view.string(prefix);
      decodeEndpoint(view, reg);
      const blocked = view.field("blocked");
      if (blocked !== undefined) reg.blocked = view.bool(blocked);
      const mbdo = view.field("mirror-by-digest-only");
      if (mbdo !== undefined) reg.mirrorByDigestOnly = view.bool(mbdo);
      const mirror = view.field("mirror");
      if (mirror !== undefined) {
        const mirrorKey = () => view.keyPath(mirror.key);
        const value = mirror.entry.value;
        const mirrors = value.kind === "array" ? value.items : expectArray(value, mirrorKey());
        reg.mirrors = mirrors.map((m, j) => {
          const mpath = () => `${mirrorKey()}[${j}]`;
          const mtable = m.kind === "table" ? m : expectTable(m, mpath());
          const mview = new StructView(mtable, mpath, ENDPOINT);
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
    const view = new StructView(expectTable(v1.entry.value, "registries"), "registries", V1_CONFIG);
    for (const part of ["search", "insecure", "block"] as const) {
      const f = view.field(part);
      if (f === undefined) continue;
      const sub = new StructView(
        expectTable(f.entry.value, `registries.${part}`),
        `registries.${part}`,
        V1_REGISTRIES,
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

export function v2IsSet(d: DecodedFile): boolean {
  return (
    d.registries !== undefined ||
    d.search !== undefined ||
    d.credentialHelpers !== undefined ||
    d.shortNameMode !== "" ||
    d.layerStoreHelper !== "" ||
    d.aliases !== undefined
  );
}

export function convertV1(d: DecodedFile, file: string): void {
  const order: string[] = [];
  const byLocation = new Map<string, MutableRegistry>();
  const get = (raw: string, key: string): MutableRegistry => {
    const location = parseLocation(raw, file, () => key);
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

/** The values of a mirror's `pull-from-mirror`. */
const PULL_FROM_MIRROR: readonly string[] = ["", "all", "digest-only", "tag-only"];

export function postProcessRegistries(
  d: DecodedFile,
  file: string,
  warnings: NodeMirrorsWarning[],
): MutableRegistry[] {
  const regs = d.registries ?? [];
  const groups = new Map<string, MutableRegistry[]>();
  regs.forEach((reg, i) => {
    // Key paths are spelled for an error only.
    const key = () => `registry[${i}]`;
    reg.location = parseLocation(reg.location, file, () => `${key()}.location`);
    if (reg.prefix === "") {
      if (reg.location === "") {
        throw invalidRegistries(
          "invalid condition: both location and prefix are unset",
          file,
          key(),
        );
      }
      reg.prefix = reg.location;
    } else {
      reg.prefix = parseLocation(reg.prefix, file, () => `${key()}.prefix`);
      if (!reg.prefix.startsWith("*.") && reg.location === "") {
        throw invalidRegistries(
          "invalid condition: location is unset and prefix is not in the format: *.example.com",
          file,
          key(),
        );
      }
    }
    if (reg.pullFromMirror !== "") {
      throw new NodeMirrorsError(
        "INVALID_CONFIG",
        `pull-from-mirror must not be set for a non-mirror registry ${JSON.stringify(reg.prefix)}`,
        { file, key: `${key()}.pull-from-mirror` },
      );
    }
    reg.mirrors.forEach((mirror, j) => {
      const mkey = () => `${key()}.mirror[${j}]`;
      mirror.location = parseLocation(mirror.location, file, () => `${mkey()}.location`);
      if (mirror.location === "")
        throw invalidRegistries("invalid condition: mirror location is unset", file, mkey());
      if (reg.mirrorByDigestOnly && mirror.pullFromMirror !== "") {
        throw invalidRegistries(
          `cannot set mirror usage mirror-by-digest-only for the registry (${JSON.stringify(reg.prefix)}) and pull-from-mirror for per-mirror (${JSON.stringify(mirror.location)}) at the same time`,
          file,
          `${mkey()}.pull-from-mirror`,
        );
      }
      if (!PULL_FROM_MIRROR.includes(mirror.pullFromMirror)) {
        throw invalidRegistries(
          `unsupported pull-from-mirror value ${JSON.stringify(mirror.pullFromMirror)} for mirror ${JSON.stringify(mirror.location)}`,
          file,
          `${mkey()}.pull-from-mirror`,
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
      const registry = parseLocation(entry, file, () => `unqualified-search-registries[${i}]`);
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
  let ref: ContainersImageReference;
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
export function parseAliasValue(value: string): { value: string } | { error: string } {
  let ref: ContainersImageReference;
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
