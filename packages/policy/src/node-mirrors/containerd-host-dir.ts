/**
 * One containerd host directory read as containerd 2.x reads it: its
 * `hosts.toml` decoded (the `server` and every `[host."…"]` table, with
 * go-toml v2's field typing, in containerd's host order) and, without a
 * `hosts.toml`, the legacy `*.crt` / `*.cert` / `*.key` files. Which
 * directory is read, and how its hosts become endpoints, is
 * `containerd-hosts.ts`'s.
 */
import { path as goPath, time as goTime } from "@kubeimg/core/internal";
import { parseGoUrl } from "./containerd-localhost.js";
import { NodeMirrorsError, type NodeMirrorsWarning, tooDeep } from "./errors.js";
import type { NodeFiles, NodePathProblem } from "./node-files.js";
import {
  parseToml,
  TomlDepthError,
  type TomlPosition,
  TomlSyntaxError,
  type TomlTable,
  type TomlValue,
} from "./toml/parse.js";
import {
  DecodeError,
  expectString,
  expectTable,
  GoStruct,
  type StructEntry,
  StructView,
} from "./toml/struct-view.js";

/** The operations a registry endpoint is used for, in containerd's bit order.
 *
 * @inline
 */
export type HostCapability = "pull" | "resolve" | "push" | "referrers";

export const ALL_CAPABILITIES: readonly HostCapability[] = ["pull", "resolve", "push", "referrers"];

export interface HostConfig {
  scheme: string;
  host: string;
  path: string;
  capabilities: HostCapability[];
  caCerts: string[] | undefined;
  clientPairs: [string, string][] | undefined;
  skipVerify: boolean | undefined;
  dialTimeoutNs: bigint | undefined;
  header: Map<string, string[]> | undefined;
}

export function emptyHost(): HostConfig {
  return {
    scheme: "",
    host: "",
    path: "",
    capabilities: [],
    caCerts: undefined,
    clientPairs: undefined,
    skipVerify: undefined,
    dialTimeoutNs: undefined,
    header: undefined,
  };
}

export class Trace {
  readonly explain: string[] = [];
  readonly warnings: NodeMirrorsWarning[] = [];
  line(text: string): void {
    this.explain.push(text);
  }
  warn(warning: NodeMirrorsWarning): void {
    this.warnings.push(warning);
  }
}

function decodeCapabilities(view: StructView, field: StructEntry): HostCapability[] {
  const names = view.stringArray(field);
  if (names.length === 0) return ALL_CAPABILITIES.slice();
  // containerd ORs the named bits, so the list comes out in bit order without repeats.
  const named = [false, false, false, false];
  for (const name of names) {
    const bit = ALL_CAPABILITIES.indexOf(name.toLowerCase() as HostCapability);
    if (bit < 0)
      throw new DecodeError(
        `unknown capability ${name}`,
        view.keyPath(field.key),
        field.entry.value.at,
      );
    named[bit] = true;
  }
  const out: HostCapability[] = [];
  for (let bit = 0; bit < named.length; bit++)
    if (named[bit]) out.push(ALL_CAPABILITIES[bit] as HostCapability);
  return out;
}

function makeAbsPath(p: string, base: string): string {
  return p.startsWith("/") ? p : goPath.Join(base, p);
}

/** The strings of an array; `keyOf` spells the array's key path for an error. */
function stringItems(items: readonly TomlValue[], keyOf: () => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as TomlValue;
    if (item.kind !== "string") {
      throw new DecodeError(
        `unable to cast ${describeValue(item)} to string`,
        `${keyOf()}[${i}]`,
        item.at,
      );
    }
    out.push(item.value);
  }
  return out;
}

function describeValue(value: TomlValue): string {
  switch (value.kind) {
    case "string":
      return value.value;
    case "integer":
      return value.value.toString();
    case "float":
    case "boolean":
      return String(value.value);
    case "datetime":
      return value.value;
    case "array":
      return "[...]";
    case "table":
      return "map[...]";
  }
}

/** Reads one host section (`hostFileConfig`) and its server name into a host entry. */
function parseHostConfig(
  server: string,
  serverAt: TomlPosition,
  baseDir: string,
  view: StructView,
  trace: Trace,
  file: string,
): HostConfig {
  const result = emptyHost();
  const overridePathField = view.field(HOST_FIELD.override_path);
  const overridePath = overridePathField === undefined ? false : view.bool(overridePathField);
  if (server !== "") {
    const full = server.startsWith("http") ? server : `https://${server}`;
    const u = parseGoUrl(full);
    if (u === undefined) {
      throw new DecodeError(`unable to parse server ${full}`, view.path || "server", serverAt);
    }
    result.scheme = u.scheme;
    result.host = u.host;
    let path = u.path;
    if (path.length > 0) {
      path = goPath.Clean(path);
      if (!path.endsWith("/v2") && !overridePath) path += "/v2";
    } else if (!overridePath) {
      path = "/v2";
    }
    result.path = path;
  }
  const skip = view.field(HOST_FIELD.skip_verify);
  if (skip !== undefined) result.skipVerify = view.bool(skip);
  const caps = view.field(HOST_FIELD.capabilities);
  result.capabilities =
    caps === undefined ? ALL_CAPABILITIES.slice() : decodeCapabilities(view, caps);
  const ca = view.field(HOST_FIELD.ca);
  if (ca !== undefined) {
    const key = view.keyPath(ca.key);
    const value = ca.entry.value;
    if (value.kind === "string") result.caCerts = [makeAbsPath(value.value, baseDir)];
    else if (value.kind === "array")
      result.caCerts = stringItems(value.items, () => key).map((p) => makeAbsPath(p, baseDir));
    else throw new DecodeError(`invalid type ${describeValue(value)} for "ca"`, key, value.at);
  }
  const client = view.field(HOST_FIELD.client);
  if (client !== undefined) {
    const key = view.keyPath(client.key);
    const value = client.entry.value;
    if (value.kind === "string") {
      result.clientPairs = [[makeAbsPath(value.value, baseDir), ""]];
    } else if (value.kind === "array") {
      const pairs: [string, string][] = [];
      value.items.forEach((item, i) => {
        if (item.kind === "string") {
          pairs.push([makeAbsPath(item.value, baseDir), ""]);
        } else if (item.kind === "array") {
          const slice = stringItems(item.items, () => `${key}[${i}]`).map((p) =>
            makeAbsPath(p, baseDir),
          );
          if (slice.length !== 2) {
            throw new DecodeError(
              `invalid pair [${slice.join(" ")}] for "client"`,
              `${key}[${i}]`,
              item.at,
            );
          }
          pairs.push([slice[0] as string, slice[1] as string]);
        } else {
          throw new DecodeError(`invalid type for "client"`, `${key}[${i}]`, item.at);
        }
      });
      if (pairs.length > 0) result.clientPairs = pairs;
    } else {
      throw new DecodeError(`invalid type ${describeValue(value)} for "client"`, key, value.at);
    }
  }
  const header = view.field(HOST_FIELD.header);
  if (header !== undefined) {
    const table = view.table(header);
    const out = new Map<string, string[]>();
    for (const [name, entry] of table.entries) {
      const value = entry.value;
      const keyOf = () => `${view.keyPath(header.key)}.${name}`;
      if (value.kind === "string") out.set(name, [value.value]);
      else if (value.kind === "array") out.set(name, stringItems(value.items, keyOf));
      else
        throw new DecodeError(
          `invalid type ${describeValue(value)} for header ${JSON.stringify(name)}`,
          keyOf(),
          value.at,
        );
    }
    result.header = out;
  }
  const dial = view.field(HOST_FIELD.dial_timeout);
  if (dial !== undefined) {
    const key = view.keyPath(dial.key);
    const text = expectString(dial.entry.value, key);
    if (text !== "") {
      const parsed = goTime.ParseDuration(text);
      if (!parsed.ok) throw new DecodeError(parsed.message, key, dial.entry.value.at);
      result.dialTimeoutNs = parsed.nanoseconds;
    }
  }
  for (const unknown of view.unknown()) {
    trace.warn({
      code: "UNKNOWN_KEY",
      file,
      line: unknown.at.line,
      column: unknown.at.column,
      key: unknown.path,
      message: `containerd ignores the unknown key ${unknown.path}`,
    });
  }
  return result;
}

/** The Go field types of `hostFileConfig`, as go-toml checks them while decoding. */
function typeCheckHost(view: StructView): void {
  // go-toml decodes every key that matches a field, in file order: a later
  // spelling (`Capabilities`) does not hide an earlier one's type error.
  for (const field of view.all(HOST_FIELD.capabilities)) view.stringArray(field);
  for (const field of view.all(HOST_FIELD.skip_verify)) view.bool(field);
  for (const field of view.all(HOST_FIELD.override_path)) view.bool(field);
  for (const field of view.all(HOST_FIELD.header)) view.table(field);
  for (const field of view.all(HOST_FIELD.dial_timeout)) view.string(field);
}

/**
 * The `[host."…"]` names in file order, a name repeated only when another
 * came between. As in containerd's `getSortedHosts`, the name before the
 * first table counts as `""`, so an empty name is never listed first.
 */
function sortedHostNames(
  headers: readonly { keys: readonly string[]; array: boolean }[],
): string[] {
  const out: string[] = [];
  let last = "";
  for (const header of headers) {
    if (header.array) continue;
    if (header.keys.length < 2 || header.keys[0] !== "host" || header.keys[1] === last) continue;
    last = header.keys[1] as string;
    out.push(last);
  }
  return out;
}

/**
 * The fields of containerd's `hostFileConfig` (one `[host."…"]` table, and
 * the top level, which embeds it) and then of the whole file's struct, by
 * their numbers in {@link HOST_FILE_CONFIG} and {@link HOSTS_FILE}.
 */
export const HOST_FIELD = {
  capabilities: 0,
  ca: 1,
  client: 2,
  skip_verify: 3,
  header: 4,
  override_path: 5,
  dial_timeout: 6,
  server: 7,
  host: 8,
} as const;

/** containerd's `hostFileConfig`: one `[host."…"]` table (and the top level, which embeds it). */
export const HOST_FILE_CONFIG = /*#__PURE__*/ new GoStruct("go-toml", [
  "capabilities",
  "ca",
  "client",
  "skip_verify",
  "header",
  "override_path",
  "dial_timeout",
]);

/** The struct hosts.toml decodes into: `hostFileConfig` embedded, then `server` and the `host` map. */
export const HOSTS_FILE = /*#__PURE__*/ new GoStruct("go-toml", [
  ...HOST_FILE_CONFIG.fields,
  "server",
  "host",
]);

/**
 * Whether go-toml, decoding hosts.toml into containerd's struct, finds no
 * field for a table header (it then skips that table's lines). Struct
 * fields match by exact or lower-cased name; maps and `any` take any key.
 */
function skipsHostsTable(keys: readonly string[]): boolean {
  const first = HOSTS_FILE.fieldOf(keys[0] as string);
  if (first < 0) return true;
  if (first !== HOST_FIELD.host || keys.length < 3) return false;
  return HOST_FILE_CONFIG.fieldOf(keys[2] as string) < 0;
}

/** One host name's tables, read as one struct, and whether a table header lists the name. */
interface HostEntry {
  readonly tables: TomlTable[];
  view: StructView | undefined;
  listed: boolean;
}

/** Parses hosts.toml text as containerd does; throws DecodeError/TomlSyntaxError on what it rejects. */
function parseHostsFile(baseDir: string, text: string, trace: Trace, file: string): HostConfig[] {
  const doc = parseToml(text, { skipsTable: skipsHostsTable });
  const headerAt = new Map<string, TomlPosition>();
  for (const header of doc.headers) {
    const name = header.keys[1];
    if (header.keys[0] === "host" && name !== undefined && !headerAt.has(name))
      headerAt.set(name, header.at);
  }
  const top = new StructView(doc.root, "", HOSTS_FILE);
  // go-toml decodes every spelling of `host` into the one map, and a name
  // given twice into the one struct, in file order.
  const byName = new Map<string, HostEntry>();
  for (const { key, entry: field } of top.all(HOST_FIELD.host)) {
    for (const [name, entry] of expectTable(field.value, key).entries) {
      if (entry.value.kind !== "table") expectTable(entry.value, `${key}.${JSON.stringify(name)}`);
      const table = entry.value as TomlTable;
      const host = byName.get(name);
      if (host === undefined) byName.set(name, { tables: [table], view: undefined, listed: false });
      else host.tables.push(table);
    }
  }
  for (const [name, host] of byName)
    host.view = new StructView(host.tables, () => `host.${JSON.stringify(name)}`, HOST_FILE_CONFIG);
  for (const { key, entry } of top.all(HOST_FIELD.server)) expectString(entry.value, key);
  for (const { key, entry } of top.all(HOST_FIELD.host)) expectTable(entry.value, key);
  const serverField = top.field(HOST_FIELD.server);
  const server = serverField === undefined ? "" : expectString(serverField.entry.value, "server");
  // go-toml decodes every value into its Go type before containerd reads any host.
  for (const host of byName.values()) typeCheckHost(host.view as StructView);
  typeCheckHost(top);
  // Decode every host first (all decode errors come before any host is used).
  const hosts: HostConfig[] = [];
  for (const name of sortedHostNames(doc.headers)) {
    const host = byName.get(name) as HostEntry;
    host.listed = true;
    const at = headerAt.get(name) ?? doc.root.at;
    hosts.push(parseHostConfig(name, at, baseDir, host.view as StructView, trace, file));
  }
  for (const [name, host] of byName) {
    if (host.listed) continue;
    trace.warn({
      code: "HOST_NOT_LISTED",
      file,
      key: (host.view as StructView).path,
      message:
        name === ""
          ? `containerd decodes host "" but never uses it: a [host.""] table is listed only when another [host."…"] table comes before it`
          : `containerd decodes host ${JSON.stringify(name)} but never uses it: only [host."…"] table headers list hosts (not inline tables or dotted keys)`,
    });
  }
  hosts.push(
    parseHostConfig(server, serverField?.entry.value.at ?? doc.root.at, baseDir, top, trace, file),
  );
  return hosts;
}

function loadCertFiles(files: NodeFiles, dir: string, trace: Trace): HostConfig[] {
  const host = emptyHost();
  const caCerts: string[] = [];
  const clientPairs: [string, string][] = [];
  for (const entry of files.readDir(dir)) {
    if (entry.isDir) continue;
    if (entry.name.endsWith(".crt")) caCerts.push(goPath.Join(dir, entry.name));
    if (entry.name.endsWith(".cert")) {
      const keyFile = goPath.Join(dir, `${entry.name.slice(0, -5)}.key`);
      const problem = files.problem(keyFile);
      if (problem !== undefined) throw problemError(problem, "stat", keyFile, "LOAD_ERROR");
      const stat = files.stat(keyFile);
      clientPairs.push([
        goPath.Join(dir, entry.name),
        stat === "file" || stat === "dir" ? keyFile : "",
      ]);
    }
  }
  if (caCerts.length > 0) host.caCerts = caCerts;
  if (clientPairs.length > 0) host.clientPairs = clientPairs;
  trace.line(
    `${dir}: Docker-style certificate files give one entry for the upstream (${host.caCerts?.length ?? 0} CA, ${host.clientPairs?.length ?? 0} client pair(s))`,
  );
  return [host];
}

/** `path.Join(dir, name)` for a clean `dir` and a name that is one plain segment. */
export function joinName(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : dir === "." ? name : `${dir}/${name}`;
}

/** Reads the host directory `dir`, a clean path. */
export function loadHostDir(files: NodeFiles, dir: string, trace: Trace): HostConfig[] {
  const file = joinName(dir, "hosts.toml");
  const problem = files.problem(file);
  if (problem?.code === "TOML_ERROR") {
    trace.warn({
      code: "HOSTS_TOML_IGNORED",
      file,
      message: `containerd logs "failed to decode ${file}" (${problem.message}) and ignores the whole file, using the directory's certificate files instead`,
    });
    trace.line(`${file} does not parse: ignored (containerd logs the error)`);
    return loadCertFiles(files, dir, trace);
  }
  if (problem !== undefined) throw problemError(problem, "open", file, "LOAD_ERROR");
  const read = files.read(file);
  let text = "";
  if ("error" in read) {
    if (read.error === "dir" || read.error === "not-a-directory") {
      throw new NodeMirrorsError(
        "LOAD_ERROR",
        `read ${file}: ${read.error === "dir" ? "is a directory" : "not a directory"}`,
        { file },
      );
    }
    trace.line(`${file} does not exist`);
    trace.warn({
      code: "DIRECTORY_WITHOUT_HOSTS_TOML",
      file: dir,
      message: `${dir} has no hosts.toml: containerd uses its certificate files only, and the directory still hides _default`,
    });
  } else {
    text = read.text;
  }
  if (text.length === 0) return loadCertFiles(files, dir, trace);
  try {
    const hosts = parseHostsFile(dir, text, trace, file);
    trace.line(
      `${file}: ${hosts.length - 1} [host] entr${hosts.length === 2 ? "y" : "ies"} then the server entry`,
    );
    return hosts;
  } catch (error) {
    if (error instanceof TomlSyntaxError || error instanceof DecodeError) {
      const at: TomlPosition | undefined = error instanceof TomlSyntaxError ? error : error.at;
      trace.warn({
        code: "HOSTS_TOML_IGNORED",
        file,
        ...(at !== undefined && at.line > 0 ? { line: at.line, column: at.column } : {}),
        ...(error instanceof DecodeError ? { key: error.key } : {}),
        message: `containerd logs "failed to decode ${file}" (${error.message}) and ignores the whole file, using the directory's certificate files instead`,
      });
      trace.line(`${file} does not parse: ignored (containerd logs the error)`);
      return loadCertFiles(files, dir, trace);
    }
    if (error instanceof TomlDepthError) throw tooDeep(error, file);
    throw error;
  }
}

export function checkReadable(
  files: NodeFiles,
  path: string,
  what: string,
  mode: "check" | "assume-present",
): void {
  const problem = files.problem(path);
  if (problem !== undefined) {
    const cause = problemError(problem, "open", path, "LOAD_ERROR");
    throw new NodeMirrorsError(
      cause.code,
      `unable to read ${what} ${JSON.stringify(path)}: ${cause.message}`,
      { file: path },
    );
  }
  const stat = files.stat(path);
  if (stat === "file") return;
  if (stat === "missing" && mode === "assume-present") return;
  const reason =
    stat === "dir"
      ? "is a directory"
      : stat === "missing"
        ? "no such file or directory"
        : "not a directory";
  throw new NodeMirrorsError(
    "LOAD_ERROR",
    `unable to read ${what} ${JSON.stringify(path)}: read ${path}: ${reason}`,
    {
      file: path,
    },
  );
}

/** Exposed for tests and the emitter: the names of hosts.toml host tables, in containerd's order. */
export function hostsTomlOrder(text: string): string[] {
  return sortedHostNames(parseToml(text).headers);
}

/**
 * The error for a path the reader could not read: containerd's own failure
 * (`stat …: too many levels of symbolic links`) for a read error, kubeimg's
 * bound for a file over its cap.
 */
export function problemError(
  problem: NodePathProblem,
  op: "stat" | "open",
  path: string,
  code: "HOST_DIR_ERROR" | "LOAD_ERROR",
): NodeMirrorsError {
  if (problem.code === "LIMIT_EXCEEDED")
    return new NodeMirrorsError("LIMIT_EXCEEDED", `${path}: ${problem.message}`, { file: path });
  return new NodeMirrorsError(code, `${op} ${path}: ${problem.message}`, { file: path });
}
